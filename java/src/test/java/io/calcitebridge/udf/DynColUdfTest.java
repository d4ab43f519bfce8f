package io.calcitebridge.udf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.calcitebridge.arrow.ArrowMemory;
import io.calcitebridge.dyncol.DynColException;
import io.calcitebridge.dyncol.DynColRuntime;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.arrow.c.ArrowArray;
import org.apache.arrow.c.ArrowSchema;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.calcite.avatica.util.ByteString;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The batch entry point through the C Data Interface, as the DuckDB backend calls it: a record
 * batch of arguments in, one result column out, every buffer released afterwards.
 */
class DynColUdfTest {
  private static final int ROWS = 10_000;
  private final BufferAllocator allocator = ArrowMemory.allocator();
  private long before;

  @BeforeEach
  void remember() {
    before = ArrowMemory.allocatedBytes();
  }

  @AfterEach
  void nothingLeaks() {
    assertEquals(before, ArrowMemory.allocatedBytes());
  }

  private static ByteString blob(long i) {
    return DynColRuntime.create(
        new Object[] {"n", "when"},
        new Object[] {i, "2024-01-0" + (1 + i % 9) + " 10:00:00.5"},
        new String[] {DynColRuntime.INT, DynColRuntime.STRING},
        new String[] {"", ""});
  }

  private VarBinaryVector blobs(int rows) {
    VarBinaryVector v = new VarBinaryVector("b", allocator);
    v.allocateNew(rows);
    for (int i = 0; i < rows; i++) {
      if (i % 10 != 3) {
        v.setSafe(i, blob(i).getBytes());
      }
    }
    v.setValueCount(rows);
    return v;
  }

  private VarCharVector strings(String name, int rows, String value) {
    VarCharVector v = new VarCharVector(name, allocator);
    v.allocateNew(rows);
    for (int i = 0; i < rows; i++) {
      v.setSafe(i, value.getBytes(StandardCharsets.UTF_8));
    }
    v.setValueCount(rows);
    return v;
  }

  /** Runs {@code spec} over the columns as DuckDB hands them over; the imported result. */
  private FieldVector call(String spec, List<FieldVector> columns) {
    try (ArrowArray in = ArrowArray.allocateNew(allocator);
        ArrowSchema inSchema = ArrowSchema.allocateNew(allocator);
        ArrowArray out = ArrowArray.allocateNew(allocator);
        ArrowSchema outSchema = ArrowSchema.allocateNew(allocator);
        VectorSchemaRoot root = new VectorSchemaRoot(columns)) {
      Data.exportVectorSchemaRoot(allocator, root, null, in, inSchema);
      try {
        DynColUdf.apply(
            spec,
            in.memoryAddress(),
            inSchema.memoryAddress(),
            out.memoryAddress(),
            outSchema.memoryAddress());
      } finally {
        assertTrue(in.snapshot().release == 0, "the batch is released whatever happens");
      }
      return Data.importVector(allocator, out, outSchema, null);
    }
  }

  @Test
  void columnGetOverABatch() {
    try (FieldVector result =
        call("COLUMN_GET;i8;INT;b;s", List.of(blobs(ROWS), strings("k", ROWS, "n")))) {
      BigIntVector ints = (BigIntVector) result;
      assertEquals(ROWS, ints.getValueCount());
      for (int i = 0; i < ROWS; i++) {
        if (i % 10 == 3) {
          assertTrue(ints.isNull(i));
        } else {
          assertEquals(i, ints.get(i));
        }
      }
    }
  }

  @Test
  void decimalsAndTimestampsLeaveInDuckDbsTypes() {
    try (FieldVector result =
        call("COLUMN_GET;n8x1;DECIMAL(8,1);b;s", List.of(blobs(20), strings("k", 20, "n")))) {
      assertEquals(new BigDecimal("7.0"), ((DecimalVector) result).getObject(7));
      assertEquals(1, ((DecimalVector) result).getScale());
    }
    try (FieldVector result =
        call("COLUMN_GET;ts;DATETIME(3);b;s", List.of(blobs(20), strings("k", 20, "when")))) {
      TimeStampMicroVector ts = (TimeStampMicroVector) result;
      // 2024-01-02 10:00:00.5, in microseconds
      assertEquals(1_704_189_600_500_000L, ts.get(1));
      assertTrue(ts.isNull(3));
    }
  }

  @Test
  void hexLiteralsAndNestedBlobs() {
    VarCharVector hex = strings("h", 3, blob(5).toString(16));
    try (FieldVector result =
        call("COLUMN_CREATE;b;;s;h:DYNCOL:", List.of(strings("k", 3, "inner"), hex))) {
      ByteString expected =
          DynColRuntime.create(
              new Object[] {"inner"},
              new Object[] {blob(5)},
              new String[] {DynColRuntime.DYNCOL},
              new String[] {""});
      assertEquals(expected, new ByteString(((VarBinaryVector) result).get(2)));
    }
    // The call took the first batch's vectors: the next one gets its own.
    try (FieldVector result =
        call("COLUMN_JSON;s;;h", List.of(strings("h", 1, blob(5).toString(16))))) {
      assertEquals(
          DynColRuntime.json(blob(5)),
          new String(((VarCharVector) result).get(0), StandardCharsets.UTF_8));
    }
  }

  @Test
  void nullsFollowTheRuntime() {
    VarBinaryVector none = new VarBinaryVector("b", allocator);
    none.allocateNew(2);
    none.setValueCount(2);
    try (FieldVector result = call("COLUMN_LIST;s;;b", List.of(none))) {
      assertNull(((VarCharVector) result).getObject(0));
    }
  }

  @Test
  void aBadBlobThrowsMariaDbsErrorAndReleasesTheBatch() {
    VarBinaryVector bad = new VarBinaryVector("b", allocator);
    bad.allocateNew(1);
    bad.setSafe(0, new byte[] {'x', 'y', 'z'});
    bad.setValueCount(1);
    DynColException e =
        assertThrows(
            DynColException.class,
            () -> call("COLUMN_GET;i8;INT;b;s", List.of(bad, strings("k", 1, "a"))).close());
    assertEquals(DynColException.WRONG_FORMAT, e.code());
  }
}

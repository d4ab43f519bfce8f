package io.calcitebridge.arrow;

import static io.calcitebridge.arrow.TestData.TF;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.calcitebridge.types.ArrowTypes;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.LargeListVector;
import org.apache.arrow.vector.complex.impl.UnionLargeListWriter;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Rows to Arrow to rows, for every type, with NULLs at every nesting level. */
class RoundTripTest {
  private BufferAllocator allocator;

  @BeforeEach
  void open() {
    allocator = new RootAllocator();
  }

  @AfterEach
  void close() {
    assertEquals(0, allocator.getAllocatedMemory(), "leaked Arrow memory");
    allocator.close();
  }

  static List<Object[]> readAll(Enumerable<Object[]> rows) {
    List<Object[]> out = new ArrayList<>();
    try (Enumerator<Object[]> e = rows.enumerator()) {
      while (e.moveNext()) {
        out.add(e.current());
      }
    }
    return out;
  }

  @Test
  void everyTypeRoundTripsInSmallBatches() throws Exception {
    RelDataType rowType = TestData.allTypes(false);
    List<Object[]> rows = TestData.allRows(false);
    try (RowsToArrow reader =
        new RowsToArrow(
            allocator, rowType, org.apache.calcite.linq4j.Linq4j.enumerator(rows), 2, 1 << 20)) {
      assertEquals(ArrowTypes.toSchema(rowType), reader.getVectorSchemaRoot().getSchema());
      TestData.assertRowsEqual(rows, readAll(ArrowToRows.of(reader)));
    }
  }

  @Test
  void batchesAreCappedByRowsAndBytes() throws Exception {
    RelDataType rowType = TF.builder().add("s", TestData.type(SqlTypeName.VARCHAR)).build();
    List<Object[]> rows = new ArrayList<>();
    String big = "x".repeat(1000);
    for (int i = 0; i < 100; i++) {
      rows.add(new Object[] {big});
    }
    List<Integer> sizes = new ArrayList<>();
    try (ArrowReader reader =
        new RowsToArrow(
            allocator, rowType, org.apache.calcite.linq4j.Linq4j.enumerator(rows), 30, 10_000)) {
      while (reader.loadNextBatch()) {
        sizes.add(reader.getVectorSchemaRoot().getRowCount());
      }
    }
    assertEquals(100, sizes.stream().mapToInt(Integer::intValue).sum());
    assertTrue(sizes.stream().allMatch(n -> n <= 10), sizes.toString());
  }

  @Test
  void lenientInputsAreNormalised() throws Exception {
    RelDataType rowType = TestData.allTypes(false);
    Object[] in = TestData.allRows(false).get(0).clone();
    Object[] expected = in.clone();
    in[1] = 1; // BOOLEAN from a number
    in[2] = 255L & 0x7f; // TINYINT from a Long
    in[5] = 7; // BIGINT from an Integer
    expected[2] = (byte) 127;
    expected[5] = 7L;
    in[8] = 12.34; // DECIMAL from a double
    in[11] = "héllo".getBytes(StandardCharsets.UTF_8);
    expected[11] = new ByteString("héllo".getBytes(StandardCharsets.UTF_8));
    in[12] = LocalDate.ofEpochDay(19000);
    in[13] = LocalTime.ofNanoOfDay(3_600_123_000_000L);
    in[15] = LocalDateTime.of(2023, 11, 14, 22, 13, 20, 123_000_000);
    in[17] = Arrays.asList(7, "x", List.of(0.5)); // ROW as List, nested ROW as List
    in[18] = new int[] {10, 20};
    expected[18] = Arrays.asList(10, 20);
    try (RowsToArrow reader =
        RowsToArrow.fromIterator(allocator, rowType, List.<Object[]>of(in).iterator())) {
      List<Object[]> out = readAll(ArrowToRows.of(reader));
      TestData.assertRowsEqual(List.<Object[]>of(expected), out);
    }
  }

  @Test
  void badValuesFailClearly() {
    RelDataType rowType = TF.builder().add("i", TestData.type(SqlTypeName.INTEGER)).build();
    Exception e =
        assertThrows(
            IllegalArgumentException.class,
            () -> {
              try (ArrowReader reader =
                  RowsToArrow.fromRows(
                      allocator, rowType, List.<Object[]>of(new Object[] {new Object()}))) {
                reader.loadNextBatch();
              }
            });
    assertTrue(e.getMessage().contains("an integer"), e.getMessage());
  }

  @Test
  void emptyInputGivesSchemaAndNoBatch() throws Exception {
    RelDataType rowType = TestData.allTypes(false);
    try (ArrowReader reader = RowsToArrow.fromRows(allocator, rowType, List.of())) {
      assertEquals(ArrowTypes.toSchema(rowType), reader.getVectorSchemaRoot().getSchema());
      assertFalse(reader.loadNextBatch());
    }
  }

  @Test
  void projectionOfARoot() throws Exception {
    RelDataType rowType = TestData.allTypes(false);
    List<Object[]> rows = TestData.allRows(false);
    try (ArrowReader reader = RowsToArrow.fromRows(allocator, rowType, rows)) {
      assertTrue(reader.loadNextBatch());
      VectorSchemaRoot root = reader.getVectorSchemaRoot();
      List<Object[]> out = readAll(ArrowToRows.of(root, new int[] {17, 0}));
      assertEquals(3, out.size());
      for (int i = 0; i < rows.size(); i++) {
        TestData.assertDeepEquals(
            new Object[] {rows.get(i)[17], rows.get(i)[0]}, out.get(i), "row " + i);
      }
      // A root can be enumerated again.
      assertEquals(3, readAll(ArrowToRows.of(root)).size());
    }
  }

  @Test
  void streamCanBeEnumeratedOnlyOnceButSupplierAgain() throws Exception {
    RelDataType rowType = TestData.allTypes(true);
    List<Object[]> rows = TestData.allRows(true);
    Enumerable<Object[]> once = ArrowToRows.of(RowsToArrow.fromRows(allocator, rowType, rows));
    assertEquals(3, readAll(once).size());
    assertThrows(IllegalStateException.class, () -> readAll(once));
    Enumerable<Object[]> again =
        ArrowToRows.of(() -> RowsToArrow.fromRows(allocator, rowType, rows), new int[] {0});
    assertEquals(3, readAll(again).size());
    assertEquals(List.of(1, 2, 3), readAll(again).stream().map(r -> r[0]).toList());
  }

  @Test
  void largeArrowVectorsAreRead() {
    Field ll =
        new Field(
            "ll",
            FieldType.nullable(ArrowType.LargeList.INSTANCE),
            List.of(Field.nullable("item", new ArrowType.Int(64, true))));
    Schema schema =
        new Schema(
            List.of(
                Field.nullable("ls", ArrowType.LargeUtf8.INSTANCE),
                Field.nullable("u", new ArrowType.Int(32, false)),
                Field.nullable("ts", new ArrowType.Timestamp(TimeUnit.MICROSECOND, "UTC")),
                ll));
    try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
      root.allocateNew();
      ((LargeVarCharVector) root.getVector("ls"))
          .setSafe(0, "größe".getBytes(StandardCharsets.UTF_8));
      ((UInt4Vector) root.getVector("u")).setSafe(0, -1);
      ((TimeStampMicroTZVector) root.getVector("ts")).setSafe(0, -1_500L);
      UnionLargeListWriter w = ((LargeListVector) root.getVector("ll")).getWriter();
      w.setPosition(0);
      w.startList();
      w.bigInt().writeBigInt(5L);
      w.writeNull();
      w.endList();
      root.setRowCount(2);
      List<Object[]> out = readAll(ArrowToRows.of(root));
      // A timestamp[us], zoned or not, is held in microseconds (TimeUnits).
      TestData.assertDeepEquals(
          new Object[] {"größe", 4_294_967_295L, -1_500L, Arrays.asList(5L, null)},
          out.get(0),
          "row 0");
      TestData.assertDeepEquals(new Object[] {null, null, null, null}, out.get(1), "row 1");
      RelDataType t = ArrowTypes.toRowType(TF, schema);
      assertEquals(
          "RecordType(VARCHAR ls, BIGINT u, TIMESTAMP_WITH_LOCAL_TIME_ZONE(3) ts, "
              + "BIGINT ARRAY ll) NOT NULL",
          t.getFullTypeString());
      assertTrue(root.getVector("u") instanceof UInt4Vector);
      assertFalse(root.getVector("ls") instanceof BigIntVector);
    }
  }

  @Test
  void decimalsTakeTheColumnScale() throws Exception {
    RelDataType rowType =
        TF.builder()
            .add("d", TestData.nullable(TF.createSqlType(SqlTypeName.DECIMAL, 10, 2)))
            .build();
    try (ArrowReader reader =
        RowsToArrow.fromRows(
            allocator,
            rowType,
            List.<Object[]>of(new Object[] {new BigDecimal("1.005")}, new Object[] {3}))) {
      List<Object[]> out = readAll(ArrowToRows.of(reader));
      assertEquals(new BigDecimal("1.01"), out.get(0)[0]);
      assertEquals(new BigDecimal("3.00"), out.get(1)[0]);
    }
  }
}

package io.calcitebridge.udf;

import io.calcitebridge.arrow.ArrowMemory;
import io.calcitebridge.arrow.ValueReaders;
import io.calcitebridge.dyncol.DynColBatch;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.apache.arrow.c.ArrowArray;
import org.apache.arrow.c.ArrowSchema;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.calcite.avatica.util.ByteString;

/**
 * The batch entry point of the DuckDB backend's {@code COLUMN_*} functions: one call computes one
 * {@code COLUMN_*} call ({@link DynColBatch}, described by its spec) over every row of a batch.
 *
 * <p>The arguments arrive as a record batch exported through the Arrow C Data Interface, one column
 * per argument; the result leaves as one exported array. Argument columns are read in Calcite's
 * runtime representation ({@link ValueReaders}), except those of code {@code h}: VARCHAR hex digits
 * that stand for a binary literal. Result codes: {@code b} BLOB, {@code s} VARCHAR, {@code i4}
 * INTEGER, {@code i8} BIGINT, {@code f8} DOUBLE, {@code n<p>x<s>} DECIMAL(p, s), {@code dt} DATE,
 * {@code ts} TIMESTAMP (microseconds).
 */
public final class DynColUdf {
  private static final ConcurrentMap<String, DynColBatch> CALLS = new ConcurrentHashMap<>();
  private static final int MAX_CACHED = 1024;

  private DynColUdf() {}

  /**
   * Computes the call {@code spec} describes over the record batch at {@code inArray}/{@code
   * inSchema} (C structs whose contents are moved out and released here, whatever happens) and
   * exports the result column into the C structs at {@code outArray}/{@code outSchema}, which the
   * caller imports. Nothing stays allocated in Java once the caller released the result.
   */
  public static void apply(
      String spec, long inArray, long inSchema, long outArray, long outSchema) {
    BufferAllocator allocator = ArrowMemory.allocator();
    try (VectorSchemaRoot root =
        Data.importVectorSchemaRoot(
            allocator, ArrowArray.wrap(inArray), ArrowSchema.wrap(inSchema), null)) {
      DynColBatch call = call(spec);
      int rows = root.getRowCount();
      List<FieldVector> vectors = root.getFieldVectors();
      Object[][] columns = new Object[vectors.size()][];
      for (int i = 0; i < columns.length; i++) {
        columns[i] = read(vectors.get(i), call.code(i), rows);
      }
      Object[] values = call.apply(columns, rows);
      try (FieldVector out = write(allocator, call.result(), values)) {
        Data.exportVector(
            allocator, out, null, ArrowArray.wrap(outArray), ArrowSchema.wrap(outSchema));
      }
    }
  }

  /** The parsed spec, cached: a query calls the same spec once per batch. */
  static DynColBatch call(String spec) {
    DynColBatch call = CALLS.get(spec);
    if (call == null) {
      call = DynColBatch.parse(spec);
      if (CALLS.size() >= MAX_CACHED) {
        CALLS.clear();
      }
      CALLS.put(spec, call);
    }
    return call;
  }

  private static Object[] read(FieldVector v, String code, int rows) {
    Object[] out = new Object[rows];
    // The COLUMN_* functions take a TIMESTAMP in milliseconds, the engine's value of a
    // TIMESTAMP(3), whatever the unit DuckDB hands over.
    ValueReaders.ValueReader reader =
        v instanceof org.apache.arrow.vector.TimeStampVector t ? millis(t) : ValueReaders.of(v);
    for (int r = 0; r < rows; r++) {
      Object value = reader.get(r);
      if (value != null && "h".equals(code)) {
        value = ByteString.of((String) value, 16);
      }
      out[r] = value;
    }
    return out;
  }

  private static ValueReaders.ValueReader millis(org.apache.arrow.vector.TimeStampVector t) {
    org.apache.arrow.vector.types.TimeUnit unit =
        ((org.apache.arrow.vector.types.pojo.ArrowType.Timestamp) t.getField().getType()).getUnit();
    return i -> t.isNull(i) ? null : io.calcitebridge.arrow.TimeUnits.toMillis(t.get(i), unit);
  }

  /** A vector of the result code's type holding {@code values}. */
  static FieldVector write(BufferAllocator allocator, String code, Object[] values) {
    int n = values.length;
    switch (code) {
      case "b":
        {
          VarBinaryVector v = new VarBinaryVector("r", allocator);
          v.allocateNew(n);
          for (int i = 0; i < n; i++) {
            if (values[i] != null) {
              v.setSafe(i, ((ByteString) values[i]).getBytes());
            }
          }
          v.setValueCount(n);
          return v;
        }
      case "s":
        {
          VarCharVector v = new VarCharVector("r", allocator);
          v.allocateNew(n);
          for (int i = 0; i < n; i++) {
            if (values[i] != null) {
              v.setSafe(i, ((String) values[i]).getBytes(StandardCharsets.UTF_8));
            }
          }
          v.setValueCount(n);
          return v;
        }
      case "i4":
        {
          IntVector v = new IntVector("r", allocator);
          v.allocateNew(n);
          for (int i = 0; i < n; i++) {
            if (values[i] != null) {
              v.set(i, ((Number) values[i]).intValue());
            }
          }
          v.setValueCount(n);
          return v;
        }
      case "i8":
        {
          BigIntVector v = new BigIntVector("r", allocator);
          v.allocateNew(n);
          for (int i = 0; i < n; i++) {
            if (values[i] != null) {
              v.set(i, ((Number) values[i]).longValue());
            }
          }
          v.setValueCount(n);
          return v;
        }
      case "f8":
        {
          Float8Vector v = new Float8Vector("r", allocator);
          v.allocateNew(n);
          for (int i = 0; i < n; i++) {
            if (values[i] != null) {
              v.set(i, ((Number) values[i]).doubleValue());
            }
          }
          v.setValueCount(n);
          return v;
        }
      case "dt":
        {
          DateDayVector v = new DateDayVector("r", allocator);
          v.allocateNew(n);
          for (int i = 0; i < n; i++) {
            if (values[i] != null) {
              v.set(i, ((Number) values[i]).intValue());
            }
          }
          v.setValueCount(n);
          return v;
        }
      case "ts":
        {
          TimeStampMicroVector v = new TimeStampMicroVector("r", allocator);
          v.allocateNew(n);
          for (int i = 0; i < n; i++) {
            if (values[i] != null) {
              v.set(i, Math.multiplyExact(((Number) values[i]).longValue(), 1000L));
            }
          }
          v.setValueCount(n);
          return v;
        }
      default:
        return decimal(allocator, code, values);
    }
  }

  private static FieldVector decimal(BufferAllocator allocator, String code, Object[] values) {
    if (!code.startsWith("n") || code.indexOf('x') < 0) {
      throw new IllegalArgumentException("Unknown result code: " + code);
    }
    int precision = Integer.parseInt(code.substring(1, code.indexOf('x')));
    int scale = Integer.parseInt(code.substring(code.indexOf('x') + 1));
    DecimalVector v = new DecimalVector("r", allocator, precision, scale);
    v.allocateNew(values.length);
    for (int i = 0; i < values.length; i++) {
      if (values[i] != null) {
        // As the enumerable result's writer stores a DECIMAL of another scale.
        v.setSafe(i, ((BigDecimal) values[i]).setScale(scale, RoundingMode.HALF_UP));
      }
    }
    v.setValueCount(values.length);
    return v;
  }
}

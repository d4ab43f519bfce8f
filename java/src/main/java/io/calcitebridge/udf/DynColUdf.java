package io.calcitebridge.udf;

import io.calcitebridge.arrow.ValueReaders;
import io.calcitebridge.dyncol.DynColBatch;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.apache.arrow.vector.FieldVector;
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
    ArrowBatch.apply(
        inArray,
        inSchema,
        outArray,
        outSchema,
        (allocator, root) -> {
          DynColBatch call = call(spec);
          int rows = root.getRowCount();
          List<FieldVector> vectors = root.getFieldVectors();
          Object[][] columns = new Object[vectors.size()][];
          for (int i = 0; i < columns.length; i++) {
            columns[i] = read(vectors.get(i), call.code(i), rows);
          }
          return ArrowBatch.write(allocator, call.result(), call.apply(columns, rows));
        });
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
}

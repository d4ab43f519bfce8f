package io.calcitebridge.udf;

import io.calcitebridge.arrow.ArrowMemory;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.function.BiFunction;
import org.apache.arrow.c.ArrowArray;
import org.apache.arrow.c.ArrowSchema;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
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
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The Arrow side of a batch function on DuckDB's connection ({@link JavaUdf}, {@link DynColUdf}):
 * the batch arrives as a record batch exported through the Arrow C Data Interface, one column per
 * operand, and the result leaves as one exported array of a type code's vector.
 *
 * <p>Result codes: {@code bo} BOOLEAN, {@code b} BLOB, {@code s} VARCHAR, {@code i4} INTEGER,
 * {@code i8} BIGINT, {@code f8} DOUBLE, {@code n<p>x<s>} DECIMAL(p, s), {@code dt} DATE, {@code ts}
 * TIMESTAMP (microseconds). A result value may be a Java method's ({@code byte[]}, {@code
 * LocalDate}, {@code LocalDateTime}, their {@code java.sql} classes) or the engine's runtime value
 * ({@code ByteString}, the day number of a date, the milliseconds of a timestamp).
 */
final class ArrowBatch {
  private ArrowBatch() {}

  /**
   * Computes {@code compute} over the record batch at {@code inArray}/{@code inSchema} (C structs
   * whose contents are moved out and released here, whatever happens) and exports the vector it
   * returns into the C structs at {@code outArray}/{@code outSchema}, which the caller imports.
   * Nothing stays allocated in Java once the caller released the result.
   */
  static void apply(
      long inArray,
      long inSchema,
      long outArray,
      long outSchema,
      BiFunction<BufferAllocator, VectorSchemaRoot, FieldVector> compute) {
    BufferAllocator allocator = ArrowMemory.allocator();
    try (VectorSchemaRoot root =
        Data.importVectorSchemaRoot(
            allocator, ArrowArray.wrap(inArray), ArrowSchema.wrap(inSchema), null)) {
      try (FieldVector out = compute.apply(allocator, root)) {
        Data.exportVector(
            allocator, out, null, ArrowArray.wrap(outArray), ArrowSchema.wrap(outSchema));
      }
    }
  }

  /** One row's value of a column, as a Java method takes it. */
  @FunctionalInterface
  interface Reader {
    @Nullable Object get(int row);
  }

  /**
   * Reads {@code v} as a Java method takes it: a {@code Long}, {@code Integer}, {@code Double},
   * {@code Boolean}, {@code String}, {@code byte[]}, {@code LocalDate}, {@code LocalDateTime} or
   * {@code BigDecimal}.
   */
  static Reader reader(FieldVector v) {
    if (v instanceof BigIntVector b) {
      return r -> b.isNull(r) ? null : b.get(r);
    } else if (v instanceof IntVector i) {
      return r -> i.isNull(r) ? null : i.get(r);
    } else if (v instanceof Float8Vector f) {
      return r -> f.isNull(r) ? null : f.get(r);
    } else if (v instanceof VarCharVector s) {
      return r -> s.isNull(r) ? null : new String(s.get(r), StandardCharsets.UTF_8);
    } else if (v instanceof DateDayVector d) {
      return r -> d.isNull(r) ? null : LocalDate.ofEpochDay(d.get(r));
    }
    return v::getObject;
  }

  /** The class of the values {@link #reader} gives of {@code v}; null when that varies. */
  static @Nullable Class<?> readsAs(FieldVector v) {
    if (v instanceof BigIntVector) {
      return Long.class;
    } else if (v instanceof IntVector) {
      return Integer.class;
    } else if (v instanceof Float8Vector) {
      return Double.class;
    } else if (v instanceof VarCharVector) {
      return String.class;
    } else if (v instanceof DateDayVector) {
      return java.time.LocalDate.class;
    } else if (v instanceof BitVector) {
      return Boolean.class;
    } else if (v instanceof VarBinaryVector) {
      return byte[].class;
    }
    return null;
  }

  /** A vector of the result code's type holding {@code values}. */
  static FieldVector write(BufferAllocator allocator, String code, @Nullable Object[] values) {
    int n = values.length;
    switch (code) {
      case "bo":
        return fill(
            new BitVector("r", allocator), values, (v, i, x) -> v.set(i, (Boolean) x ? 1 : 0));
      case "i4":
        return fill(
            new IntVector("r", allocator), values, (v, i, x) -> v.set(i, ((Number) x).intValue()));
      case "i8":
        return fill(
            new BigIntVector("r", allocator),
            values,
            (v, i, x) -> v.set(i, ((Number) x).longValue()));
      case "f8":
        // A Float widens by its decimal text, as Calcite's engine's FLOAT reads.
        return fill(
            new Float8Vector("r", allocator),
            values,
            (v, i, x) ->
                v.set(
                    i,
                    x instanceof Float f
                        ? Double.parseDouble(f.toString())
                        : ((Number) x).doubleValue()));
      case "dt":
        return fill(new DateDayVector("r", allocator), values, (v, i, x) -> v.set(i, day(x)));
      case "ts":
        return fill(
            new TimeStampMicroVector("r", allocator), values, (v, i, x) -> v.set(i, micros(x)));
      case "b":
        {
          VarBinaryVector v = new VarBinaryVector("r", allocator);
          v.allocateNew(n);
          for (int i = 0; i < n; i++) {
            Object x = values[i];
            if (x != null) {
              v.setSafe(i, x instanceof ByteString s ? s.getBytes() : (byte[]) x);
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
              v.setSafe(i, values[i].toString().getBytes(StandardCharsets.UTF_8));
            }
          }
          v.setValueCount(n);
          return v;
        }
      default:
        return decimal(allocator, code, values);
    }
  }

  /** Sets one non-NULL value into a fixed-width vector. */
  @FunctionalInterface
  private interface Setter<V> {
    void set(V vector, int row, Object value);
  }

  private static <V extends BaseFixedWidthVector> V fill(
      V v, @Nullable Object[] values, Setter<V> setter) {
    int n = values.length;
    v.allocateNew(n);
    try {
      for (int i = 0; i < n; i++) {
        if (values[i] != null) {
          setter.set(v, i, values[i]);
        }
      }
    } catch (RuntimeException e) {
      v.close();
      throw e;
    }
    v.setValueCount(n);
    return v;
  }

  private static int day(Object x) {
    if (x instanceof Number d) {
      return d.intValue();
    }
    LocalDate d = x instanceof java.sql.Date s ? s.toLocalDate() : (LocalDate) x;
    return Math.toIntExact(d.toEpochDay());
  }

  /** The microseconds of a timestamp: a Java method's value, or the engine's milliseconds. */
  private static long micros(Object x) {
    if (x instanceof Number millis) {
      return Math.multiplyExact(millis.longValue(), 1000L);
    }
    LocalDateTime t = x instanceof java.sql.Timestamp s ? s.toLocalDateTime() : (LocalDateTime) x;
    java.time.Instant at = t.toInstant(ZoneOffset.UTC);
    return Math.addExact(Math.multiplyExact(at.getEpochSecond(), 1_000_000L), at.getNano() / 1000);
  }

  private static FieldVector decimal(
      BufferAllocator allocator, String code, @Nullable Object[] values) {
    if (!code.startsWith("n") || code.indexOf('x') < 0) {
      throw new IllegalArgumentException("Unknown result code: " + code);
    }
    int precision = Integer.parseInt(code.substring(1, code.indexOf('x')));
    int scale = Integer.parseInt(code.substring(code.indexOf('x') + 1));
    DecimalVector v = new DecimalVector("r", allocator, precision, scale);
    v.allocateNew(values.length);
    try {
      for (int i = 0; i < values.length; i++) {
        if (values[i] != null) {
          // As the enumerable result's writer stores a DECIMAL of another scale.
          v.setSafe(i, ((BigDecimal) values[i]).setScale(scale, RoundingMode.HALF_UP));
        }
      }
    } catch (RuntimeException e) {
      v.close();
      throw e;
    }
    v.setValueCount(values.length);
    return v;
  }
}

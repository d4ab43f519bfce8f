package io.calcitebridge.udf;

import io.calcitebridge.arrow.ArrowMemory;
import io.calcitebridge.errors.SourceException;
import io.calcitebridge.functions.JavaFunction;
import java.lang.reflect.Method;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.UnaryOperator;
import org.apache.arrow.c.ArrowArray;
import org.apache.arrow.c.ArrowSchema;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
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
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The batch entry point of Java functions on the DuckDB backend: DuckDB calls the Arrow function
 * {@code cb_java_<id>_<result>_<arg>...(spec, operands...)} (written by the translation, {@code
 * DuckDbPython#rewriteJava}) once a batch, and the backend hands the batch to {@link #apply}, which
 * calls the {@code eval} overload the validator chose ({@code spec} names its parameter classes) on
 * each row and returns the results as one Arrow array. Both cross through the Arrow C Data
 * Interface, so a batch is one crossing whatever its rows.
 *
 * <p>Values reach the method as on Calcite's engine ({@code Long}, {@code String}, {@code
 * LocalDate}, ...), except that a timestamp keeps its microseconds (DuckDB's unit); a NULL reaching
 * a primitive parameter makes the row's result NULL without a call. Codes of the operands and the
 * result, as for a Python function: {@code bo} BOOLEAN, {@code i4} INTEGER, {@code i8} BIGINT,
 * {@code f8} DOUBLE, {@code n<p>x<s>} DECIMAL(p, s), {@code s} VARCHAR, {@code b} BLOB, {@code dt}
 * DATE, {@code ts} TIMESTAMP. One batch of a function runs at a time, as Flink calls an instance
 * from one thread.
 */
public final class JavaUdf {
  private static final ConcurrentMap<String, Call> CALLS = new ConcurrentHashMap<>();
  private static final int MAX_CACHED = 1024;

  /** One call site: the function, its overload and the conversions of operands and result. */
  private record Call(
      JavaFunction function,
      Method method,
      List<UnaryOperator<@Nullable Object>> arguments,
      String result) {}

  private JavaUdf() {}

  /**
   * Whether the function of the DuckDB name {@code name} is deterministic; null when no live
   * function has its id (dropped, or a look-alike name).
   */
  public static @Nullable Boolean deterministic(String name) {
    JavaFunction f = function(name);
    return f == null ? null : f.isDeterministic();
  }

  /**
   * Calls the function of {@code name} ({@code cb_java_<id>_<result>_<arg>...}) with the overload
   * {@code spec} names ({@code label;class;parameter classes}) over every row of the record batch
   * at {@code inArray}/{@code inSchema} (its columns the operands; the C structs' contents are
   * moved out and released here, whatever happens), and exports the results into the C structs at
   * {@code outArray}/{@code outSchema}, which the caller imports. A failure of the method is the
   * {@link SourceException} naming the function.
   */
  public static void apply(
      String name, String spec, long inArray, long inSchema, long outArray, long outSchema) {
    BufferAllocator allocator = ArrowMemory.allocator();
    try (VectorSchemaRoot root =
        Data.importVectorSchemaRoot(
            allocator, ArrowArray.wrap(inArray), ArrowSchema.wrap(inSchema), null)) {
      Call call = call(name, spec);
      int rows = root.getRowCount();
      List<FieldVector> vectors = root.getFieldVectors();
      int arity = call.arguments().size();
      if (vectors.size() != arity) {
        throw new IllegalStateException(
            "The function " + name + " got " + vectors.size() + " columns for " + arity);
      }
      Object[] results = new Object[rows];
      Object[] values = new Object[arity];
      synchronized (call.function()) {
        for (int r = 0; r < rows; r++) {
          for (int i = 0; i < arity; i++) {
            values[i] = call.arguments().get(i).apply(vectors.get(i).getObject(r));
          }
          results[r] = call.function().invoke(call.method(), Arrays.copyOf(values, arity));
        }
      }
      FieldVector out;
      try {
        out = write(allocator, call.result(), results);
      } catch (RuntimeException e) {
        throw call.function().failure(e);
      }
      try (FieldVector exported = out) {
        Data.exportVector(
            allocator, exported, null, ArrowArray.wrap(outArray), ArrowSchema.wrap(outSchema));
      }
    }
  }

  /**
   * Spark's type, as DDL, of the rows of the table function of {@code name}: {@code
   * array<struct<`word`:string,`n`:int>>}; null when no live function has its id.
   */
  public static @Nullable String sparkRowsType(String name) {
    JavaFunction f = function(name);
    if (f == null || !f.isTable()) {
      return null;
    }
    org.apache.calcite.rel.type.RelDataType element = f.rowsType().getComponentType();
    StringBuilder out = new StringBuilder("array<struct<");
    List<org.apache.calcite.rel.type.RelDataTypeField> fields =
        element == null ? List.of() : element.getFieldList();
    for (int i = 0; i < fields.size(); i++) {
      org.apache.calcite.rel.type.RelDataType t = fields.get(i).getType();
      String spark =
          switch (t.getSqlTypeName()) {
            case BOOLEAN -> "boolean";
            case TINYINT, SMALLINT, INTEGER -> "int";
            case BIGINT -> "bigint";
            case FLOAT, REAL, DOUBLE -> "double";
            case DECIMAL -> "decimal(" + t.getPrecision() + "," + t.getScale() + ")";
            case CHAR, VARCHAR -> "string";
            case BINARY, VARBINARY -> "binary";
            case DATE -> "date";
            default ->
                throw new IllegalArgumentException(
                    "The table function " + f.label() + " has a column of type " + t);
          };
      out.append(i == 0 ? "" : ",")
          .append('`')
          .append(fields.get(i).getName().replace("`", "``"))
          .append("`:")
          .append(spark);
    }
    return out.append(">>").toString();
  }

  private static @Nullable JavaFunction function(String name) {
    String[] parts = name.toLowerCase(java.util.Locale.ROOT).split("_");
    if (parts.length < 4 || !parts[0].equals("cb") || !parts[1].equals("java")) {
      return null;
    }
    try {
      return JavaFunction.live(Long.parseLong(parts[2]));
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** The call site of {@code name} and {@code spec}, cached: a query calls it once per batch. */
  private static Call call(String name, String spec) {
    String key = name + "|" + spec;
    Call call = CALLS.get(key);
    if (call != null && JavaFunction.live(call.function().id()) == call.function()) {
      return call;
    }
    JavaFunction f = function(name);
    String[] fields = spec.split(";", -1);
    if (f == null || fields.length < 3) {
      throw new IllegalStateException("The Java function of " + name + " was dropped");
    }
    List<String> params = fields[2].isEmpty() ? List.of() : List.of(fields[2].split(","));
    Method m = f.overload(params);
    if (m == null) {
      throw new IllegalStateException("No eval method of " + f.label() + " takes " + params);
    }
    String[] codes = name.toLowerCase(java.util.Locale.ROOT).split("_");
    List<UnaryOperator<@Nullable Object>> arguments = new ArrayList<>();
    for (Class<?> p : m.getParameterTypes()) {
      arguments.add(argument(p));
    }
    call = new Call(f, m, arguments, codes[3]);
    if (CALLS.size() >= MAX_CACHED) {
      CALLS.clear();
    }
    CALLS.put(key, call);
    return call;
  }

  private static Class<?> boxed(Class<?> c) {
    if (!c.isPrimitive()) {
      return c;
    }
    return java.lang.invoke.MethodType.methodType(c).wrap().returnType();
  }

  /**
   * Converts Arrow Java's value of an operand ({@code Integer}, {@code Long}, {@code Double},
   * {@code BigDecimal}, {@code Boolean}, {@code Text}, {@code byte[]}, the day number of a date,
   * {@code LocalDateTime}) to a value of the parameter class {@code param}.
   */
  static UnaryOperator<@Nullable Object> argument(Class<?> param) {
    Class<?> p = boxed(param);
    if (p == Byte.class) {
      return v -> v == null ? null : ((Number) v).byteValue();
    } else if (p == Short.class) {
      return v -> v == null ? null : ((Number) v).shortValue();
    } else if (p == Integer.class) {
      return v -> v == null ? null : ((Number) v).intValue();
    } else if (p == Long.class) {
      return v -> v == null ? null : ((Number) v).longValue();
    } else if (p == Float.class) {
      return v -> v == null ? null : ((Number) v).floatValue();
    } else if (p == Double.class) {
      return v -> v == null ? null : ((Number) v).doubleValue();
    } else if (p == BigDecimal.class) {
      return v ->
          v == null
              ? null
              : v instanceof BigDecimal d
                  ? d
                  : v instanceof Double || v instanceof Float
                      ? new BigDecimal(v.toString())
                      : BigDecimal.valueOf(((Number) v).longValue());
    } else if (p == String.class) {
      return v -> v == null ? null : v.toString();
    } else if (p == LocalDate.class) {
      return v -> v == null ? null : date(v);
    } else if (p == java.sql.Date.class) {
      return v -> v == null ? null : java.sql.Date.valueOf(date(v));
    } else if (p == LocalDateTime.class) {
      return v -> v;
    } else if (p == java.sql.Timestamp.class) {
      return v -> v == null ? null : java.sql.Timestamp.valueOf((LocalDateTime) v);
    }
    // Object, Boolean, byte[]: Arrow Java's value, a Text as a String.
    return v -> v instanceof org.apache.arrow.vector.util.Text t ? t.toString() : v;
  }

  private static LocalDate date(Object v) {
    return v instanceof LocalDate d
        ? d
        : v instanceof LocalDateTime t
            ? t.toLocalDate()
            : LocalDate.ofEpochDay(((Number) v).longValue());
  }

  /** A vector of the result code's type holding the values {@code eval} returned. */
  static FieldVector write(BufferAllocator allocator, String code, Object[] values) {
    int n = values.length;
    switch (code) {
      case "bo":
        {
          BitVector v = new BitVector("r", allocator);
          v.allocateNew(n);
          for (int i = 0; i < n; i++) {
            if (values[i] != null) {
              v.set(i, ((Boolean) values[i]) ? 1 : 0);
            }
          }
          v.setValueCount(n);
          return v;
        }
      case "b":
        {
          VarBinaryVector v = new VarBinaryVector("r", allocator);
          v.allocateNew(n);
          for (int i = 0; i < n; i++) {
            if (values[i] != null) {
              v.setSafe(i, (byte[]) values[i]);
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
              // A Float result widens by its decimal text, as Calcite's engine's FLOAT reads.
              Object x = values[i];
              v.set(
                  i,
                  x instanceof Float f
                      ? Double.parseDouble(f.toString())
                      : ((Number) x).doubleValue());
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
            Object x = values[i];
            if (x != null) {
              LocalDate d = x instanceof java.sql.Date s ? s.toLocalDate() : (LocalDate) x;
              v.set(i, Math.toIntExact(d.toEpochDay()));
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
            Object x = values[i];
            if (x != null) {
              LocalDateTime t =
                  x instanceof java.sql.Timestamp s ? s.toLocalDateTime() : (LocalDateTime) x;
              java.time.Instant at = t.toInstant(ZoneOffset.UTC);
              v.set(
                  i,
                  Math.addExact(
                      Math.multiplyExact(at.getEpochSecond(), 1_000_000L), at.getNano() / 1000));
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
        v.setSafe(i, ((BigDecimal) values[i]).setScale(scale, RoundingMode.HALF_UP));
      }
    }
    v.setValueCount(values.length);
    return v;
  }
}

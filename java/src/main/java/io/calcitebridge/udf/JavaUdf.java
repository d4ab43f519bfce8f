package io.calcitebridge.udf;

import io.calcitebridge.errors.SourceException;
import io.calcitebridge.functions.JavaFunction;
import io.calcitebridge.functions.JavaValues;
import java.lang.invoke.MethodHandle;
import java.lang.reflect.Method;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.UnaryOperator;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
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

  /**
   * One call site: the function, its overload, the overload's handle ({@link JavaFunction#handle})
   * and the code of the result.
   */
  private record Call(
      JavaFunction function,
      Method method,
      MethodHandle handle,
      @Nullable MethodHandle bits,
      String result) {}

  private static final MethodHandle FROM_BITS;
  private static final MethodHandle TO_BITS;

  static {
    try {
      java.lang.invoke.MethodHandles.Lookup l = java.lang.invoke.MethodHandles.publicLookup();
      FROM_BITS =
          l.findStatic(
              Double.class,
              "longBitsToDouble",
              java.lang.invoke.MethodType.methodType(double.class, long.class));
      TO_BITS =
          l.findStatic(
              Double.class,
              "doubleToRawLongBits",
              java.lang.invoke.MethodType.methodType(long.class, double.class));
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

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
    ArrowBatch.apply(
        inArray,
        inSchema,
        outArray,
        outSchema,
        (allocator, root) -> {
          Call call = call(name, spec);
          FieldVector fast = bits(call, allocator, root);
          if (fast != null) {
            return fast;
          }
          Object[] results = rows(call, name, root);
          try {
            return ArrowBatch.write(allocator, call.result(), results);
          } catch (RuntimeException e) {
            throw call.function().failure(e);
          }
        });
  }

  /**
   * The handle of an overload of one or two {@code long} or {@code double} parameters returning a
   * {@code long} or {@code double} (of the result code's type), as {@code (long[, long])long} over
   * the values' 64 bits; null for any other overload.
   */
  private static @Nullable MethodHandle bits(JavaFunction f, Method m, String result) {
    Class<?>[] params = m.getParameterTypes();
    Class<?> returned = m.getReturnType();
    if (params.length < 1
        || params.length > 2
        || !(returned == long.class && result.equals("i8")
            || returned == double.class && result.equals("f8"))) {
      return null;
    }
    MethodHandle h = f.bound(m);
    for (int i = 0; i < params.length; i++) {
      if (params[i] == double.class) {
        h = java.lang.invoke.MethodHandles.filterArguments(h, i, FROM_BITS);
      } else if (params[i] != long.class) {
        return null;
      }
    }
    return returned == double.class
        ? java.lang.invoke.MethodHandles.filterReturnValue(h, TO_BITS)
        : h;
  }

  /**
   * The results of a primitive overload ({@link #bits}) over {@code root}, read from and written to
   * the vectors' 64-bit values without a boxed value; null when the overload is not primitive or an
   * operand's vector is not of its parameter's type.
   */
  private static @Nullable FieldVector bits(
      Call call, BufferAllocator allocator, VectorSchemaRoot root) {
    MethodHandle h = call.bits();
    if (h == null) {
      return null;
    }
    Class<?>[] params = call.method().getParameterTypes();
    List<FieldVector> vectors = root.getFieldVectors();
    if (vectors.size() != params.length) {
      return null;
    }
    for (int i = 0; i < params.length; i++) {
      FieldVector v = vectors.get(i);
      if (!(params[i] == long.class ? v instanceof BigIntVector : v instanceof Float8Vector)) {
        return null;
      }
    }
    int rows = root.getRowCount();
    BaseFixedWidthVector out =
        call.result().equals("i8")
            ? new BigIntVector("r", allocator)
            : new Float8Vector("r", allocator);
    out.allocateNew(rows);
    ArrowBuf data = out.getDataBuffer();
    ArrowBuf valid = out.getValidityBuffer();
    FieldVector a = vectors.get(0);
    FieldVector b = vectors.get(vectors.size() - 1);
    ArrowBuf da = a.getDataBuffer();
    ArrowBuf db = b.getDataBuffer();
    boolean two = params.length == 2;
    JavaFunction f = call.function();
    try {
      synchronized (f) {
        for (int r = 0; r < rows; r++) {
          if (a.isNull(r) || b.isNull(r)) {
            continue; // a NULL for a primitive parameter: NULL without a call
          }
          long at = (long) r * 8L;
          long value =
              two
                  ? (long) h.invokeExact(da.getLong(at), db.getLong(at))
                  : (long) h.invokeExact(da.getLong(at));
          data.setLong(at, value);
          BitVectorHelper.setBit(valid, r);
        }
      }
    } catch (Throwable t) {
      out.close();
      throw f.failure(t);
    }
    out.setValueCount(rows);
    return out;
  }

  /**
   * The results of the overload of {@code call} over each row of {@code root}: the operands read as
   * the parameters take them ({@link ArrowBatch#reader}, then {@link JavaValues}, skipped where the
   * reader's class is the parameter's), NULL without a call where a primitive parameter gets a
   * NULL.
   */
  private static @Nullable Object[] rows(Call call, String name, VectorSchemaRoot root) {
    int rows = root.getRowCount();
    List<FieldVector> vectors = root.getFieldVectors();
    Class<?>[] params = call.method().getParameterTypes();
    int arity = params.length;
    if (vectors.size() != arity) {
      throw new IllegalStateException(
          "The function " + name + " got " + vectors.size() + " columns for " + arity);
    }
    ArrowBatch.Reader[] readers = new ArrowBatch.Reader[arity];
    boolean[] primitive = new boolean[arity];
    for (int i = 0; i < arity; i++) {
      FieldVector v = vectors.get(i);
      ArrowBatch.Reader read = ArrowBatch.reader(v);
      Class<?> p = JavaValues.boxed(params[i]);
      UnaryOperator<Object> convert = JavaValues.argument(p);
      readers[i] = p == ArrowBatch.readsAs(v) ? read : r -> convert.apply(read.get(r));
      primitive[i] = params[i].isPrimitive();
    }
    MethodHandle handle = call.handle();
    JavaFunction f = call.function();
    Object[] results = new Object[rows];
    Object[] values = new Object[arity];
    synchronized (f) {
      rows:
      for (int r = 0; r < rows; r++) {
        for (int i = 0; i < arity; i++) {
          Object v = readers[i].get(r);
          if (v == null && primitive[i]) {
            continue rows;
          }
          values[i] = v;
        }
        try {
          results[r] = (Object) handle.invokeExact(values);
        } catch (Throwable t) {
          throw f.failure(t);
        }
      }
    }
    return results;
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
    call = new Call(f, m, f.handle(m), bits(f, m, codes[3]), codes[3]);
    if (CALLS.size() >= MAX_CACHED) {
      CALLS.clear();
    }
    CALLS.put(key, call);
    return call;
  }
}

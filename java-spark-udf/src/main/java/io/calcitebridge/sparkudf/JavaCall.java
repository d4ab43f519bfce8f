package io.calcitebridge.sparkudf;

import io.calcitebridge.functions.JavaValues;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.api.java.UDF10;
import org.apache.spark.sql.api.java.UDF11;
import org.apache.spark.sql.api.java.UDF2;
import org.apache.spark.sql.api.java.UDF3;
import org.apache.spark.sql.api.java.UDF4;
import org.apache.spark.sql.api.java.UDF5;
import org.apache.spark.sql.api.java.UDF6;
import org.apache.spark.sql.api.java.UDF7;
import org.apache.spark.sql.api.java.UDF8;
import org.apache.spark.sql.api.java.UDF9;

/**
 * A user's Java function (Flink's convention: public {@code eval} methods) as a Spark UDF. The
 * spark backend registers each call's name ({@code cb_java_<id>_<types>}) as the nested class of
 * its number of arguments; the translation passes, as the first argument, the string {@code
 * name;class;parameter classes;jars...}: the function's name (for its errors), the class, which the
 * task's class loader finds in the jars the backend added to the session ({@code ADD JAR} or {@code
 * addArtifacts}), and the parameter classes of the {@code eval} overload the validator chose.
 * Spark's values are converted to the parameter classes (an {@code INT} to a {@code Short}, a
 * {@code java.sql.Date} to a {@code LocalDate}, ...) and the result to the value Spark expects of
 * the registered type. A NULL for a primitive parameter gives NULL without a call; an exception of
 * {@code eval} fails the task with a message the backend reads back as its error naming the
 * function.
 */
public final class JavaCall {
  /** What the backend finds in a task's failure: the message between the two marks. */
  private static final String MARKER = "calcite-bridge-udf-failure<<";

  private static final String END = ">>";

  private record Target(String name, Method method, Object instance) {}

  private static final ConcurrentMap<String, Target> TARGETS = new ConcurrentHashMap<>();

  private JavaCall() {}

  /** Calls the overload {@code spec} names over one row of Spark's values {@code args}. */
  static Object call(String spec, Object... args) {
    ClassLoader found = Thread.currentThread().getContextClassLoader();
    ClassLoader loader = found == null ? JavaCall.class.getClassLoader() : found;
    Target t =
        TARGETS.computeIfAbsent(
            System.identityHashCode(loader) + "|" + spec, k -> target(spec, loader));
    Class<?>[] params = t.method().getParameterTypes();
    Object[] values = new Object[args.length];
    for (int i = 0; i < args.length; i++) {
      values[i] = argument(args[i], params[i]);
      if (values[i] == null && params[i].isPrimitive()) {
        return null;
      }
    }
    Object out;
    try {
      out = t.method().invoke(t.instance(), values);
    } catch (InvocationTargetException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      throw new RuntimeException(
          MARKER + "The function " + t.name() + " failed: " + cause + END, cause);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException(e);
    }
    return result(out);
  }

  private static Target target(String spec, ClassLoader loader) {
    String[] parts = spec.split(";", -1);
    try {
      Class<?> cls = Class.forName(parts[1], true, loader);
      String[] names = parts[2].isEmpty() ? new String[0] : parts[2].split(",");
      Class<?>[] params = new Class<?>[names.length];
      for (int i = 0; i < names.length; i++) {
        params[i] = classOf(names[i], loader);
      }
      Method m = cls.getMethod("eval", params);
      Object instance =
          Modifier.isStatic(m.getModifiers()) ? null : cls.getConstructor().newInstance();
      return new Target(parts[0], m, instance);
    } catch (ReflectiveOperationException | LinkageError e) {
      throw loadFailure(parts, e);
    }
  }

  /**
   * An aggregate function's methods on the executor: {@code createAccumulator()}, the {@code
   * accumulate(acc, ...)} whose parameters after the accumulator the spec names, {@code
   * getValue(acc)}.
   */
  private record Aggregate(
      String name, Object instance, Method create, Method accumulate, Method value) {}

  private static final ConcurrentMap<String, Aggregate> AGGREGATES = new ConcurrentHashMap<>();

  /**
   * Runs the aggregate function {@code spec} names ({@code name;class;accumulate's parameter
   * classes after the accumulator;jars...}) over one group's rows, {@code rows} (Spark's {@code
   * collect_list} of the argument structs): a new accumulator, {@code accumulate} with each row's
   * values (a row with a NULL for a primitive parameter is skipped), then {@code getValue}. An
   * exception of the function fails the task with the message that names it.
   */
  static Object aggregate(String spec, Object rows) {
    ClassLoader found = Thread.currentThread().getContextClassLoader();
    ClassLoader loader = found == null ? JavaCall.class.getClassLoader() : found;
    Aggregate a =
        AGGREGATES.computeIfAbsent(
            System.identityHashCode(loader) + "|" + spec, k -> aggregateOf(spec, loader));
    Class<?>[] params = a.accumulate().getParameterTypes();
    try {
      Object acc = a.create().invoke(a.instance());
      Object[] values = new Object[params.length];
      values[0] = acc;
      java.util.Iterator<?> it = iterator(rows);
      rows:
      while (it.hasNext()) {
        org.apache.spark.sql.Row row = (org.apache.spark.sql.Row) it.next();
        for (int i = 1; i < params.length; i++) {
          Object v = argument(row.get(i - 1), params[i]);
          if (v == null && params[i].isPrimitive()) {
            continue rows;
          }
          values[i] = v;
        }
        a.accumulate().invoke(a.instance(), values);
      }
      return result(a.value().invoke(a.instance(), acc));
    } catch (InvocationTargetException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      throw new RuntimeException(
          MARKER + "The function " + a.name() + " failed: " + cause + END, cause);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * The elements of Spark's value of an array: a Scala {@code Seq}, iterated through Scala's own
   * interfaces (found by the value's class loader, as this jar compiles without Scala).
   */
  private static java.util.Iterator<?> iterator(Object rows) throws IllegalAccessException {
    if (rows == null) {
      return java.util.Collections.emptyIterator();
    } else if (rows instanceof Iterable<?> i) {
      return i.iterator();
    } else if (rows instanceof Object[] a) {
      return Arrays.asList(a).iterator();
    }
    try {
      ClassLoader l = rows.getClass().getClassLoader();
      Object it =
          Class.forName("scala.collection.IterableOnce", false, l)
              .getMethod("iterator")
              .invoke(rows);
      Class<?> iterator = Class.forName("scala.collection.Iterator", false, l);
      Method hasNext = iterator.getMethod("hasNext");
      Method next = iterator.getMethod("next");
      return new java.util.Iterator<Object>() {
        @Override
        public boolean hasNext() {
          return (Boolean) call(hasNext);
        }

        @Override
        public Object next() {
          return call(next);
        }

        private Object call(Method m) {
          try {
            return m.invoke(it);
          } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
          }
        }
      };
    } catch (ClassNotFoundException | NoSuchMethodException | InvocationTargetException e) {
      throw new IllegalStateException("Not an array of rows: " + rows.getClass().getName(), e);
    }
  }

  private static Aggregate aggregateOf(String spec, ClassLoader loader) {
    String[] parts = spec.split(";", -1);
    try {
      Class<?> cls = Class.forName(parts[1], true, loader);
      String[] names = parts[2].isEmpty() ? new String[0] : parts[2].split(",");
      Method create = null;
      Method accumulate = null;
      Method value = null;
      for (Method m : cls.getMethods()) {
        if (m.isBridge() || m.isSynthetic() || Modifier.isStatic(m.getModifiers())) {
          continue;
        }
        Class<?>[] params = m.getParameterTypes();
        if (m.getName().equals("createAccumulator") && params.length == 0) {
          create = m;
        } else if (m.getName().equals("getValue") && params.length == 1) {
          value = m;
        } else if (m.getName().equals("accumulate") && params.length == names.length + 1) {
          boolean same = true;
          for (int i = 0; i < names.length && same; i++) {
            same = params[i + 1].getName().equals(names[i]);
          }
          accumulate = same ? m : accumulate;
        }
      }
      if (create == null || accumulate == null || value == null) {
        throw new NoSuchMethodException(
            "createAccumulator(), accumulate(acc, " + parts[2] + ") or getValue(acc)");
      }
      return new Aggregate(parts[0], cls.getConstructor().newInstance(), create, accumulate, value);
    } catch (ReflectiveOperationException | LinkageError e) {
      throw loadFailure(parts, e);
    }
  }

  /** The failure, naming the function, of loading its class on an executor. */
  private static RuntimeException loadFailure(String[] parts, Throwable e) {
    Throwable cause =
        e instanceof InvocationTargetException i && i.getCause() != null ? i.getCause() : e;
    return new RuntimeException(
        MARKER
            + "The function "
            + parts[0]
            + " could not be loaded on Spark: "
            + cause
            + " (class "
            + parts[1]
            + ", parameters ("
            + parts[2]
            + "), jars "
            + Arrays.toString(Arrays.copyOfRange(parts, 3, parts.length))
            + ")"
            + END,
        cause);
  }

  private static Class<?> classOf(String name, ClassLoader loader) throws ClassNotFoundException {
    switch (name) {
      case "boolean":
        return boolean.class;
      case "byte":
        return byte.class;
      case "short":
        return short.class;
      case "int":
        return int.class;
      case "long":
        return long.class;
      case "float":
        return float.class;
      case "double":
        return double.class;
      default:
        return Class.forName(name, false, loader);
    }
  }

  /** Spark's value {@code v} of an argument as a {@code param}. */
  static Object argument(Object v, Class<?> param) {
    return JavaValues.convert(v, JavaValues.boxed(param));
  }

  /**
   * The rows a table function's {@code eval} returned (an {@code Iterable}, {@code Iterator},
   * {@code Stream} or array) as Spark's rows, each a record's components or a single value; null
   * for anything else.
   */
  static Object rows(Object v) {
    java.util.Iterator<?> it;
    if (v instanceof Iterable<?> i) {
      it = i.iterator();
    } else if (v instanceof java.util.Iterator<?> i) {
      it = i;
    } else if (v instanceof java.util.stream.Stream<?> st) {
      it = st.iterator();
    } else if (v != null && v.getClass().isArray() && !(v instanceof byte[])) {
      java.util.List<Object> items = new java.util.ArrayList<>();
      for (int i = 0; i < java.lang.reflect.Array.getLength(v); i++) {
        items.add(java.lang.reflect.Array.get(v, i));
      }
      it = items.iterator();
    } else {
      return null;
    }
    java.util.List<org.apache.spark.sql.Row> out = new java.util.ArrayList<>();
    while (it.hasNext()) {
      Object e = it.next();
      if (e != null && e.getClass().isRecord()) {
        java.lang.reflect.RecordComponent[] parts = e.getClass().getRecordComponents();
        Object[] values = new Object[parts.length];
        for (int i = 0; i < parts.length; i++) {
          try {
            java.lang.reflect.Method accessor = parts[i].getAccessor();
            accessor.setAccessible(true);
            values[i] = result(accessor.invoke(e));
          } catch (ReflectiveOperationException x) {
            throw new IllegalStateException(x);
          }
        }
        out.add(org.apache.spark.sql.RowFactory.create(values));
      } else {
        out.add(org.apache.spark.sql.RowFactory.create(result(e)));
      }
    }
    return out.toArray(new org.apache.spark.sql.Row[0]);
  }

  /** The value Spark takes for what {@code eval} returned. */
  static Object result(Object v) {
    Object rows = rows(v);
    if (rows != null) {
      return rows;
    }
    if (v instanceof Byte || v instanceof Short) {
      return ((Number) v).intValue();
    } else if (v instanceof Float f) {
      return Double.parseDouble(f.toString());
    } else if (v instanceof java.sql.Timestamp t) {
      return t.toLocalDateTime();
    }
    return v;
  }

  /** An aggregate function over a group's rows: the spec, then the rows. */
  public static final class Agg implements UDF2<String, Object, Object> {
    private static final long serialVersionUID = 1L;

    @Override
    public Object call(String spec, Object rows) {
      return JavaCall.aggregate(spec, rows);
    }
  }

  /** A call of 0 arguments. */
  public static final class A0 implements UDF1<String, Object> {
    private static final long serialVersionUID = 1L;

    @Override
    public Object call(String spec) {
      return JavaCall.call(spec);
    }
  }

  /** A call of 1 argument. */
  public static final class A1 implements UDF2<String, Object, Object> {
    private static final long serialVersionUID = 1L;

    @Override
    public Object call(String spec, Object a0) {
      return JavaCall.call(spec, a0);
    }
  }

  /** A call of 2 arguments. */
  public static final class A2 implements UDF3<String, Object, Object, Object> {
    private static final long serialVersionUID = 1L;

    @Override
    public Object call(String spec, Object a0, Object a1) {
      return JavaCall.call(spec, a0, a1);
    }
  }

  /** A call of 3 arguments. */
  public static final class A3 implements UDF4<String, Object, Object, Object, Object> {
    private static final long serialVersionUID = 1L;

    @Override
    public Object call(String spec, Object a0, Object a1, Object a2) {
      return JavaCall.call(spec, a0, a1, a2);
    }
  }

  /** A call of 4 arguments. */
  public static final class A4 implements UDF5<String, Object, Object, Object, Object, Object> {
    private static final long serialVersionUID = 1L;

    @Override
    public Object call(String spec, Object a0, Object a1, Object a2, Object a3) {
      return JavaCall.call(spec, a0, a1, a2, a3);
    }
  }

  /** A call of 5 arguments. */
  public static final class A5
      implements UDF6<String, Object, Object, Object, Object, Object, Object> {
    private static final long serialVersionUID = 1L;

    @Override
    public Object call(String spec, Object a0, Object a1, Object a2, Object a3, Object a4) {
      return JavaCall.call(spec, a0, a1, a2, a3, a4);
    }
  }

  /** A call of 6 arguments. */
  public static final class A6
      implements UDF7<String, Object, Object, Object, Object, Object, Object, Object> {
    private static final long serialVersionUID = 1L;

    @Override
    public Object call(
        String spec, Object a0, Object a1, Object a2, Object a3, Object a4, Object a5) {
      return JavaCall.call(spec, a0, a1, a2, a3, a4, a5);
    }
  }

  /** A call of 7 arguments. */
  public static final class A7
      implements UDF8<String, Object, Object, Object, Object, Object, Object, Object, Object> {
    private static final long serialVersionUID = 1L;

    @Override
    public Object call(
        String spec, Object a0, Object a1, Object a2, Object a3, Object a4, Object a5, Object a6) {
      return JavaCall.call(spec, a0, a1, a2, a3, a4, a5, a6);
    }
  }

  /** A call of 8 arguments. */
  public static final class A8
      implements UDF9<
          String, Object, Object, Object, Object, Object, Object, Object, Object, Object> {
    private static final long serialVersionUID = 1L;

    @Override
    public Object call(
        String spec,
        Object a0,
        Object a1,
        Object a2,
        Object a3,
        Object a4,
        Object a5,
        Object a6,
        Object a7) {
      return JavaCall.call(spec, a0, a1, a2, a3, a4, a5, a6, a7);
    }
  }

  /** A call of 9 arguments. */
  public static final class A9
      implements UDF10<
          String, Object, Object, Object, Object, Object, Object, Object, Object, Object, Object> {
    private static final long serialVersionUID = 1L;

    @Override
    public Object call(
        String spec,
        Object a0,
        Object a1,
        Object a2,
        Object a3,
        Object a4,
        Object a5,
        Object a6,
        Object a7,
        Object a8) {
      return JavaCall.call(spec, a0, a1, a2, a3, a4, a5, a6, a7, a8);
    }
  }

  /** A call of 10 arguments. */
  public static final class A10
      implements UDF11<
          String,
          Object,
          Object,
          Object,
          Object,
          Object,
          Object,
          Object,
          Object,
          Object,
          Object,
          Object> {
    private static final long serialVersionUID = 1L;

    @Override
    public Object call(
        String spec,
        Object a0,
        Object a1,
        Object a2,
        Object a3,
        Object a4,
        Object a5,
        Object a6,
        Object a7,
        Object a8,
        Object a9) {
      return JavaCall.call(spec, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9);
    }
  }
}

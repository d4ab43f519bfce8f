package io.calcitebridge.functions;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.function.UnaryOperator;

/**
 * The conversion of a value to the parameter class of a user's Java method ({@code eval}, {@code
 * accumulate}), one for every engine that calls one: Calcite's engine ({@link JavaFunction}),
 * DuckDB's batches ({@code io.calcitebridge.udf.JavaUdf}) and Spark's executors ({@code
 * io.calcitebridge.sparkudf.JavaCall}, whose jar compiles this file too: it uses the JDK alone).
 *
 * <p>A number becomes the parameter's number class (an {@code INT} a {@code Short}, a {@code
 * DOUBLE} a {@code BigDecimal} by its decimal text) or, for a date parameter, the day it counts
 * from the epoch; a date or timestamp crosses between {@code java.time} and {@code java.sql}; a
 * character sequence other than a {@code String} (Arrow's {@code Text}) becomes its {@code String}.
 * Anything else passes as it is, and NULL stays NULL.
 */
public final class JavaValues {
  private JavaValues() {}

  /** The boxed class of a primitive class; any other class itself. */
  public static Class<?> boxed(Class<?> c) {
    if (c == boolean.class) {
      return Boolean.class;
    } else if (c == byte.class) {
      return Byte.class;
    } else if (c == short.class) {
      return Short.class;
    } else if (c == int.class) {
      return Integer.class;
    } else if (c == long.class) {
      return Long.class;
    } else if (c == float.class) {
      return Float.class;
    } else if (c == double.class) {
      return Double.class;
    } else if (c == char.class) {
      return Character.class;
    }
    return c;
  }

  /** The conversion of a value to a {@code param} ({@link #convert}). */
  public static UnaryOperator<Object> argument(Class<?> param) {
    Class<?> p = boxed(param);
    return v -> convert(v, p);
  }

  /** {@code v} as a value of the (boxed) parameter class {@code p}; null for null. */
  public static Object convert(Object v, Class<?> p) {
    if (v == null) {
      return null;
    }
    if (v instanceof Number n) {
      return number(n, p);
    }
    if (v instanceof CharSequence s && !(v instanceof String)) {
      return p == String.class || p == Object.class ? s.toString() : v;
    }
    if (p == LocalDate.class) {
      if (v instanceof java.sql.Date d) {
        return d.toLocalDate();
      } else if (v instanceof LocalDateTime t) {
        return t.toLocalDate();
      }
    } else if (p == java.sql.Date.class && v instanceof LocalDate d) {
      return java.sql.Date.valueOf(d);
    } else if (p == LocalDateTime.class && v instanceof java.sql.Timestamp t) {
      return t.toLocalDateTime();
    } else if (p == java.sql.Timestamp.class && v instanceof LocalDateTime t) {
      return java.sql.Timestamp.valueOf(t);
    }
    return v;
  }

  private static Object number(Number n, Class<?> p) {
    if (p == Long.class) {
      return n.longValue();
    } else if (p == Integer.class) {
      return n.intValue();
    } else if (p == Double.class) {
      return n.doubleValue();
    } else if (p == Short.class) {
      return n.shortValue();
    } else if (p == Byte.class) {
      return n.byteValue();
    } else if (p == Float.class) {
      return n.floatValue();
    } else if (p == BigDecimal.class) {
      return n instanceof BigDecimal d
          ? d
          : n instanceof Double || n instanceof Float
              ? new BigDecimal(n.toString())
              : BigDecimal.valueOf(n.longValue());
    } else if (p == LocalDate.class) {
      return LocalDate.ofEpochDay(n.longValue());
    } else if (p == java.sql.Date.class) {
      return java.sql.Date.valueOf(LocalDate.ofEpochDay(n.longValue()));
    }
    return n;
  }
}

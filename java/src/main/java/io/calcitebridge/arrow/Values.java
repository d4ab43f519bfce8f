package io.calcitebridge.arrow;

import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.runtime.SqlFunctions;

/**
 * Lenient conversions from the values Calcite (or a caller) may produce to the primitive forms
 * Arrow vectors store. Calcite's own representation takes the fast path in each method.
 */
final class Values {
  private static final long MILLIS_PER_DAY = 86_400_000L;

  private Values() {}

  static long toLong(Object v) {
    if (v instanceof Number) {
      return ((Number) v).longValue();
    } else if (v instanceof Boolean) {
      return (Boolean) v ? 1 : 0;
    } else if (v instanceof Character) {
      return (Character) v;
    } else if (v instanceof String) {
      return Long.parseLong(((String) v).trim());
    }
    throw cannot(v, "an integer");
  }

  static double toDouble(Object v) {
    if (v instanceof Number) {
      return ((Number) v).doubleValue();
    } else if (v instanceof String) {
      return Double.parseDouble(((String) v).trim());
    }
    throw cannot(v, "a floating-point number");
  }

  static boolean toBoolean(Object v) {
    if (v instanceof Boolean) {
      return (Boolean) v;
    } else if (v instanceof Number) {
      return ((Number) v).doubleValue() != 0;
    } else if (v instanceof String) {
      return Boolean.parseBoolean(((String) v).trim());
    }
    throw cannot(v, "a boolean");
  }

  static BigDecimal toBigDecimal(Object v) {
    if (v instanceof BigDecimal) {
      return (BigDecimal) v;
    } else if (v instanceof BigInteger) {
      return new BigDecimal((BigInteger) v);
    } else if (v instanceof Double || v instanceof Float) {
      return BigDecimal.valueOf(((Number) v).doubleValue());
    } else if (v instanceof Number) {
      return BigDecimal.valueOf(((Number) v).longValue());
    } else if (v instanceof String) {
      return new BigDecimal(((String) v).trim());
    }
    throw cannot(v, "a decimal");
  }

  static byte[] toBytes(Object v) {
    if (v instanceof ByteString) {
      return ((ByteString) v).getBytes();
    } else if (v instanceof byte[]) {
      return (byte[]) v;
    } else if (v instanceof ByteBuffer) {
      ByteBuffer b = ((ByteBuffer) v).duplicate();
      byte[] out = new byte[b.remaining()];
      b.get(out);
      return out;
    } else if (v instanceof String) {
      return ((String) v).getBytes(StandardCharsets.UTF_8);
    }
    throw cannot(v, "binary");
  }

  /** Days since the epoch; java.sql.Date converts as Calcite does (local time zone). */
  static int toDays(Object v) {
    if (v instanceof Integer) {
      return (Integer) v;
    } else if (v instanceof java.sql.Date) {
      return SqlFunctions.toInt((java.sql.Date) v);
    } else if (v instanceof LocalDate) {
      return Math.toIntExact(((LocalDate) v).toEpochDay());
    } else if (v instanceof LocalDateTime) {
      return Math.toIntExact(((LocalDateTime) v).toLocalDate().toEpochDay());
    } else if (v instanceof Number) {
      return ((Number) v).intValue();
    }
    throw cannot(v, "a DATE");
  }

  /** Milliseconds of the day; java.sql.Time converts as Calcite does. */
  static int toTimeMillis(Object v) {
    if (v instanceof Integer) {
      return (Integer) v;
    } else if (v instanceof java.sql.Time) {
      return SqlFunctions.toInt((java.sql.Time) v);
    } else if (v instanceof LocalTime) {
      return (int) (((LocalTime) v).toNanoOfDay() / 1_000_000L);
    } else if (v instanceof Number) {
      return (int) Math.floorMod(((Number) v).longValue(), MILLIS_PER_DAY);
    }
    throw cannot(v, "a TIME");
  }

  /**
   * A TIMESTAMP value in {@code unit}: a number is the engine's value (see {@link TimeUnits}); a
   * Java date-time keeps its fraction of a second down to {@code unit}.
   */
  static long toTimestamp(Object v, TimeUnit unit) {
    if (v instanceof Number) {
      return TimeUnits.fromEngine(((Number) v).longValue(), unit);
    }
    Instant instant = null;
    if (v instanceof java.sql.Timestamp) {
      java.sql.Timestamp ts = (java.sql.Timestamp) v;
      long millis = SqlFunctions.toLong(ts);
      instant = Instant.ofEpochSecond(Math.floorDiv(millis, 1000L), ts.getNanos());
    } else if (v instanceof LocalDateTime) {
      instant = ((LocalDateTime) v).toInstant(ZoneOffset.UTC);
    } else if (v instanceof Instant) {
      instant = (Instant) v;
    } else if (v instanceof OffsetDateTime) {
      instant = ((OffsetDateTime) v).toInstant();
    } else if (v instanceof ZonedDateTime) {
      instant = ((ZonedDateTime) v).toInstant();
    }
    if (instant == null) {
      return TimeUnits.fromMillis(toTimestampMillis(v), unit);
    }
    switch (unit) {
      case SECOND:
        return instant.getEpochSecond();
      case MILLISECOND:
        return Math.floorDiv(
            instant.getEpochSecond() * 1_000_000_000L + instant.getNano(), 1_000_000L);
      case MICROSECOND:
        return Math.addExact(
            Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1000);
      default:
        return Math.addExact(
            Math.multiplyExact(instant.getEpochSecond(), 1_000_000_000L), instant.getNano());
    }
  }

  /**
   * Milliseconds since the epoch. A local date-time is read as UTC wall-clock time (Calcite's
   * TIMESTAMP value is the wall-clock time encoded as if it were UTC); java.sql.Timestamp converts
   * as Calcite does.
   */
  static long toTimestampMillis(Object v) {
    if (v instanceof Long) {
      return (Long) v;
    } else if (v instanceof java.sql.Timestamp) {
      return SqlFunctions.toLong((java.sql.Timestamp) v);
    } else if (v instanceof LocalDateTime) {
      return ((LocalDateTime) v).toInstant(ZoneOffset.UTC).toEpochMilli();
    } else if (v instanceof Instant) {
      return ((Instant) v).toEpochMilli();
    } else if (v instanceof OffsetDateTime) {
      return ((OffsetDateTime) v).toInstant().toEpochMilli();
    } else if (v instanceof ZonedDateTime) {
      return ((ZonedDateTime) v).toInstant().toEpochMilli();
    } else if (v instanceof LocalDate) {
      return ((LocalDate) v).toEpochDay() * MILLIS_PER_DAY;
    } else if (v instanceof java.util.Date) {
      return ((java.util.Date) v).getTime();
    } else if (v instanceof Number) {
      return ((Number) v).longValue();
    }
    throw cannot(v, "a TIMESTAMP");
  }

  /** The elements of an ARRAY value: a List, an array (also primitive) or an Iterable. */
  static List<?> elements(Object v) {
    if (v instanceof List) {
      return (List<?>) v;
    } else if (v instanceof Object[]) {
      return java.util.Arrays.asList((Object[]) v);
    } else if (v.getClass().isArray()) {
      int n = Array.getLength(v);
      List<Object> out = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        out.add(Array.get(v, i));
      }
      return out;
    } else if (v instanceof Iterable) {
      List<Object> out = new ArrayList<>();
      for (Object o : (Iterable<?>) v) {
        out.add(o);
      }
      return out;
    }
    throw cannot(v, "an ARRAY");
  }

  /**
   * The field values of a ROW value: Object[] (Calcite's form), a List, a {@link
   * org.apache.calcite.interpreter.Row}, or an object with public fields named as the ROW's fields
   * (Calcite's synthetic record classes).
   */
  static Object[] fields(Object v, List<String> names) {
    if (v instanceof Object[]) {
      return (Object[]) v;
    } else if (v instanceof List) {
      return ((List<?>) v).toArray();
    } else if (v instanceof org.apache.calcite.interpreter.Row) {
      return ((org.apache.calcite.interpreter.Row) v).copyValues();
    }
    Object[] out = new Object[names.size()];
    Class<?> c = v.getClass();
    for (int i = 0; i < out.length; i++) {
      try {
        Field f = c.getField(names.get(i));
        if (Modifier.isStatic(f.getModifiers())) {
          throw new NoSuchFieldException(names.get(i));
        }
        out[i] = f.get(v);
      } catch (NoSuchFieldException | IllegalAccessException e) {
        throw cannot(v, "a ROW with field '" + names.get(i) + "'");
      }
    }
    return out;
  }

  static IllegalArgumentException cannot(Object v, String what) {
    return new IllegalArgumentException(
        "Cannot convert value '" + v + "' of " + v.getClass().getName() + " to " + what);
  }
}

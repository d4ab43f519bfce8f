package io.calcitebridge.dyncol;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.avatica.util.ByteString;

/**
 * What generated code calls for the {@code COLUMN_*} functions. Values arrive in Calcite's internal
 * representation (DATE as days, TIME as milliseconds of the day, TIMESTAMP as epoch milliseconds,
 * binary as ByteString) with a kind telling how MariaDB would type them.
 */
public final class DynColRuntime {
  private DynColRuntime() {}

  /** Kinds of value operands, from the operand's SQL type. */
  public static final String INT = "INT";

  public static final String DOUBLE = "DOUBLE";
  public static final String DECIMAL = "DECIMAL";
  public static final String STRING = "STRING";
  public static final String BINARY = "BINARY";
  public static final String DYNCOL = "DYNCOL";
  public static final String DATE = "DATE";
  public static final String TIME = "TIME";
  public static final String TIMESTAMP = "TIMESTAMP";
  public static final String BOOLEAN = "BOOLEAN";

  private static final long MILLIS_PER_DAY = 86_400_000L;

  /** A SQL value typed as MariaDB's COLUMN_CREATE types it. */
  static DynValue natural(Object v, String kind) {
    if (v == null) {
      return DynValue.NULL;
    }
    switch (kind) {
      case INT:
        return DynValue.ofLong(((Number) v).longValue());
      case BOOLEAN:
        return DynValue.ofLong(((Boolean) v) ? 1 : 0);
      case DOUBLE:
        return DynValue.ofDouble(((Number) v).doubleValue());
      case DECIMAL:
        return DynValue.ofDecimal((BigDecimal) v);
      case BINARY:
        return DynValue.ofBinary(((ByteString) v).getBytes());
      case DYNCOL:
        return DynValue.ofDynCol(((ByteString) v).getBytes());
      case DATE:
        {
          LocalDate d = LocalDate.ofEpochDay(((Number) v).longValue());
          return DynValue.ofTime(DynTime.date(d.getYear(), d.getMonthValue(), d.getDayOfMonth()));
        }
      case TIME:
        {
          long ms = ((Number) v).longValue();
          return DynValue.ofTime(
              DynTime.time(
                  false,
                  (int) (ms / 3_600_000),
                  (int) (ms / 60_000 % 60),
                  (int) (ms / 1000 % 60),
                  (int) (ms % 1000) * 1000));
        }
      case TIMESTAMP:
        {
          long ms = ((Number) v).longValue();
          long day = Math.floorDiv(ms, MILLIS_PER_DAY);
          long in = Math.floorMod(ms, MILLIS_PER_DAY);
          LocalDate d = LocalDate.ofEpochDay(day);
          return DynValue.ofTime(
              DynTime.datetime(
                  d.getYear(),
                  d.getMonthValue(),
                  d.getDayOfMonth(),
                  (int) (in / 3_600_000),
                  (int) (in / 60_000 % 60),
                  (int) (in / 1000 % 60),
                  (int) (in % 1000) * 1000));
        }
      default:
        return DynValue.ofString(v.toString());
    }
  }

  /** A value typed by {@code AS type} in COLUMN_CREATE / COLUMN_ADD. */
  static DynValue typed(Object v, String kind, String asType) {
    DynValue n = natural(v, kind);
    if (asType == null || asType.isEmpty() || n.isNull()) {
      return n;
    }
    DynType t = DynType.parse(asType);
    switch (t.kind) {
      case INT:
        return DynValue.ofLong(DynConvert.toLong(n));
      case UNSIGNED:
        return DynValue.ofUnsigned(DynConvert.toUnsigned(n).toBigInteger().longValue());
      case DOUBLE:
        return DynValue.ofDouble(DynConvert.toDouble(n));
      case DECIMAL:
        {
          if (n.type == DynValue.Type.DECIMAL) {
            return n;
          }
          BigDecimal d =
              n.type == DynValue.Type.STRING
                  ? DynConvert.leadingDecimal(n.text())
                  : DynConvert.toDecimal(n, 65, 30).stripTrailingZeros();
          if (d.scale() < 0) {
            d = d.setScale(0);
          }
          return DynValue.ofDecimal(d);
        }
      case CHAR:
        return n.type == DynValue.Type.STRING ? n : DynValue.ofString(DynConvert.toText(n));
      case BINARY:
        return DynValue.ofBinary(DynConvert.toBinary(n, -1));
      case DATE:
        return ofTime(DynConvert.toDate(n));
      case TIME:
        return ofTime(DynConvert.toTime(n, 6));
      case DATETIME:
        return ofTime(DynConvert.toDateTime(n, 6));
      default:
        return n;
    }
  }

  private static DynValue ofTime(DynTime t) {
    return t == null ? DynValue.NULL : DynValue.ofTime(t);
  }

  private static Object key(Object k) {
    if (k instanceof ByteString) {
      return new String(((ByteString) k).getBytes(), java.nio.charset.StandardCharsets.UTF_8);
    }
    if (k instanceof Number && !(k instanceof BigDecimal)) {
      return ((Number) k).longValue();
    }
    if (k instanceof BigDecimal) {
      return ((BigDecimal) k).longValue();
    }
    return k.toString();
  }

  private static ByteString bs(byte[] b) {
    return new ByteString(b);
  }

  public static ByteString create(Object[] keys, Object[] values, String[] kinds, String[] types) {
    List<Object> ks = new ArrayList<>();
    List<DynValue> vs = new ArrayList<>();
    for (int i = 0; i < keys.length; i++) {
      if (keys[i] == null) {
        return null;
      }
      ks.add(key(keys[i]));
      vs.add(typed(values[i], kinds[i], types[i]));
    }
    return bs(DynCol.create(ks, vs));
  }

  public static ByteString add(
      ByteString blob, Object[] keys, Object[] values, String[] kinds, String[] types) {
    if (blob == null) {
      return null;
    }
    List<Object> ks = new ArrayList<>();
    List<DynValue> vs = new ArrayList<>();
    for (int i = 0; i < keys.length; i++) {
      if (keys[i] == null) {
        return null;
      }
      ks.add(key(keys[i]));
      vs.add(typed(values[i], kinds[i], types[i]));
    }
    return bs(DynCol.add(blob.getBytes(), ks, vs));
  }

  public static ByteString delete(ByteString blob, Object[] keys) {
    if (blob == null) {
      return null;
    }
    List<Object> ks = new ArrayList<>();
    for (Object k : keys) {
      if (k == null) {
        return null;
      }
      ks.add(key(k));
    }
    return bs(DynCol.delete(blob.getBytes(), ks));
  }

  private static DynValue stored(ByteString blob, Object key) {
    if (blob == null || key == null) {
      return null;
    }
    Object k = key(key);
    DynValue v =
        k instanceof String
            ? DynCol.get(blob.getBytes(), (String) k)
            : (((Long) k) < 0 || ((Long) k) > 0xffff)
                ? DynValue.NULL
                : DynCol.get(blob.getBytes(), ((Long) k).intValue());
    return v.isNull() ? null : v;
  }

  /** COLUMN_GET with any target type, in the Java form {@link DynConvert#convert} gives. */
  public static Object get(ByteString blob, Object key, String type) {
    DynValue v = stored(blob, key);
    return v == null ? null : DynConvert.convert(v, DynType.parse(type));
  }

  public static Long getLong(ByteString blob, Object key, String type) {
    return (Long) get(blob, key, type);
  }

  public static BigDecimal getDecimal(ByteString blob, Object key, String type) {
    return (BigDecimal) get(blob, key, type);
  }

  public static Double getDouble(ByteString blob, Object key, String type) {
    return (Double) get(blob, key, type);
  }

  public static String getString(ByteString blob, Object key, String type) {
    return (String) get(blob, key, type);
  }

  public static ByteString getBinary(ByteString blob, Object key, String type) {
    byte[] b = (byte[]) get(blob, key, type);
    return b == null ? null : bs(b);
  }

  /** DATE as days since the epoch. */
  public static Integer getDate(ByteString blob, Object key, String type) {
    DynTime t = (DynTime) get(blob, key, type);
    return t == null ? null : (int) LocalDate.of(t.year, t.month, t.day).toEpochDay();
  }

  /** TIME as milliseconds of the day; NULL for a negative time or one of 24 hours or more. */
  public static Integer getTime(ByteString blob, Object key, String type) {
    DynTime t = (DynTime) get(blob, key, type);
    if (t == null || t.negative || t.hour >= 24) {
      return null;
    }
    return (t.hour * 3600 + t.minute * 60 + t.second) * 1000 + t.micros / 1000;
  }

  /** DATETIME as epoch milliseconds. */
  public static Long getTimestamp(ByteString blob, Object key, String type) {
    DynTime t = (DynTime) get(blob, key, type);
    if (t == null) {
      return null;
    }
    long day = LocalDate.of(t.year, t.month, t.day).toEpochDay();
    return day * MILLIS_PER_DAY
        + (t.hour * 3600L + t.minute * 60L + t.second) * 1000L
        + t.micros / 1000;
  }

  public static Integer exists(ByteString blob, Object key) {
    if (blob == null || key == null) {
      return null;
    }
    Object k = key(key);
    return (k instanceof String
            ? DynCol.exists(blob.getBytes(), (String) k)
            : DynCol.exists(blob.getBytes(), ((Long) k).intValue()))
        ? 1
        : 0;
  }

  public static String list(ByteString blob) {
    return blob == null ? null : DynCol.list(blob.getBytes());
  }

  public static Integer check(ByteString blob) {
    return blob == null ? null : DynCol.check(blob.getBytes()) ? 1 : 0;
  }

  public static String json(ByteString blob) {
    return blob == null ? null : DynCol.json(blob.getBytes());
  }
}

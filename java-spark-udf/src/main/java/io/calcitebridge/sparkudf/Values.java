package io.calcitebridge.sparkudf;

import io.calcitebridge.dyncol.DynColRuntime;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.spark.sql.Row;

/**
 * The arguments of {@code COLUMN_CREATE}, {@code COLUMN_ADD} and {@code COLUMN_DELETE} as Spark
 * passes them: one STRUCT of the keys (and values) in order, and a spec of each value's kind and
 * {@code AS} type. Values become what {@link DynColRuntime} takes, Calcite's internal
 * representation: DATE as days, TIMESTAMP as epoch milliseconds, binary as ByteString.
 */
final class Values {
  private Values() {}

  /**
   * The spec of the (name, value) pairs: {@code kind:type;kind:type;...}, one field a pair, the
   * type '' when the SQL gave no {@code AS type}.
   */
  private static String[][] spec(String spec, int pairs) {
    String[] fields = spec.split(";", -1);
    if (fields.length != pairs) {
      throw new IllegalArgumentException(
          "A dynamic-columns spec of " + fields.length + " values for " + pairs + " pairs");
    }
    String[] kinds = new String[pairs];
    String[] types = new String[pairs];
    for (int i = 0; i < pairs; i++) {
      String[] parts = fields[i].split(":", 2);
      kinds[i] = parts[0];
      types[i] = parts.length > 1 ? parts[1] : "";
    }
    return new String[][] {kinds, types};
  }

  /** The (name, value) pairs of a STRUCT, with each value's kind and {@code AS} type. */
  record Pairs(Object[] keys, Object[] values, String[] kinds, String[] types) {}

  /** The pairs of {@code row} (name, value, name, value, ...) described by {@code spec}. */
  static Pairs pairs(String spec, Row row) {
    int n = row.length() / 2;
    String[][] s = spec(spec, n);
    Object[] keys = new Object[n];
    Object[] values = new Object[n];
    for (int i = 0; i < n; i++) {
      keys[i] = key(row.get(2 * i));
      values[i] = value(row.get(2 * i + 1), s[0][i]);
    }
    return new Pairs(keys, values, s[0], s[1]);
  }

  /** The keys of a row of keys, as {@link DynColRuntime} takes them. */
  static Object[] keys(Row row) {
    Object[] keys = new Object[row.length()];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = key(row.get(i));
    }
    return keys;
  }

  static Object key(Object k) {
    if (k instanceof byte[] bytes) {
      return new ByteString(bytes);
    }
    return k;
  }

  /** {@code v}, a value of {@code kind} as Spark passes it, as {@link DynColRuntime} takes it. */
  static Object value(Object v, String kind) {
    if (v == null) {
      return null;
    }
    switch (kind) {
      case DynColRuntime.BINARY:
      case DynColRuntime.DYNCOL:
        return Blobs.of(v);
      case DynColRuntime.DECIMAL:
        return v instanceof BigDecimal ? v : new BigDecimal(v.toString());
      case DynColRuntime.DATE:
        if (v instanceof LocalDate d) {
          return (int) d.toEpochDay();
        }
        if (v instanceof java.sql.Date d) {
          return (int) d.toLocalDate().toEpochDay();
        }
        return v;
      case DynColRuntime.TIMESTAMP:
        {
          LocalDateTime t =
              v instanceof LocalDateTime l
                  ? l
                  : v instanceof java.sql.Timestamp s ? s.toLocalDateTime() : null;
          if (t == null) {
            return v;
          }
          // Calcite's TIMESTAMP holds milliseconds: finer digits are dropped, as there.
          return t.toEpochSecond(ZoneOffset.UTC) * 1000L + t.getNano() / 1_000_000;
        }
      default:
        return v;
    }
  }

  static byte[] bytes(ByteString b) {
    return b == null ? null : b.getBytes();
  }
}

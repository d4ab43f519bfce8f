package io.calcitebridge.sparkudf;

import io.calcitebridge.dyncol.DynColRuntime;
import io.calcitebridge.dyncol.DynType;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.spark.sql.api.java.UDF3;

/**
 * {@code COLUMN_GET(blob, key AS type)} as a Spark UDF: {@code cb_dyncol_get_<code>(type, blob,
 * key)}, where {@code type} is the {@code AS} type in MariaDB's spelling ({@code 'INT'}, {@code
 * 'DECIMAL(10,2)'}, ...). The value is what the reference computes ({@link DynColRuntime}), in
 * Spark's external type of the registered return type: BIGINT as Long, DECIMAL as BigDecimal,
 * DOUBLE, STRING, BINARY as byte[], DATE as LocalDate, TIMESTAMP_NTZ as LocalDateTime; null for
 * NULL.
 */
public final class ColumnGet implements UDF3<String, Object, Object, Object> {
  private static final long serialVersionUID = 1L;
  private static final ConcurrentMap<String, DynType> TYPES = new ConcurrentHashMap<>();

  @Override
  public Object call(String type, Object blob, Object key) {
    ByteString b = Blobs.of(blob);
    if (b == null || key == null || type == null) {
      return null;
    }
    DynType t = TYPES.computeIfAbsent(type, DynType::parse);
    switch (t.kind) {
      case INT:
        return DynColRuntime.getLong(b, key, type);
      case UNSIGNED:
      case DECIMAL:
        return DynColRuntime.getDecimal(b, key, type);
      case DOUBLE:
        return DynColRuntime.getDouble(b, key, type);
      case CHAR:
        return DynColRuntime.getString(b, key, type);
      case BINARY:
        return Values.bytes(DynColRuntime.getBinary(b, key, type));
      case DATE:
        {
          Integer days = DynColRuntime.getDate(b, key, type);
          return days == null ? null : LocalDate.ofEpochDay(days);
        }
      case DATETIME:
        {
          Long millis = DynColRuntime.getTimestamp(b, key, type);
          return millis == null
              ? null
              : LocalDateTime.ofEpochSecond(
                  Math.floorDiv(millis, 1000L),
                  (int) Math.floorMod(millis, 1000L) * 1_000_000,
                  ZoneOffset.UTC);
        }
      default:
        throw new IllegalArgumentException("COLUMN_GET as " + type + " is not run in Spark");
    }
  }
}

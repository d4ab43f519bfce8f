package io.calcitebridge.connector;

import io.calcitebridge.catalog.ColumnDef;
import io.calcitebridge.dyncol.DynColRuntime;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.rel.type.RelDataType;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Reads a discovered column from the default storage, the row's {@code _dynamic} blob, with {@code
 * COLUMN_GET} semantics: MariaDB's conversions, NULL when the row lacks the column.
 */
final class DynamicValues {
  private DynamicValues() {}

  static @Nullable Object read(@Nullable ByteString blob, ColumnDef column) {
    if (blob == null) {
      return null;
    }
    RelDataType t = column.type();
    String name = column.name();
    switch (t.getSqlTypeName()) {
      case TINYINT:
        return narrow(DynColRuntime.getLong(blob, name, "INT"), Byte.class);
      case SMALLINT:
        return narrow(DynColRuntime.getLong(blob, name, "INT"), Short.class);
      case INTEGER:
        return narrow(DynColRuntime.getLong(blob, name, "INT"), Integer.class);
      case BIGINT:
        return DynColRuntime.getLong(blob, name, "INT");
      case BOOLEAN:
        Long b = DynColRuntime.getLong(blob, name, "INT");
        return b == null ? null : b != 0;
      case FLOAT:
      case REAL:
      case DOUBLE:
        return DynColRuntime.getDouble(blob, name, "DOUBLE");
      case DECIMAL:
        return DynColRuntime.getDecimal(
            blob, name, "DECIMAL(" + t.getPrecision() + "," + t.getScale() + ")");
      case DATE:
        return DynColRuntime.getDate(blob, name, "DATE");
      case TIME:
        return DynColRuntime.getTime(blob, name, "TIME");
      case TIMESTAMP:
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
        return DynColRuntime.getTimestamp(blob, name, "DATETIME(3)");
      case BINARY:
      case VARBINARY:
        return DynColRuntime.getBinary(blob, name, "BINARY");
      default:
        return DynColRuntime.getString(blob, name, "CHAR");
    }
  }

  private static @Nullable Object narrow(@Nullable Long v, Class<?> to) {
    if (v == null) {
      return null;
    }
    if (to == Byte.class) {
      return v.byteValue();
    }
    if (to == Short.class) {
      return v.shortValue();
    }
    return v.intValue();
  }
}

package io.calcitebridge.types;

import org.apache.calcite.rel.type.RelDataTypeSystemImpl;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Type system of calcite-bridge: {@code STRING} and {@code BYTES} are unbounded, as in Flink, and
 * timestamps keep up to nanoseconds.
 */
public final class BridgeTypeSystem extends RelDataTypeSystemImpl {
  /** The single instance. */
  public static final BridgeTypeSystem INSTANCE = new BridgeTypeSystem();

  private BridgeTypeSystem() {}

  @Override
  public int getMaxPrecision(SqlTypeName typeName) {
    switch (typeName) {
      case VARCHAR:
      case VARBINARY:
      case CHAR:
      case BINARY:
        return Integer.MAX_VALUE;
      case TIMESTAMP:
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
      case TIME:
      case TIME_WITH_LOCAL_TIME_ZONE:
        return 9;
      default:
        return super.getMaxPrecision(typeName);
    }
  }

  @Override
  public int getDefaultPrecision(SqlTypeName typeName) {
    switch (typeName) {
      case VARCHAR:
      case VARBINARY:
        return Integer.MAX_VALUE;
      default:
        return super.getDefaultPrecision(typeName);
    }
  }

  @Override
  public boolean shouldConvertRaggedUnionTypesToVarying() {
    return true;
  }
}

package io.calcitebridge.types;

import org.apache.calcite.rel.type.RelDataTypeSystemImpl;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Type system of calcite-bridge: {@code STRING} and {@code BYTES} are unbounded, as in Flink,
 * timestamps keep up to nanoseconds, and {@code DECIMAL} holds up to 38 digits, as in Flink (and
 * DuckDB). Calcite's limit of 19 dropped digits from the common type of a {@code DECIMAL} and a
 * {@code BIGINT}: {@code COALESCE(1.5, b)} gave 1 and {@code CAST(1 AS BIGINT) IN (1.5,
 * 5000000000)} TRUE, both typed {@code DECIMAL(19, 0)} rather than {@code DECIMAL(20, 1)}.
 */
public final class BridgeTypeSystem extends RelDataTypeSystemImpl {
  /** The single instance. */
  public static final BridgeTypeSystem INSTANCE = new BridgeTypeSystem();

  private BridgeTypeSystem() {}

  /** The most digits of a {@code DECIMAL}, as in Flink. */
  public static final int MAX_DECIMAL_PRECISION = 38;

  @Override
  public int getMaxPrecision(SqlTypeName typeName) {
    switch (typeName) {
      case DECIMAL:
        return MAX_DECIMAL_PRECISION;
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
  public int getMaxScale(SqlTypeName typeName) {
    return typeName == SqlTypeName.DECIMAL ? MAX_DECIMAL_PRECISION : super.getMaxScale(typeName);
  }

  @Override
  public int getDefaultPrecision(SqlTypeName typeName) {
    switch (typeName) {
      case DECIMAL:
        // Unchanged by the larger maximum: a DECIMAL without precision is DECIMAL(19, 0).
        return 19;
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

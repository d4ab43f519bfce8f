package io.calcitebridge.types;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeSystemImpl;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Type system of calcite-bridge: {@code STRING} and {@code BYTES} are unbounded, as in Flink,
 * timestamps keep up to nanoseconds and are {@code TIMESTAMP(6)} when no precision is written (as
 * in Flink; Calcite's default is 0), a {@code TIME} keeps milliseconds at most ({@code TIME(6)} is
 * {@code TIME(3)}, as in Flink), and {@code DECIMAL} holds up to 38 digits, as in Flink (and
 * DuckDB). Calcite's limit of 19 dropped digits from the common type of a {@code DECIMAL} and a
 * {@code BIGINT}: {@code COALESCE(1.5, b)} gave 1 and {@code CAST(1 AS BIGINT) IN (1.5,
 * 5000000000)} TRUE, both typed {@code DECIMAL(19, 0)} rather than {@code DECIMAL(20, 1)}.
 *
 * <p>The result types of DECIMAL arithmetic and aggregates are Flink's: {@code +} and {@code -}
 * keep the larger scale with one more integer digit, {@code *} adds the scales and one digit to the
 * precisions, {@code /} is Calcite's rule (the same as Flink's), {@code SUM} is {@code DECIMAL(38,
 * s)} and {@code AVG} {@code DECIMAL(38, max(s, 6))}. A precision above 38 is brought to 38 by
 * giving up scale, keeping at least 6 digits of it ({@link #fit}), as Flink does.
 */
public final class BridgeTypeSystem extends RelDataTypeSystemImpl {
  /** The single instance. */
  public static final BridgeTypeSystem INSTANCE = new BridgeTypeSystem();

  private BridgeTypeSystem() {}

  /** The most fraction digits of a {@code TIME}, as in Flink. */
  public static final int MAX_TIME_PRECISION = 3;

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
        return 9;
      case TIME:
      case TIME_WITH_LOCAL_TIME_ZONE:
        // As in Flink (Calcite's limit, which FlinkTypeSystem keeps): TIME(6) in DDL, in a CAST
        // or of a literal's digits is TIME(3), as its values are milliseconds.
        return MAX_TIME_PRECISION;
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
      case TIMESTAMP:
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
        // As in Flink: TIMESTAMP and TIMESTAMP_LTZ without a precision keep microseconds.
        return 6;
      default:
        return super.getDefaultPrecision(typeName);
    }
  }

  @Override
  public boolean shouldConvertRaggedUnionTypesToVarying() {
    return true;
  }

  /**
   * {@code DECIMAL(p, s)} within 38 digits: above 38, the integer digits are kept and the scale
   * reduced to what is left, but not below {@code min(s, 6)}.
   */
  static RelDataType fit(RelDataTypeFactory f, int precision, int scale) {
    if (precision > MAX_DECIMAL_PRECISION) {
      int integer = precision - scale;
      scale = Math.max(MAX_DECIMAL_PRECISION - integer, Math.min(scale, 6));
      precision = MAX_DECIMAL_PRECISION;
    }
    return f.createSqlType(SqlTypeName.DECIMAL, precision, scale);
  }

  /** An exact number's type as a DECIMAL holding all its values: INT is DECIMAL(10, 0). */
  private static RelDataType decimalOf(RelDataTypeFactory f, RelDataType t) {
    int digits =
        switch (t.getSqlTypeName()) {
          case TINYINT -> 3;
          case SMALLINT -> 5;
          case INTEGER -> 10;
          case BIGINT -> 19;
          default -> 0;
        };
    return digits == 0 ? t : f.createSqlType(SqlTypeName.DECIMAL, digits, 0);
  }

  /** Whether both types are exact numbers and one is a DECIMAL. */
  private static boolean decimalArithmetic(RelDataType t1, RelDataType t2) {
    return SqlTypeUtil.isExactNumeric(t1)
        && SqlTypeUtil.isExactNumeric(t2)
        && (SqlTypeUtil.isDecimal(t1) || SqlTypeUtil.isDecimal(t2));
  }

  @Override
  public @Nullable RelDataType deriveDecimalPlusType(
      RelDataTypeFactory f, RelDataType t1, RelDataType t2) {
    if (!decimalArithmetic(t1, t2)) {
      return null;
    }
    RelDataType d1 = decimalOf(f, t1);
    RelDataType d2 = decimalOf(f, t2);
    int scale = Math.max(d1.getScale(), d2.getScale());
    int integer = Math.max(d1.getPrecision() - d1.getScale(), d2.getPrecision() - d2.getScale());
    return fit(f, integer + scale + 1, scale);
  }

  @Override
  public @Nullable RelDataType deriveDecimalMultiplyType(
      RelDataTypeFactory f, RelDataType t1, RelDataType t2) {
    if (!decimalArithmetic(t1, t2)) {
      return null;
    }
    RelDataType d1 = decimalOf(f, t1);
    RelDataType d2 = decimalOf(f, t2);
    return fit(f, d1.getPrecision() + d2.getPrecision() + 1, d1.getScale() + d2.getScale());
  }

  @Override
  public RelDataType deriveSumType(RelDataTypeFactory f, RelDataType arg) {
    if (arg.getSqlTypeName() == SqlTypeName.DECIMAL) {
      return f.createTypeWithNullability(
          f.createSqlType(SqlTypeName.DECIMAL, MAX_DECIMAL_PRECISION, arg.getScale()),
          arg.isNullable());
    }
    return super.deriveSumType(f, arg);
  }

  @Override
  public RelDataType deriveAvgAggType(RelDataTypeFactory f, RelDataType arg) {
    if (arg.getSqlTypeName() == SqlTypeName.DECIMAL) {
      return f.createTypeWithNullability(
          f.createSqlType(SqlTypeName.DECIMAL, MAX_DECIMAL_PRECISION, Math.max(arg.getScale(), 6)),
          arg.isNullable());
    }
    return super.deriveAvgAggType(f, arg);
  }
}

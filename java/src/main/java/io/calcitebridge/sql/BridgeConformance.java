package io.calcitebridge.sql;

import org.apache.calcite.sql.validate.SqlConformanceEnum;
import org.apache.calcite.sql.validate.SqlDelegatingConformance;

/**
 * The SQL conformance of the dialect: Calcite's default, plus {@code !=} and the {@code %}
 * operator, which users of other engines expect.
 */
public final class BridgeConformance extends SqlDelegatingConformance {
  /** The instance. */
  public static final BridgeConformance INSTANCE = new BridgeConformance();

  private BridgeConformance() {
    super(SqlConformanceEnum.DEFAULT);
  }

  @Override
  public boolean isBangEqualAllowed() {
    return true;
  }

  @Override
  public boolean isPercentRemainderAllowed() {
    return true;
  }
}

package io.calcitebridge.api.source;

import io.calcitebridge.expr.Expression;
import java.util.List;

/**
 * A source that applies filters itself. The planner offers it the conjuncts of a query's WHERE
 * clause (in conjunctive normal form, one filter a conjunct) and keeps the ones it does not accept
 * in a filter above the scan. {@code EXPLAIN} shows the accepted ones in the scan: {@code
 * BridgeTableScan(table=[[users]], filter=[<(user.age, 30)])}.
 */
public interface SupportsFilterPushDown {
  /**
   * Decides which of {@code filters} this source applies. Called at most once per scan, while the
   * statement is planned; the accepted filters then arrive in every {@link ScanRequest#filters()}
   * of that scan.
   *
   * @param filters the offered filters: comparisons, {@code AND}/{@code OR}/{@code NOT}, {@code IS
   *     [NOT] NULL}, {@code IN}, {@code LIKE}, ... over {@link
   *     io.calcitebridge.expr.FieldReference}s (and {@link
   *     io.calcitebridge.expr.NestedFieldReference}s when {@link #supportsNestedFilters()})
   * @return which filters the source applies and which the engine applies
   */
  FilterPushDownResult applyFilters(List<Expression> filters);

  /**
   * Whether filters on fields inside ROW columns ({@code user.age < 30}) may be offered. When
   * false, a conjunct that holds a {@link io.calcitebridge.expr.NestedFieldReference} is never
   * offered and stays above the scan.
   *
   * @return false unless overridden
   */
  default boolean supportsNestedFilters() {
    return false;
  }
}

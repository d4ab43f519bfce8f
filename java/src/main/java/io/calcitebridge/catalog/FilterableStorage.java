package io.calcitebridge.catalog;

import io.calcitebridge.expr.Expression;
import java.util.List;

/**
 * A {@link TableStorage} that can take filters: the Java side of {@code SupportsFilterPushDown}.
 */
public interface FilterableStorage {
  /** Whether filters may be offered at all (a source without {@code apply_filters} says no). */
  default boolean supportsFilterPushDown() {
    return true;
  }

  /** Whether filters holding nested field references may be offered. */
  boolean supportsNestedFilters();

  /**
   * Offers {@code filters}; every one must come back in the accepted or remaining list (or both:
   * applied as a hint and checked again above the scan).
   */
  Decision applyFilters(List<Expression> filters);

  /** The answer: indices into the offered list. */
  record Decision(List<Integer> accepted, List<Integer> remaining) {}
}

package io.calcitebridge.translate;

import org.apache.calcite.rel.RelNode;

/**
 * Whether DuckDB reads a plan's rows in a set order: an aggregate whose answer depends on the order
 * of its rows (FIRST_VALUE, LISTAGG, a variance's running sums) is refused where it does not.
 */
final class RowOrder {
  private RowOrder() {}

  /**
   * Whether {@code rel} reads a VALUES list of several rows or a UNION: Calcite writes a VALUES
   * list as a UNION ALL, whose branches DuckDB reads in any order.
   */
  static boolean unordered(RelNode rel) {
    if (rel instanceof org.apache.calcite.rel.core.Values values) {
      return values.getTuples().size() > 1;
    }
    if (rel instanceof org.apache.calcite.rel.core.Union) {
      return true;
    }
    for (RelNode input : rel.getInputs()) {
      if (unordered(input)) {
        return true;
      }
    }
    return false;
  }
}

/**
 * A source's abilities in the plan: the table and scan of a registered source ({@link
 * io.calcitebridge.pushdown.BridgeTable}, {@link io.calcitebridge.pushdown.BridgeTableScan}), the
 * rules that push filters, nested projections and limits into the scan ({@link
 * io.calcitebridge.pushdown.FilterPushDownRule}, {@link
 * io.calcitebridge.pushdown.NestedProjectionRule}, {@link
 * io.calcitebridge.pushdown.LimitPushDownRule}), and the translation of a condition into the
 * source's expressions ({@link io.calcitebridge.pushdown.RexToExpression}).
 *
 * <p>Belongs here: "make a filter reach a source". Does not: the sources themselves and their
 * connectors ({@code connector}, {@code api.source}), or the reading of Arrow batches ({@code
 * arrow}, {@code vector}).
 *
 * <p>Internal: not part of the public API (see {@link io.calcitebridge.api}); it may change without
 * notice.
 */
package io.calcitebridge.pushdown;

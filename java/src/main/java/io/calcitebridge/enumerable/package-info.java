/**
 * The reference engine (Calcite's Enumerable convention): the rewrites of a plan that only this
 * engine needs after cost-based planning (joins and sorts whose generated code is Calcite's with
 * fixes, {@link io.calcitebridge.enumerable.JoinRewrite}, {@link
 * io.calcitebridge.enumerable.SortRewrite}; ROW values and window keys compared by value, literals
 * of {@code VALUES}), the runtime its generated code calls ({@link
 * io.calcitebridge.enumerable.JoinRuntime}, {@link io.calcitebridge.enumerable.SortRuntime}),
 * constants computed per row rather than when a generated class loads ({@link
 * io.calcitebridge.enumerable.DeferredConstants}), and the rows of a large {@code VALUES} as data
 * ({@link io.calcitebridge.enumerable.LiteralRows}).
 *
 * <p>Belongs here: a change that the DuckDB and Spark translations (package {@code translate}) do
 * not see. Does not: Flink's semantics, which every backend follows ({@code flink}), or a
 * workaround of a Calcite planner defect ({@code repair}).
 *
 * <p>Internal: not part of the public API (see {@link io.calcitebridge.api}); it may change without
 * notice.
 */
package io.calcitebridge.enumerable;

/**
 * The planner: parsing and validating a query ({@link io.calcitebridge.plan.QueryPlanner}),
 * converting it to relational algebra, and the order of the heuristic and cost-based passes that
 * optimize it ({@link io.calcitebridge.plan.OptimizerProgram}), with the per-session context they
 * share ({@link io.calcitebridge.plan.PlannerContext}).
 *
 * <p>Only the planner belongs here: it decides which rewrite runs when, and the rewrites live by
 * purpose below it. A rule that pushes work into a source goes to {@link
 * io.calcitebridge.pushdown}; a rewrite that gives Flink's answer to {@link
 * io.calcitebridge.flink}; a workaround of a Calcite defect to {@link io.calcitebridge.repair};
 * what Calcite's engine needs to run a plan to {@link io.calcitebridge.enumerable}; a walk every
 * rewrite uses to {@link io.calcitebridge.rewrite}.
 *
 * <p>Internal: not part of the public API (see {@link io.calcitebridge.api}); it may change without
 * notice.
 */
package io.calcitebridge.plan;

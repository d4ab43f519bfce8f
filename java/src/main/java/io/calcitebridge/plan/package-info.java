/**
 * Planning: the query planner (validation, conversion to relational algebra, the heuristic and
 * cost-based passes) and our rules that push filters, nested projections and limits into table
 * scans.
 *
 * <p>Internal: not part of the public API (see {@link io.calcitebridge.api}); it may change without
 * notice.
 */
package io.calcitebridge.plan;

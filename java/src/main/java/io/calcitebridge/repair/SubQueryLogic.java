package io.calcitebridge.repair;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.apache.calcite.plan.RelOptUtil.Logic;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexSubQuery;

/**
 * The logic a sub-query is evaluated in, found in place of Calcite's {@code LogicVisitor}, which
 * passes a logic other than "all three values" through any operator (a comparison of booleans
 * included), where it only holds through AND, OR, NOT and the IS operators. Used by {@link
 * FilterSubQueryRule} for filters and by {@link SubQueryRules} for select lists and join
 * conditions.
 *
 * <p>Defect: no JIRA; {@code SELECT c, ((c NOT IN (SELECT b FROM t0 WHERE e)) < FALSE) IS FALSE
 * FROM t1} with an empty sub-query gave FALSE for a NULL {@code c}. Can go when, with Calcite's
 * {@code LogicVisitor} in its place, the cases {@code m6_*} and {@code i30_*} of {@code
 * tests/fixtures/correctness.sql} pass.
 */
final class SubQueryLogic {
  private SubQueryLogic() {}

  /**
   * The logic {@code seek} is evaluated in within {@code nodes}, each of which needs {@code start}
   * ({@code TRUE} for a filter's condition, {@code TRUE_FALSE_UNKNOWN} for the expressions of a
   * select list).
   */
  public static Logic logic(List<RexNode> nodes, RexNode seek, Logic start) {
    final Set<Logic> found = EnumSet.noneOf(Logic.class);
    for (RexNode node : nodes) {
      collect(node, seek, start, found);
    }
    if (found.remove(Logic.FALSE)) {
      found.add(Logic.UNKNOWN_AS_TRUE);
    }
    if (found.size() == 1) {
      return found.iterator().next();
    }
    return Logic.TRUE_FALSE_UNKNOWN;
  }

  private static void collect(RexNode node, RexNode seek, Logic logic, Set<Logic> found) {
    if (node.equals(seek)) {
      found.add(
          seek instanceof RexSubQuery
                  && !seek.getType().isNullable()
                  && logic == Logic.TRUE_FALSE_UNKNOWN
              ? Logic.TRUE_FALSE
              : logic);
      return;
    }
    if (!(node instanceof RexCall call)) {
      return;
    }
    final Logic inner =
        switch (call.getKind()) {
          case IS_NULL, IS_NOT_NULL, CASE -> Logic.TRUE_FALSE_UNKNOWN;
          case IS_TRUE, IS_NOT_TRUE -> Logic.UNKNOWN_AS_FALSE;
          case IS_FALSE, IS_NOT_FALSE -> Logic.UNKNOWN_AS_TRUE;
          case NOT -> logic.negate2();
            // TRUE ("only TRUE rows pass") holds through AND alone, as in Calcite. FALSE ("only
            // FALSE rows pass", below a NOT) does not: one operand that is FALSE is enough, so each
            // operand counts as FALSE or not FALSE (Calcite passed FALSE through, and in
            // NOT (a IS NULL AND NOT EXISTS (...)) the EXISTS had to be TRUE even where a was set).
          case AND -> logic == Logic.FALSE ? Logic.UNKNOWN_AS_TRUE : logic;
          case OR -> logic == Logic.TRUE ? Logic.TRUE_FALSE_UNKNOWN : logic;
            // Any other operator may turn UNKNOWN into TRUE or FALSE: all three values count.
          default -> logic == Logic.TRUE_FALSE ? logic : Logic.TRUE_FALSE_UNKNOWN;
        };
    for (RexNode operand : call.getOperands()) {
      collect(operand, seek, inner, found);
    }
  }
}

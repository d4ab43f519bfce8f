package io.calcitebridge.repair;

import io.calcitebridge.rewrite.RuleConfig;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexOver;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;

/**
 * Moves the sub-queries of a window function (in its arguments, PARTITION BY or ORDER BY) into a
 * projection below the window's, so that sub-query removal finds them: Calcite's {@code
 * SubQueryRemoveRule} (1.42) does not look inside {@link RexOver} and failed with "not found:
 * IN(...)". {@code SUM(i) OVER (PARTITION BY i IN (SELECT ...))} becomes {@code SUM(i) OVER
 * (PARTITION BY $k)} over a projection of the input's columns and {@code $k = i IN (SELECT ...)}.
 * The same holds for a sub-query computed in a derived table, as Calcite's converter merges that
 * table's projection into the window's.
 *
 * <p>Defect: no JIRA; {@code SELECT SUM(i) OVER (PARTITION BY i IN (SELECT i FROM t WHERE i > 0))
 * FROM t} fails ("not found: IN(...)"). Can go when, with it out of {@code OptimizerProgram}, the
 * cases {@code sub_query_in_window_*} and {@code
 * sub_query_computed_in_a_derived_table_for_a_window} of {@code tests/fixtures/internal_errors.sql}
 * pass.
 */
public final class WindowSubQueries extends RelRule<RuleConfig<WindowSubQueries>> {
  /** The rule's configuration: a projection with a sub-query inside a window function. */
  public static final RuleConfig<WindowSubQueries> CONFIG =
      RuleConfig.of(
          "WindowSubQueries",
          b0 ->
              b0.operand(LogicalProject.class)
                  .predicate(WindowSubQueries::hasSubQueryInWindow)
                  .anyInputs(),
          WindowSubQueries::new);

  public static final WindowSubQueries INSTANCE = CONFIG.toRule();

  private WindowSubQueries(RuleConfig<WindowSubQueries> config) {
    super(config);
  }

  private static boolean hasSubQueryInWindow(LogicalProject project) {
    return !subQueriesInWindows(project.getProjects()).isEmpty();
  }

  /** The distinct sub-queries inside window functions of {@code exprs}, outermost ones only. */
  private static List<RexSubQuery> subQueriesInWindows(List<RexNode> exprs) {
    Map<String, RexSubQuery> found = new LinkedHashMap<>();
    RexShuttle finder =
        new RexShuttle() {
          private int windows;

          @Override
          public RexNode visitOver(RexOver over) {
            windows++;
            try {
              return super.visitOver(over);
            } finally {
              windows--;
            }
          }

          @Override
          public RexNode visitSubQuery(RexSubQuery subQuery) {
            if (windows > 0) {
              found.putIfAbsent(subQuery.toString(), subQuery);
            }
            return subQuery; // its own sub-queries are removed with it
          }
        };
    for (RexNode e : exprs) {
      e.accept(finder);
    }
    return new ArrayList<>(found.values());
  }

  @Override
  public void onMatch(RelOptRuleCall call) {
    LogicalProject project = call.rel(0);
    RexBuilder rexBuilder = project.getCluster().getRexBuilder();
    List<RexSubQuery> subQueries = subQueriesInWindows(project.getProjects());
    List<RelDataTypeField> inputFields = project.getInput().getRowType().getFieldList();
    List<RexNode> below = new ArrayList<>();
    for (int i = 0; i < inputFields.size(); i++) {
      below.add(new RexInputRef(i, inputFields.get(i).getType()));
    }
    Map<String, Integer> position = new LinkedHashMap<>();
    for (RexSubQuery q : subQueries) {
      position.put(q.toString(), below.size());
      below.add(q);
    }
    LogicalProject lower =
        LogicalProject.create(
            project.getInput(), List.of(), below, (List<String>) null, project.getVariablesSet());
    RexShuttle replace =
        new RexShuttle() {
          @Override
          public RexNode visitSubQuery(RexSubQuery subQuery) {
            Integer i = position.get(subQuery.toString());
            return i == null ? subQuery : rexBuilder.makeInputRef(lower, i);
          }
        };
    List<RexNode> above = new ArrayList<>();
    for (RexNode e : project.getProjects()) {
      above.add(e.accept(replace));
    }
    call.transformTo(project.copy(project.getTraitSet(), lower, above, project.getRowType()));
  }
}

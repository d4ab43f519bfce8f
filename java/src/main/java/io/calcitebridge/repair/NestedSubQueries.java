package io.calcitebridge.repair;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.rex.RexUtil;

/**
 * Lifts an operand of a sub-query that holds a sub-query itself into a projection below: {@code
 * WHERE CASE WHEN 3 NOT IN (SELECT ... WHERE c = t.c) THEN x END NOT IN (SELECT ...)} becomes a
 * filter {@code $n NOT IN (SELECT ...)} over a projection that adds {@code $n = CASE WHEN 3 NOT IN
 * (...) THEN x END}, and each sub-query is removed on its own.
 *
 * <p>Calcite's {@code SubQueryRemoveRule} (1.42) removes the outer sub-query first and moves its
 * left-hand side, inner sub-query included, into the condition of the join it builds, whose left
 * input then uses the correlation variable ("variable $cor0 must not be used by left input to
 * correlation"; in a projection, "Decorrelation produced a relation with a different type"). Runs
 * on filters and projections, before sub-queries are removed.
 *
 * <p>Defect: no JIRA; the reproduction is the case {@code fz_in_over_case_of_correlated_not_in} of
 * {@code tests/fixtures/correctness.sql}. Can go when, with it out of {@code OptimizerProgram}, the
 * cases {@code fz_in_over_case_of_correlated_not_in*} and {@code
 * fz_correlated_scalar_in_correlated_in} and {@code
 * SubQueryRulesTest.aCorrelatedSubQueryInTheLeftOfAnInIsRemovedOnItsOwn} pass.
 */
public final class NestedSubQueries {
  private NestedSubQueries() {}

  /** {@code rel} with nested sub-query operands lifted into projections. */
  public static RelNode lift(RelNode rel) {
    return rel.accept(
        new RelHomogeneousShuttle() {
          @Override
          public RelNode visit(RelNode other) {
            RelNode visited = super.visit(other);
            for (int i = 0; i < 16; i++) {
              RelNode lifted = liftOnce(visited);
              if (lifted == visited) {
                return visited;
              }
              visited = lifted;
            }
            return visited;
          }
        });
  }

  /** The operands of sub-queries in {@code e} that hold a sub-query. */
  private static List<RexNode> nested(RexNode e) {
    List<RexNode> found = new ArrayList<>();
    e.accept(
        new RexShuttle() {
          @Override
          public RexNode visitSubQuery(RexSubQuery subQuery) {
            for (RexNode operand : subQuery.getOperands()) {
              if (RexUtil.SubQueryFinder.find(operand) != null) {
                if (!found.contains(operand)) {
                  found.add(operand);
                }
              }
            }
            return subQuery;
          }
        });
    return found;
  }

  private static RelNode liftOnce(RelNode rel) {
    List<RexNode> exprs;
    if (rel instanceof LogicalFilter filter) {
      exprs = List.of(filter.getCondition());
    } else if (rel instanceof LogicalProject project) {
      exprs = project.getProjects();
    } else {
      return rel;
    }
    List<RexNode> lift = new ArrayList<>();
    for (RexNode e : exprs) {
      for (RexNode operand : nested(e)) {
        if (!lift.contains(operand)) {
          lift.add(operand);
        }
      }
    }
    if (lift.isEmpty()) {
      return rel;
    }
    RelNode input = rel.getInput(0);
    RexBuilder rex = rel.getCluster().getRexBuilder();
    int width = input.getRowType().getFieldCount();
    List<RexNode> below = new ArrayList<>(rex.identityProjects(input.getRowType()));
    below.addAll(lift);
    Set<CorrelationId> variables =
        rel instanceof LogicalFilter filter
            ? filter.getVariablesSet()
            : ((LogicalProject) rel).getVariablesSet();
    List<String> names = new ArrayList<>(input.getRowType().getFieldNames());
    for (int i = 0; i < lift.size(); i++) {
      names.add("$lifted" + i);
    }
    RelNode project =
        LogicalProject.create(
            input,
            List.of(),
            below,
            RexUtil.createStructType(rex.getTypeFactory(), below, names, null),
            variables);
    RexShuttle replace =
        new RexShuttle() {
          @Override
          public RexNode visitSubQuery(RexSubQuery subQuery) {
            List<RexNode> operands = new ArrayList<>();
            boolean changed = false;
            for (RexNode operand : subQuery.getOperands()) {
              int at = lift.indexOf(operand);
              if (at >= 0) {
                operands.add(rex.makeInputRef(project, width + at));
                changed = true;
              } else {
                operands.add(operand);
              }
            }
            return changed ? subQuery.clone(subQuery.getType(), operands) : subQuery;
          }
        };
    if (rel instanceof LogicalFilter filter) {
      RelNode lifted =
          LogicalFilter.create(
              project,
              filter.getCondition().accept(replace),
              com.google.common.collect.ImmutableSet.copyOf(variables));
      return LogicalProject.create(
          lifted,
          List.of(),
          rex.identityProjects(input.getRowType()),
          input.getRowType(),
          Set.of());
    }
    LogicalProject top = (LogicalProject) rel;
    List<RexNode> projects = new ArrayList<>();
    for (RexNode e : top.getProjects()) {
      projects.add(e.accept(replace));
    }
    return LogicalProject.create(project, top.getHints(), projects, top.getRowType(), variables);
  }
}

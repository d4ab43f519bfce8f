package io.calcitebridge.repair;

import io.calcitebridge.rewrite.BottomUp;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Correlate;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.tools.RelBuilder;

/**
 * Runs before Calcite's decorrelator: an uncorrelated aggregate without calls whose group keys are
 * all literals of the project below it ({@code SELECT DISTINCT TRUE FROM t}, which sub-query
 * removal writes for {@code EXISTS} and for {@code 1 IN (SELECT ...)}) becomes the literals over
 * {@code Filter(COUNT(*) > 0)} over {@code Aggregate(group=[{}], COUNT(*))}: one row when the input
 * has rows, none when it is empty.
 *
 * <p>{@code RelDecorrelator.decorrelateRel(Aggregate)} (Calcite 1.42, unchanged upstream) drops
 * group keys that are literals of the project below and, when no correlated column is left to group
 * on, builds {@code Aggregate(group=[{}])}, which has one row even over an empty input: in a
 * statement with a correlated sub-query, an unrelated {@code EXISTS} over an empty result was TRUE
 * (a FULL join {@code ON EXISTS (...)} matched rows it must not). The decorrelator leaves the
 * rewritten form as it is.
 *
 * <p>Defect: no JIRA, reproduced above. It can go when the cases {@code
 * fz_*exists*_with_correlated_filter} of {@code tests/fixtures/correctness.sql} pass without it.
 */
public final class ConstantGroupKeys {
  private ConstantGroupKeys() {}

  /** {@code rel} with such aggregates rewritten, when it has a correlation to remove. */
  public static RelNode apply(RelNode rel, RelBuilder builder) {
    if (!hasCorrelate(rel)) {
      return rel;
    }
    return BottomUp.rewrite(rel, node -> step(node, builder));
  }

  private static boolean hasCorrelate(RelNode rel) {
    if (rel instanceof Correlate) {
      return true;
    }
    for (RelNode input : rel.getInputs()) {
      if (hasCorrelate(input)) {
        return true;
      }
    }
    return false;
  }

  private static RelNode step(RelNode rel, RelBuilder builder) {
    if (!(rel instanceof Aggregate agg)
        || agg.getGroupType() != Aggregate.Group.SIMPLE
        || agg.getGroupSet().isEmpty()
        || !agg.getAggCallList().isEmpty()
        || !(agg.getInput() instanceof Project project)
        || !RelOptUtil.getVariablesUsed(project).isEmpty()) {
      return rel;
    }
    List<RexNode> keys = new ArrayList<>();
    for (int key : agg.getGroupSet()) {
      RexNode node = project.getProjects().get(key);
      if (!(node instanceof RexLiteral)) {
        return rel;
      }
      keys.add(node);
    }
    builder.push(project.getInput());
    builder.aggregate(builder.groupKey(), builder.countStar("c"));
    builder.filter(builder.greaterThan(builder.field(0), builder.literal(0)));
    builder.project(keys, agg.getRowType().getFieldNames(), true);
    return builder.convert(agg.getRowType(), false).build();
  }
}

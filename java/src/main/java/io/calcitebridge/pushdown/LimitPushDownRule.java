package io.calcitebridge.pushdown;

import io.calcitebridge.catalog.ArrowStorage;
import io.calcitebridge.rewrite.RuleConfig;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.plan.hep.HepRelVertex;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.logical.LogicalSort;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Tells a source it may stop early ({@code SupportsLimitPushDown}): a LIMIT without ORDER BY over a
 * scan (through projections only) hands {@code offset + fetch} to the scan. The LIMIT stays in the
 * plan, so a source that returns more rows is still right.
 */
public final class LimitPushDownRule extends RelRule<RuleConfig<LimitPushDownRule>> {
  /** The rule's configuration: its operands and description. */
  public static final RuleConfig<LimitPushDownRule> CONFIG =
      RuleConfig.of(
          "LimitPushDown", b0 -> b0.operand(LogicalSort.class).anyInputs(), LimitPushDownRule::new);

  public static final LimitPushDownRule INSTANCE = CONFIG.toRule();

  private LimitPushDownRule(RuleConfig<LimitPushDownRule> config) {
    super(config);
  }

  @Override
  public void onMatch(RelOptRuleCall call) {
    LogicalSort sort = call.rel(0);
    if (!sort.getCollation().getFieldCollations().isEmpty()) {
      return;
    }
    Long fetch = count(sort.fetch);
    Long offset = sort.offset == null ? Long.valueOf(0) : count(sort.offset);
    if (fetch == null || offset == null || fetch + offset > Integer.MAX_VALUE) {
      return;
    }
    List<Project> projects = new ArrayList<>();
    RelNode input = strip(sort.getInput());
    while (input instanceof Project) {
      projects.add((Project) input);
      input = strip(((Project) input).getInput());
    }
    if (!(input instanceof BridgeTableScan scan)
        || scan.limit() != null
        || !(scan.bridgeTable().storage() instanceof ArrowStorage
            || scan.bridgeTable().storage().takesLimit())) {
      return;
    }
    RelNode rebuilt = scan.withLimit((int) (fetch + offset));
    for (int i = projects.size() - 1; i >= 0; i--) {
      Project p = projects.get(i);
      rebuilt = p.copy(p.getTraitSet(), rebuilt, p.getProjects(), p.getRowType());
    }
    call.transformTo(sort.copy(sort.getTraitSet(), List.of(rebuilt)));
  }

  /** The relational expression behind a heuristic planner's vertex. */
  private static RelNode strip(RelNode node) {
    return node instanceof HepRelVertex ? ((HepRelVertex) node).getCurrentRel() : node;
  }

  private static @Nullable Long count(@Nullable RexNode node) {
    if (node instanceof RexLiteral lit) {
      Number n = lit.getValueAs(Long.class);
      return n == null ? null : n.longValue();
    }
    return null;
  }
}

package io.calcitebridge.pushdown;

import io.calcitebridge.catalog.ArrowStorage;
import io.calcitebridge.catalog.ColumnKind;
import io.calcitebridge.rewrite.RuleConfig;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexVisitorImpl;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Nested projection pushdown ({@code SupportsProjectionPushDown} with nested projection): when a
 * projection over a scan reads fields inside ROW columns ({@code user.age}), a source that takes
 * index paths is asked for those fields only, not for the whole ROW columns.
 */
public final class NestedProjectionRule extends RelRule<RuleConfig<NestedProjectionRule>> {
  /** The rule's configuration: its operands and description. */
  public static final RuleConfig<NestedProjectionRule> CONFIG =
      RuleConfig.of(
          "NestedProjection",
          b0 ->
              b0.operand(LogicalProject.class)
                  .oneInput(b1 -> b1.operand(BridgeTableScan.class).noInputs()),
          NestedProjectionRule::new);

  public static final NestedProjectionRule INSTANCE = CONFIG.toRule();

  private NestedProjectionRule(RuleConfig<NestedProjectionRule> config) {
    super(config);
  }

  @Override
  public boolean matches(RelOptRuleCall call) {
    BridgeTableScan scan = call.rel(1);
    return scan.nested() == null
        && scan.projection() == null
        && scan.bridgeTable().storage() instanceof ArrowStorage storage
        && storage.supportsNestedProjection()
        && scan.bridgeTable().def().columns().stream()
            .noneMatch(c -> c.kind() == ColumnKind.DYNAMIC);
  }

  @Override
  public void onMatch(RelOptRuleCall call) {
    LogicalProject project = call.rel(0);
    BridgeTableScan scan = call.rel(1);
    List<List<Integer>> paths = new ArrayList<>();
    boolean[] nestedUse = {false};
    for (RexNode e : project.getProjects()) {
      e.accept(
          new RexVisitorImpl<Void>(true) {
            @Override
            public Void visitFieldAccess(RexFieldAccess access) {
              List<Integer> path = path(access);
              if (path == null) {
                return super.visitFieldAccess(access);
              }
              if (!paths.contains(path)) {
                paths.add(path);
              }
              nestedUse[0] = true;
              return null;
            }

            @Override
            public Void visitInputRef(RexInputRef ref) {
              List<Integer> path = List.of(ref.getIndex());
              if (!paths.contains(path)) {
                paths.add(path);
              }
              return null;
            }
          });
    }
    if (!nestedUse[0]) {
      return; // top-level columns only: the field trimmer's projection does it
    }
    BridgeTableScan newScan = scan.withNested(paths);
    List<RexNode> rewritten = new ArrayList<>();
    RexShuttle shuttle =
        new RexShuttle() {
          @Override
          public RexNode visitFieldAccess(RexFieldAccess access) {
            List<Integer> path = path(access);
            int i = path == null ? -1 : paths.indexOf(path);
            if (i < 0) {
              return super.visitFieldAccess(access);
            }
            return new RexInputRef(i, newScan.getRowType().getFieldList().get(i).getType());
          }

          @Override
          public RexNode visitInputRef(RexInputRef ref) {
            int i = paths.indexOf(List.of(ref.getIndex()));
            return new RexInputRef(i, newScan.getRowType().getFieldList().get(i).getType());
          }
        };
    for (RexNode e : project.getProjects()) {
      RexNode r = e.accept(shuttle);
      rewritten.add(project.getCluster().getRexBuilder().ensureType(e.getType(), r, true));
    }
    call.transformTo(project.copy(project.getTraitSet(), newScan, rewritten, project.getRowType()));
  }

  /** The index path of a chain of field accesses over a column, or null. */
  private static @Nullable List<Integer> path(RexFieldAccess access) {
    List<Integer> path = new ArrayList<>();
    RexNode e = access;
    while (e instanceof RexFieldAccess fa) {
      path.add(0, fa.getField().getIndex());
      e = fa.getReferenceExpr();
    }
    if (!(e instanceof RexInputRef ref)) {
      return null;
    }
    path.add(0, ref.getIndex());
    return path;
  }
}

package io.calcitebridge.flink;

import com.google.common.collect.ImmutableList;
import io.calcitebridge.rewrite.RuleConfig;
import java.util.List;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexFieldCollation;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexOver;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexWindow;
import org.apache.calcite.rex.RexWindowBounds;
import org.apache.calcite.sql.SqlAggFunction;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Computes {@code CUME_DIST()} and {@code PERCENT_RANK()}, which Calcite's engine has no
 * implementation of (1.42), from window functions it has, as the standard defines them over the
 * rows of the partition ({@code n}):
 *
 * <ul>
 *   <li>{@code CUME_DIST()}: the rows up to the current one and its peers, {@code COUNT(*) OVER
 *       (... ORDER BY o RANGE UNBOUNDED PRECEDING)}, divided by {@code n};
 *   <li>{@code PERCENT_RANK()}: {@code (RANK() - 1) / (n - 1)}, and 0 when {@code n} is 1.
 * </ul>
 *
 * Both are DOUBLE, as in Flink. Every backend gets the same plan.
 */
public final class RankDistributions extends RelRule<RuleConfig<RankDistributions>> {
  /** The rule's configuration: a projection with CUME_DIST or PERCENT_RANK. */
  public static final RuleConfig<RankDistributions> CONFIG =
      RuleConfig.of(
          "RankDistributions",
          b0 ->
              b0.operand(LogicalProject.class)
                  .predicate(p -> p.getProjects().stream().anyMatch(RankDistributions::has))
                  .anyInputs(),
          RankDistributions::new);

  public static final RankDistributions INSTANCE = CONFIG.toRule();

  private RankDistributions(RuleConfig<RankDistributions> config) {
    super(config);
  }

  private static boolean has(RexNode e) {
    boolean[] found = {false};
    e.accept(
        new RexShuttle() {
          @Override
          public RexNode visitOver(RexOver over) {
            SqlKind kind = over.getAggOperator().getKind();
            found[0] |= kind == SqlKind.CUME_DIST || kind == SqlKind.PERCENT_RANK;
            return super.visitOver(over);
          }
        });
    return found[0];
  }

  @Override
  public void onMatch(RelOptRuleCall call) {
    LogicalProject project = call.rel(0);
    RexBuilder rex = project.getCluster().getRexBuilder();
    RexShuttle rewrite =
        new RexShuttle() {
          @Override
          public RexNode visitOver(RexOver over) {
            SqlKind kind = over.getAggOperator().getKind();
            if (kind == SqlKind.CUME_DIST) {
              return cumeDist(rex, over);
            }
            if (kind == SqlKind.PERCENT_RANK) {
              return percentRank(rex, over);
            }
            return super.visitOver(over);
          }
        };
    List<RexNode> exprs = rewrite.apply(project.getProjects());
    call.transformTo(
        project.copy(project.getTraitSet(), project.getInput(), exprs, project.getRowType()));
  }

  private static RexNode cumeDist(RexBuilder rex, RexOver over) {
    RexWindow w = over.getWindow();
    RexNode upToPeers = count(rex, w.partitionKeys, w.orderKeys);
    RexNode all = count(rex, w.partitionKeys, ImmutableList.of());
    return rex.makeCast(
        over.getType(),
        rex.makeCall(SqlStdOperatorTable.DIVIDE, asDouble(rex, upToPeers), asDouble(rex, all)),
        true,
        false);
  }

  private static RexNode percentRank(RexBuilder rex, RexOver over) {
    RexWindow w = over.getWindow();
    RexNode all = count(rex, w.partitionKeys, ImmutableList.of());
    RexNode one = rex.makeExactLiteral(java.math.BigDecimal.ONE);
    RexNode rank = over(rex, SqlStdOperatorTable.RANK, w.partitionKeys, w.orderKeys, rankType(rex));
    RexNode ratio =
        rex.makeCall(
            SqlStdOperatorTable.DIVIDE,
            asDouble(rex, rex.makeCall(SqlStdOperatorTable.MINUS, rank, one)),
            asDouble(rex, rex.makeCall(SqlStdOperatorTable.MINUS, all, one)));
    RexNode zero = rex.makeApproxLiteral(java.math.BigDecimal.ZERO);
    return rex.makeCast(
        over.getType(),
        rex.makeCall(
            SqlStdOperatorTable.CASE,
            rex.makeCall(SqlStdOperatorTable.EQUALS, all, one),
            zero,
            ratio),
        true,
        false);
  }

  private static RelDataType rankType(RexBuilder rex) {
    return rex.getTypeFactory().createSqlType(SqlTypeName.BIGINT);
  }

  private static RexNode asDouble(RexBuilder rex, RexNode e) {
    return rex.makeCast(rex.getTypeFactory().createSqlType(SqlTypeName.DOUBLE), e);
  }

  /** COUNT(*) over the partition, up to the current row's last peer when ordered. */
  private static RexNode count(
      RexBuilder rex, List<RexNode> partition, ImmutableList<RexFieldCollation> order) {
    return over(rex, SqlStdOperatorTable.COUNT, partition, order, rankType(rex));
  }

  private static RexNode over(
      RexBuilder rex,
      SqlAggFunction op,
      List<RexNode> partition,
      ImmutableList<RexFieldCollation> order,
      RelDataType type) {
    return rex.makeOver(
        type,
        op,
        List.of(),
        partition,
        order,
        RexWindowBounds.UNBOUNDED_PRECEDING,
        order.isEmpty() ? RexWindowBounds.UNBOUNDED_FOLLOWING : RexWindowBounds.CURRENT_ROW,
        false,
        true,
        false,
        false,
        false);
  }
}

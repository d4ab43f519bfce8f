package io.calcitebridge.vector;

import io.calcitebridge.catalog.ArrowStorage;
import io.calcitebridge.pushdown.BridgeTableScan;
import io.calcitebridge.pushdown.SelectOnly;
import io.calcitebridge.rewrite.RuleConfig;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.plan.hep.HepRelVertex;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Calc;
import org.apache.calcite.rel.metadata.DefaultRelMetadataProvider;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLocalRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.tools.Program;
import org.apache.calcite.tools.Programs;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Source aggregate pushdown: an Enumerable aggregate without GROUP BY whose input is a scan of a
 * source that supports aggregate pushdown ({@link ArrowStorage#supportsAggregatePushDown()}),
 * directly or through a projection that only picks columns, becomes an {@link ArrowAggregate},
 * which computes {@code COUNT(*)}, {@code COUNT(x)}, {@code MIN} and {@code MAX} of integer columns
 * and {@code SUM} of INTEGER, BIGINT and floating-point columns from the source's Arrow batches.
 * The scan is narrowed to the columns the aggregates read: none for {@code COUNT(*)} alone, so the
 * source may answer from its own row counts (the filesystem connector reads Parquet footers).
 *
 * <p>Runs once after cost-based planning. GROUP BY, {@code DISTINCT}, {@code FILTER}, {@code WITHIN
 * GROUP}, other functions and other types keep the engine's aggregate (DuckDB measured as fast or
 * faster under {@code auto}), as does MIN/MAX of floating-point columns (Calcite's own answer there
 * depends on where NaN values fall).
 */
public final class ArrowAggregateRule extends RelRule<RuleConfig<ArrowAggregateRule>> {
  /** The rule's configuration: its operands and description. */
  public static final RuleConfig<ArrowAggregateRule> CONFIG =
      RuleConfig.of(
          "ArrowAggregate", b0 -> b0.operand(Aggregate.class).anyInputs(), ArrowAggregateRule::new);

  public static final ArrowAggregateRule INSTANCE = CONFIG.toRule();

  /** The rule as a planning phase of its own. */
  public static final Program PROGRAM =
      Programs.hep(List.of(INSTANCE), true, DefaultRelMetadataProvider.INSTANCE);

  private ArrowAggregateRule(RuleConfig<ArrowAggregateRule> config) {
    super(config);
  }

  @Override
  public void onMatch(RelOptRuleCall call) {
    Aggregate agg = call.rel(0);
    if (agg instanceof ArrowAggregate
        || agg.getConvention() != EnumerableConvention.INSTANCE
        || agg.getGroupType() != Aggregate.Group.SIMPLE
        || agg.getGroupCount() != 0) {
      return;
    }
    RelNode input = strip(agg.getInput());
    int[] map = null;
    if (input instanceof Calc calc) {
      map = SelectOnly.columns(calc.getProgram());
      if (map == null) {
        map = widenedColumns(calc.getProgram());
      }
      if (map == null) {
        return;
      }
      input = strip(calc.getInput());
    }
    if (!(input instanceof BridgeTableScan scan)
        || scan.limit() != null
        || !(scan.bridgeTable().storage() instanceof ArrowStorage storage)
        || !storage.supportsAggregatePushDown()) {
      return;
    }
    RelDataType scanType = scan.getRowType();
    List<Integer> used = new ArrayList<>();
    List<AggregateCall> calls = new ArrayList<>();
    for (AggregateCall c : agg.getAggCallList()) {
      List<Integer> args = new ArrayList<>();
      for (int a : c.getArgList()) {
        int column = map == null ? a : map[a];
        if (!used.contains(column)) {
          used.add(column);
        }
        args.add(used.indexOf(column));
      }
      SqlTypeName argType =
          args.isEmpty()
              ? null
              : scanType.getFieldList().get(used.get(args.get(0))).getType().getSqlTypeName();
      if (!supported(c, argType)) {
        return;
      }
      calls.add(c.withArgList(args));
    }
    BridgeTableScan narrowed = scan.withColumns(used);
    call.transformTo(new ArrowAggregate(agg.getCluster(), agg.getTraitSet(), narrowed, calls));
  }

  /**
   * The input columns {@code program} selects, each as it is or cast to a wider integer type
   * (BIGINT, or DECIMAL without a scale), or null. The sums of an integer {@code AVG}, widened so
   * that they do not overflow ({@code WideAverages}), read their column through such a cast; the
   * vectorized sum adds the column's values into the wider type itself.
   */
  static int @Nullable [] widenedColumns(RexProgram program) {
    if (program.getCondition() != null) {
      return null;
    }
    List<RexLocalRef> projects = program.getProjectList();
    int[] map = new int[projects.size()];
    for (int i = 0; i < map.length; i++) {
      RexNode e = program.expandLocalRef(projects.get(i));
      if (e instanceof RexCall cast
          && cast.getKind() == SqlKind.CAST
          && cast.getOperands().get(0) instanceof RexInputRef ref
          && widens(ref.getType(), cast.getType())) {
        map[i] = ref.getIndex();
      } else if (e instanceof RexInputRef ref) {
        map[i] = ref.getIndex();
      } else {
        return null;
      }
    }
    return map;
  }

  private static boolean widens(RelDataType from, RelDataType to) {
    if (!AggregateTypes.isInteger(from.getSqlTypeName())) {
      return false;
    }
    return switch (to.getSqlTypeName()) {
      case BIGINT -> true;
      case DECIMAL -> to.getScale() == 0 && to.getPrecision() >= 19;
      default -> false;
    };
  }

  private static boolean supported(AggregateCall c, @Nullable SqlTypeName argType) {
    if (c.isDistinct()
        || c.isApproximate()
        || c.filterArg >= 0
        || !c.getCollation().getFieldCollations().isEmpty()
        || !c.rexList.isEmpty()
        || c.distinctKeys != null
        || c.getArgList().size() > 1) {
      return false;
    }
    SqlTypeName result = c.getType().getSqlTypeName();
    switch (c.getAggregation().getKind()) {
      case COUNT:
        return true;
      case SUM:
      case SUM0:
        // A TINYINT or SMALLINT sum that leaves its type fails in Calcite's engine: keep it there.
        return argType != null
            && ((AggregateTypes.isInteger(argType)
                    && (result == SqlTypeName.INTEGER
                        || result == SqlTypeName.BIGINT
                        || (result == SqlTypeName.DECIMAL && c.getType().getScale() == 0)))
                || (AggregateTypes.isFloating(argType) && AggregateTypes.isFloating(result)));
      case MIN:
      case MAX:
        return argType != null
            && AggregateTypes.isInteger(argType)
            && AggregateTypes.isInteger(result);
      default:
        return false;
    }
  }

  private static RelNode strip(RelNode node) {
    return node instanceof HepRelVertex vertex ? vertex.getCurrentRel() : node;
  }
}

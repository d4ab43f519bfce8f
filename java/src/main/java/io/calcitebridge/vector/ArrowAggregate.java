package io.calcitebridge.vector;

import io.calcitebridge.pushdown.BridgeTableScan;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.linq4j.tree.Blocks;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.plan.hep.HepRelVertex;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.ImmutableBitSet;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * An aggregate without GROUP BY computed straight from a source's Arrow batches (see {@link
 * VectorAggregates}): its input is always a {@link BridgeTableScan} of a source that supports
 * aggregate pushdown, reading only the columns the aggregates use, none at all for {@code COUNT(*)}
 * alone. {@link ArrowAggregateRule} puts it in place of Calcite's row-at-a-time aggregate.
 */
public final class ArrowAggregate extends Aggregate implements EnumerableRel {
  /** The aggregates {@code calls} over all the rows of {@code input}. */
  public ArrowAggregate(
      RelOptCluster cluster, RelTraitSet traits, RelNode input, List<AggregateCall> calls) {
    super(
        cluster,
        traits.replace(EnumerableConvention.INSTANCE),
        List.of(),
        input,
        ImmutableBitSet.of(),
        null,
        calls);
  }

  @Override
  public Aggregate copy(
      RelTraitSet traitSet,
      RelNode input,
      ImmutableBitSet groupSet,
      @Nullable List<ImmutableBitSet> groupSets,
      List<AggregateCall> aggCalls) {
    if (!groupSet.isEmpty()) {
      throw new IllegalArgumentException("ArrowAggregate has no GROUP BY: " + groupSet);
    }
    return new ArrowAggregate(getCluster(), traitSet, input, aggCalls);
  }

  /** The scan the aggregates read. */
  public BridgeTableScan scan() {
    RelNode input = getInput();
    if (input instanceof HepRelVertex vertex) {
      input = vertex.getCurrentRel();
    }
    return (BridgeTableScan) input;
  }

  /** What {@link VectorAggregates#compute} needs to run this aggregate. */
  public VectorAggregatePlan plan() {
    BridgeTableScan scan = scan();
    List<VectorAggregateCall> calls = new ArrayList<>();
    for (AggregateCall c : getAggCallList()) {
      calls.add(
          new VectorAggregateCall(
              kind(c), c.getArgList().isEmpty() ? -1 : c.getArgList().get(0), typeName(c)));
    }
    return new VectorAggregatePlan(
        scan.bridgeTable(), scan.filters(), scan.projection(), scan.nested(), calls);
  }

  private static VectorAggregateKind kind(AggregateCall c) {
    SqlKind kind = c.getAggregation().getKind();
    switch (kind) {
      case COUNT:
        return c.getArgList().isEmpty()
            ? VectorAggregateKind.COUNT_STAR
            : VectorAggregateKind.COUNT;
      case SUM:
        return VectorAggregateKind.SUM;
      case SUM0:
        return VectorAggregateKind.SUM0;
      case MIN:
        return VectorAggregateKind.MIN;
      case MAX:
        return VectorAggregateKind.MAX;
      default:
        throw new IllegalStateException("Not a vectorized aggregate: " + c);
    }
  }

  private static SqlTypeName typeName(AggregateCall c) {
    return c.getType().getSqlTypeName();
  }

  @Override
  public @Nullable RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
    RelOptCost cost = super.computeSelfCost(planner, mq);
    return cost == null ? null : cost.multiplyBy(0.1);
  }

  @Override
  public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    PhysType physType =
        PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(), pref.preferArray());
    org.apache.calcite.linq4j.tree.Expression plan =
        implementor.stash(plan(), VectorAggregatePlan.class);
    boolean scalar = physType.getFormat() == JavaRowFormat.SCALAR;
    return implementor.result(
        physType,
        Blocks.toBlock(
            Expressions.call(
                VectorAggregates.class, "enumerable", plan, Expressions.constant(scalar))));
  }
}

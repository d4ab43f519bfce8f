package io.calcitebridge.enumerable;

import com.google.common.collect.ImmutableList;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.EnumerableValues;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.util.BuiltInMethod;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A large {@code VALUES} whose rows reach the generated code as one stashed list, where {@link
 * EnumerableValues} writes every literal into the code: an {@code IN} list of ten thousand
 * literals, which becomes a join with such a {@code VALUES}, did not compile ("Code grows beyond 64
 * KB"), and a thousand took seconds to compile.
 *
 * <p>The rows are {@link LiteralRows}'; a {@code VALUES} it does not take stays an {@link
 * EnumerableValues}.
 */
final class StashedValues extends Values implements EnumerableRel {
  private final List<@Nullable Object[]> rows;

  private StashedValues(
      RelOptCluster cluster,
      RelDataType rowType,
      ImmutableList<ImmutableList<RexLiteral>> tuples,
      RelTraitSet traits,
      List<@Nullable Object[]> rows) {
    super(cluster, rowType, tuples, traits);
    this.rows = rows;
  }

  /** {@code values} as stashed rows when {@link LiteralRows} can hand them over as data. */
  static RelNode of(EnumerableValues values) {
    List<@Nullable Object[]> rows = LiteralRows.of(values);
    if (rows == null) {
      return values;
    }
    return new StashedValues(
        values.getCluster(), values.getRowType(), values.getTuples(), values.getTraitSet(), rows);
  }

  @Override
  public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new StashedValues(getCluster(), getRowType(), getTuples(), traitSet, rows);
  }

  @Override
  public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    PhysType physType =
        PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(), pref.preferArray());
    List<@Nullable Object> stashedRows =
        physType.getFormat() == JavaRowFormat.SCALAR
            ? rows.stream().map(row -> row[0]).collect(java.util.stream.Collectors.toList())
            : new ArrayList<>(rows);
    Expression stashed = implementor.stash(stashedRows, List.class);
    BlockBuilder builder = new BlockBuilder();
    builder.add(
        Expressions.return_(null, Expressions.call(BuiltInMethod.AS_ENUMERABLE2.method, stashed)));
    return implementor.result(physType, builder.toBlock());
  }
}

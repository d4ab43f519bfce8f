package io.calcitebridge.enumerable;

import io.calcitebridge.rewrite.BottomUp;
import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.enumerable.EnumerableLimitSort;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.EnumerableSort;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.linq4j.tree.MethodCallExpression;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.util.BuiltInMethod;
import org.apache.calcite.util.Pair;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Runs after cost-based planning: every {@link EnumerableSort} and {@link EnumerableLimitSort} of
 * the plan (those the planner adds to deliver an ordering included) becomes a copy whose generated
 * code compares sort keys with {@link SortRuntime#nullsComparator} rather than Calcite's single-key
 * comparator, and whose full sort is a merge sort of a list ({@link SortRuntime#orderBy}) rather
 * than a tree map of lists. The operators, their order and their names in EXPLAIN are Calcite's.
 */
public final class SortRewrite {
  private SortRewrite() {}

  /** {@code rel} with its sorts replaced; shared inputs stay shared. */
  public static RelNode apply(RelNode rel) {
    return BottomUp.rewrite(rel, SortRewrite::step);
  }

  private static RelNode step(RelNode rel) {
    RelNode node = rel;
    if (node instanceof EnumerableSort s && !(node instanceof FastSort)) {
      node = new FastSort(s.getCluster(), s.getTraitSet(), s.getInput(), s.getCollation());
    } else if (node instanceof EnumerableLimitSort s && !(node instanceof FastLimitSort)) {
      node =
          new FastLimitSort(
              s.getCluster(), s.getTraitSet(), s.getInput(), s.getCollation(), s.offset, s.fetch);
    }
    return node;
  }

  /**
   * {@code comparator} (a collation key's, from {@link PhysType#generateCollationKey}) with
   * Calcite's single-key comparator replaced by {@link SortRuntime#nullsComparator}; any other
   * comparator (a generated one for several keys, one with a string collation) as it is.
   */
  static @Nullable Expression fastComparator(@Nullable Expression comparator) {
    if (comparator instanceof MethodCallExpression call
        && call.method.equals(BuiltInMethod.NULLS_COMPARATOR.method)) {
      return Expressions.call(SortRuntime.class, "nullsComparator", call.expressions);
    }
    return comparator;
  }

  /** A full sort: the rows read into a list and merge-sorted. */
  static final class FastSort extends EnumerableSort {
    FastSort(RelOptCluster cluster, RelTraitSet traits, RelNode input, RelCollation collation) {
      super(cluster, traits, input, collation, null, null);
    }

    @Override
    public EnumerableSort copy(
        RelTraitSet traitSet,
        RelNode newInput,
        RelCollation newCollation,
        @Nullable RexNode offset,
        @Nullable RexNode fetch) {
      return new FastSort(getCluster(), traitSet, newInput, newCollation);
    }

    @Override
    public String getRelTypeName() {
      return EnumerableSort.class.getSimpleName();
    }

    @Override
    public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
      BlockBuilder builder = new BlockBuilder();
      Result result = implementor.visitChild(this, 0, (EnumerableRel) getInput(), pref);
      PhysType physType =
          PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(), result.format);
      Expression child = builder.append("child", result.block);
      Pair<Expression, Expression> key =
          result.physType.generateCollationKey(collation.getFieldCollations());
      Expression comparator = fastComparator(key.right);
      builder.add(
          Expressions.return_(
              null,
              Expressions.call(
                  SortRuntime.class,
                  "orderBy",
                  child,
                  builder.append("keySelector", key.left),
                  comparator == null
                      ? Expressions.constant(null, java.util.Comparator.class)
                      : builder.append("comparator", comparator))));
      return implementor.result(physType, builder.toBlock());
    }
  }

  /**
   * A top-N ({@code ORDER BY ... LIMIT}): Calcite's bounded sort, which keeps at most {@code offset
   * + fetch} rows while reading its input.
   */
  static final class FastLimitSort extends EnumerableLimitSort {
    FastLimitSort(
        RelOptCluster cluster,
        RelTraitSet traits,
        RelNode input,
        RelCollation collation,
        @Nullable RexNode offset,
        @Nullable RexNode fetch) {
      super(cluster, traits, input, collation, offset, fetch);
    }

    @Override
    public EnumerableLimitSort copy(
        RelTraitSet traitSet,
        RelNode newInput,
        RelCollation newCollation,
        @Nullable RexNode offset,
        @Nullable RexNode fetch) {
      return new FastLimitSort(getCluster(), traitSet, newInput, newCollation, offset, fetch);
    }

    @Override
    public String getRelTypeName() {
      return EnumerableLimitSort.class.getSimpleName();
    }

    @Override
    public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
      BlockBuilder builder = new BlockBuilder();
      Result result = implementor.visitChild(this, 0, (EnumerableRel) getInput(), pref);
      PhysType physType =
          PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(), result.format);
      Expression child = builder.append("child", result.block);
      Pair<Expression, Expression> key =
          result.physType.generateCollationKey(collation.getFieldCollations());
      Expression comparator = fastComparator(key.right);
      Expression fetchValue =
          fetch == null ? Expressions.constant(Integer.MAX_VALUE) : count(fetch);
      Expression offsetValue = offset == null ? Expressions.constant(0) : count(offset);
      builder.add(
          Expressions.return_(
              null,
              Expressions.call(
                  BuiltInMethod.ORDER_BY_WITH_FETCH_AND_OFFSET.method,
                  Expressions.list(child, builder.append("keySelector", key.left))
                      .appendIfNotNull(builder.appendIfNotNull("comparator", comparator))
                      .append(builder.append("offset", offsetValue))
                      .append(builder.append("fetch", fetchValue)))));
      return implementor.result(physType, builder.toBlock());
    }

    /** A literal or dynamic-parameter row count, as Calcite's EnumerableLimit reads it. */
    private static Expression count(RexNode node) {
      if (node instanceof RexDynamicParam param) {
        return Expressions.convert_(
            Expressions.call(
                DataContext.ROOT,
                BuiltInMethod.DATA_CONTEXT_GET.method,
                Expressions.constant("?" + param.getIndex())),
            Integer.class);
      }
      return Expressions.constant(RexLiteral.intValue(node));
    }
  }
}

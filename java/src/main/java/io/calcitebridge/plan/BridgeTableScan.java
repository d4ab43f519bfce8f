package io.calcitebridge.plan;

import io.calcitebridge.catalog.BridgeTable;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.tree.Blocks;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.hint.RelHint;

/**
 * The scan of a catalog table, executable in Calcite's Enumerable convention. Rows come from the
 * table's connector as {@code Object[]} in Calcite's runtime representation and pass through
 * unchanged (Calcite's own EnumerableTableScan would rebuild ARRAY&lt;ROW&gt; values as generated
 * classes, which fails to compile). Pushdown of filters and projections lands here.
 */
public final class BridgeTableScan extends TableScan implements EnumerableRel {
  private final BridgeTable bridgeTable;

  public BridgeTableScan(
      RelOptCluster cluster, RelOptTable table, BridgeTable bridgeTable, List<RelHint> hints) {
    super(cluster, cluster.traitSetOf(EnumerableConvention.INSTANCE), hints, table);
    this.bridgeTable = bridgeTable;
  }

  @Override
  public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return this;
  }

  @Override
  public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    PhysType physType =
        PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(), pref.preferArray());
    Expression source = implementor.stash(bridgeTable, BridgeTable.class);
    boolean scalar = physType.getFormat() == JavaRowFormat.SCALAR;
    Expression rows =
        Expressions.call(
            BridgeTableScan.class, "rows", source, DataContext.ROOT, Expressions.constant(scalar));
    return implementor.result(physType, Blocks.toBlock(rows));
  }

  /** Called by generated code: the table's rows, or the values of its only column. */
  public static Enumerable<?> rows(BridgeTable table, DataContext root, boolean scalar) {
    Enumerable<Object[]> rows = table.scan(root);
    return scalar ? rows.select(r -> r[0]) : rows;
  }
}

package io.calcitebridge.flink;

import java.util.List;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Uncollect;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;

/**
 * {@code UNNEST} of a NULL array or map gives no rows, as in Flink: a filter {@code IS NOT NULL}
 * goes below each {@link Uncollect} of one nullable collection. Calcite's engine (1.42) unnests a
 * NULL array only when it has one column and no ordinality; {@code WITH ORDINALITY}, a map or an
 * array of rows failed with a NullPointerException.
 */
public final class NullCollections {
  private NullCollections() {}

  /** {@code rel} with every such {@link Uncollect} reading non-NULL collections only. */
  public static RelNode filter(RelNode rel) {
    return rel.accept(
        new RelHomogeneousShuttle() {
          @Override
          public RelNode visit(RelNode other) {
            RelNode visited = super.visit(other);
            return visited instanceof Uncollect u ? withoutNulls(u) : visited;
          }
        });
  }

  private static RelNode withoutNulls(Uncollect uncollect) {
    RelNode input = uncollect.getInput();
    List<RelDataTypeField> fields = input.getRowType().getFieldList();
    if (fields.size() != 1 || !fields.get(0).getType().isNullable()) {
      return uncollect;
    }
    RexBuilder rex = uncollect.getCluster().getRexBuilder();
    RelNode nonNull =
        LogicalFilter.create(
            input, rex.makeCall(SqlStdOperatorTable.IS_NOT_NULL, rex.makeInputRef(input, 0)));
    return uncollect.copy(uncollect.getTraitSet(), List.of(nonNull));
  }
}

package io.calcitebridge.plan;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;

/**
 * Casts the fields of a ROW constructor rather than the ROW: {@code CAST(ROW(a, b) AS ROW<x T, y
 * U>)} becomes {@code ROW(CAST(a AS T), CAST(b AS U))}, typed as the cast was.
 *
 * <p>Calcite's code for a cast of a ROW casts each field without a NULL check, so {@code INSERT
 * INTO t VALUES (ROW(NULL, ARRAY[1, 2]))} into a column {@code ROW<a INT, xs ARRAY<INT>>} failed
 * with a NullPointerException. A cast of each field has its own NULL check. Runs on the plan given
 * to the Enumerable engine only.
 */
final class RowCasts {
  private RowCasts() {}

  /** {@code rel} with the casts of ROW constructors moved onto their fields. */
  static RelNode apply(RelNode rel) {
    return rel.accept(
        new RelHomogeneousShuttle() {
          @Override
          public RelNode visit(RelNode other) {
            RelNode visited = super.visit(other);
            return visited.accept(new Fields(visited.getCluster().getRexBuilder()));
          }
        });
  }

  private static final class Fields extends RexShuttle {
    private final RexBuilder rex;

    Fields(RexBuilder rex) {
      this.rex = rex;
    }

    @Override
    public RexNode visitSubQuery(RexSubQuery subQuery) {
      RexSubQuery visited = (RexSubQuery) super.visitSubQuery(subQuery);
      RelNode rel = RowCasts.apply(visited.rel);
      return rel == visited.rel ? visited : visited.clone(rel);
    }

    @Override
    public RexNode visitCall(RexCall call) {
      RexCall visited = (RexCall) super.visitCall(call);
      if (visited.getKind() != SqlKind.CAST
          || !(visited.operands.get(0) instanceof RexCall row)
          || row.getKind() != SqlKind.ROW
          || !visited.getType().isStruct()
          || visited.getType().getFieldCount() != row.operands.size()) {
        return visited;
      }
      List<RexNode> fields = new ArrayList<>(row.operands.size());
      for (int i = 0; i < row.operands.size(); i++) {
        RexNode field = row.operands.get(i);
        RelDataType type = visited.getType().getFieldList().get(i).getType();
        fields.add(field.getType().equals(type) ? field : cast(type, field));
      }
      return rex.makeCall(visited.getType(), SqlStdOperatorTable.ROW, fields);
    }

    /** {@code CAST(field AS type)}, itself moved onto the fields when {@code field} is a ROW. */
    private RexNode cast(RelDataType type, RexNode field) {
      return rex.makeAbstractCast(type, field, false).accept(this);
    }
  }
}

package io.calcitebridge.flink;

import io.calcitebridge.rewrite.CallRewrites;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
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
public final class RowCasts {
  private RowCasts() {}

  /** {@code rel} with the casts of ROW constructors moved onto their fields. */
  public static RelNode apply(RelNode rel) {
    return CallRewrites.everyCall(rel, RowCasts::fields);
  }

  /** {@code call}, when it casts a ROW constructor, as the constructor of the cast fields. */
  private static RexNode fields(RexBuilder rex, RexCall call) {
    if (call.getKind() != SqlKind.CAST
        || !(call.operands.get(0) instanceof RexCall row)
        || row.getKind() != SqlKind.ROW
        || !call.getType().isStruct()
        || call.getType().getFieldCount() != row.operands.size()) {
      return call;
    }
    List<RexNode> fields = new ArrayList<>(row.operands.size());
    for (int i = 0; i < row.operands.size(); i++) {
      RexNode field = row.operands.get(i);
      RelDataType type = call.getType().getFieldList().get(i).getType();
      // A field that is itself a ROW constructor has its cast moved onto its fields in turn.
      fields.add(
          field.getType().equals(type)
              ? field
              : fields(rex, (RexCall) rex.makeAbstractCast(type, field, false)));
    }
    return rex.makeCall(call.getType(), SqlStdOperatorTable.ROW, fields);
  }
}

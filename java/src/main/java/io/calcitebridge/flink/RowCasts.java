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

  /**
   * {@code call}, when it casts a ROW constructor, as the constructor of the cast fields; when it
   * casts another ROW value {@code r}, as {@code CASE WHEN r IS NULL THEN NULL ELSE ROW(CAST(r.a AS
   * T), ...) END} (Calcite's cast of a ROW column whose field is NULL failed with a
   * NullPointerException).
   */
  private static RexNode fields(RexBuilder rex, RexCall call) {
    if (call.getKind() != SqlKind.CAST || !call.getType().isStruct()) {
      return call;
    }
    RexNode operand = call.operands.get(0);
    if (!(operand instanceof RexCall row) || row.getKind() != SqlKind.ROW) {
      return ofValue(rex, call, operand);
    }
    if (call.getType().getFieldCount() != row.operands.size()) {
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

  /** The cast of a ROW value that is not a constructor: each field read and cast on its own. */
  private static RexNode ofValue(RexBuilder rex, RexCall call, RexNode value) {
    RelDataType from = value.getType();
    if (!from.isStruct()
        || from.getFieldCount() != call.getType().getFieldCount()
        || !org.apache.calcite.rex.RexUtil.isDeterministic(value)
        || org.apache.calcite.rex.RexUtil.isNullLiteral(value, true)) {
      return call;
    }
    List<RexNode> fields = new ArrayList<>(from.getFieldCount());
    for (int i = 0; i < from.getFieldCount(); i++) {
      RexNode field = rex.makeFieldAccess(value, i);
      RelDataType type = call.getType().getFieldList().get(i).getType();
      if (!field.getType().equals(type)) {
        RexNode cast = rex.makeAbstractCast(type, field, false);
        field = cast instanceof RexCall c ? fields(rex, c) : cast;
      }
      fields.add(field);
    }
    RelDataType notNull = rex.getTypeFactory().createTypeWithNullability(call.getType(), false);
    RexNode row = rex.makeCall(notNull, SqlStdOperatorTable.ROW, fields);
    if (!from.isNullable()) {
      return rex.makeCall(call.getType(), SqlStdOperatorTable.ROW, fields);
    }
    // A CASE of ROW values as Calcite's engine can compile it (RowCases).
    return io.calcitebridge.functions.RowCases.rewrite(
        rex,
        (RexCall)
            rex.makeCall(
                call.getType(),
                SqlStdOperatorTable.CASE,
                List.of(
                    rex.makeCall(SqlStdOperatorTable.IS_NULL, value),
                    rex.makeNullLiteral(call.getType()),
                    row)));
  }
}

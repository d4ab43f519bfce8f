package io.calcitebridge.functions;

import java.util.List;
import org.apache.calcite.adapter.enumerable.NullPolicy;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlUtil;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.OperandTypes;

/**
 * Flink's {@code ROW(...)} on Calcite's engine: a row of its fields, never NULL. The validator
 * types the constructor NOT NULL, as Flink does ({@code BridgeSqlValidator#deriveType}), but
 * Calcite's engine computes a ROW as NULL when every field is NULL, so {@code ROW(a, s)} of a NULL
 * {@code a} and {@code s} was a NULL row, written {@code NULL}, where Flink has a row of NULLs,
 * {@code (NULL, NULL)}. {@link #rewrite} computes such a constructor by {@link #ROW}, which builds
 * the row whatever its fields. Not in the operator table: the planner puts it in plans for
 * Calcite's engine.
 */
public final class RowConstructors {
  private RowConstructors() {}

  /** A row of the operands, NOT NULL; its value is the engine's value of a ROW (an array). */
  private static final SqlOperator ROW =
      Fn.fn(
          "$ROW",
          b -> {
            RelDataTypeFactory.Builder fields = b.getTypeFactory().builder();
            for (int i = 0; i < b.getOperandCount(); i++) {
              fields.add(SqlUtil.deriveAliasFromOrdinal(i), b.getOperandType(i));
            }
            return fields.build();
          },
          OperandTypes.VARIADIC,
          RowConstructors.class,
          "row",
          NullPolicy.NONE);

  /**
   * {@code call}, when it is a ROW constructor whose fields may all be NULL (the only one Calcite's
   * engine could make NULL), as a call of {@link #ROW}; else itself. A constructor typed nullable
   * is rewritten too: it is a cast of a constructor (a cast to a nullable column's ROW type in an
   * INSERT) with the cast moved onto its fields ({@code RowCasts}), never NULL either.
   */
  public static RexNode rewrite(RexBuilder rex, RexCall call) {
    if (call.getOperator() != SqlStdOperatorTable.ROW
        || call.operands.isEmpty()
        || !call.operands.stream().allMatch(o -> o.getType().isNullable())) {
      return call;
    }
    return rex.makeCall(call.getType(), ROW, List.copyOf(call.operands));
  }

  /** The row of {@code fields}, as the engine holds a ROW. */
  public static Object[] row(Object... fields) {
    return fields;
  }
}

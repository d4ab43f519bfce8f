package io.calcitebridge.functions;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.adapter.enumerable.NullPolicy;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * A CASE whose value is a ROW ({@code CASE WHEN id IS NULL THEN NULL ELSE ROW(id, s) END}), as
 * Calcite's engine can run it. Its code generator declares the CASE's value as the Java class of
 * the ROW type, a record class it never generates, so such a query failed to compile ("Cannot
 * determine simple type name Record2_0"). {@link #rewrite} computes the CASE over the ROW values as
 * objects ({@link #AS_OBJECT}, their Java representation unchanged) and gives the result its ROW
 * type back ({@link #AS_ROW}). Not in the operator table: the planner puts them in plans for
 * Calcite's engine.
 */
public final class RowCases {
  private RowCases() {}

  private static final SqlOperator AS_OBJECT =
      Fn.fn(
          "$AS_OBJECT",
          ReturnTypes.explicit(SqlTypeName.ANY),
          OperandTypes.ANY,
          RowCases.class,
          "value",
          NullPolicy.NONE);

  private static final SqlOperator AS_ROW =
      Fn.fn(
          "$AS_ROW", ReturnTypes.ARG0, OperandTypes.ANY, RowCases.class, "value", NullPolicy.NONE);

  /** {@code call}, when it is a CASE whose value is a ROW, computed over objects; else itself. */
  public static RexNode rewrite(RexBuilder rex, RexCall call) {
    if (call.getKind() != SqlKind.CASE || !call.getType().isStruct()) {
      return call;
    }
    RelDataType object =
        rex.getTypeFactory()
            .createTypeWithNullability(
                rex.getTypeFactory().createSqlType(SqlTypeName.ANY), call.getType().isNullable());
    List<RexNode> operands = new ArrayList<>(call.getOperands());
    for (int i = 1; i < operands.size(); i += 2) {
      operands.set(i, asObject(rex, operands.get(i), object));
    }
    // The ELSE value is the last operand.
    int last = operands.size() - 1;
    operands.set(last, asObject(rex, operands.get(last), object));
    RexNode cases = rex.makeCall(object, call.getOperator(), operands);
    return rex.makeCall(call.getType(), AS_ROW, List.of(cases));
  }

  private static RexNode asObject(RexBuilder rex, RexNode value, RelDataType object) {
    if (value.getType().getSqlTypeName() == SqlTypeName.ANY) {
      return value;
    }
    if (RexLiteral.isNullLiteral(value)) {
      return rex.makeNullLiteral(object);
    }
    return rex.makeCall(object, AS_OBJECT, List.of(value));
  }

  /** The value as it is: only its SQL type changes. */
  public static Object value(Object x) {
    return x;
  }
}

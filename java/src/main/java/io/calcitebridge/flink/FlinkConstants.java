package io.calcitebridge.flink;

import io.calcitebridge.errors.ErrorKind;
import io.calcitebridge.errors.PositionedException;
import io.calcitebridge.functions.NumberFunctions;
import io.calcitebridge.rewrite.CallRewrites;
import java.math.BigDecimal;
import java.util.List;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * What Flink's planner does to a constant expression, which it computes while planning (its {@code
 * ExpressionReducer}), kept where the answer shows it:
 *
 * <ul>
 *   <li>A constant division whose divisor is zero ({@code CAST(1 AS DOUBLE) / 0}, {@code 1 / 0.0},
 *       {@code x / CAST(0 AS DOUBLE)} with a constant {@code x}), of any numeric type, fails with
 *       "Division by zero": Flink checks the divisor before it computes the quotient, so a DOUBLE
 *       quotient is not Infinity or NaN. A division over a column computes as the engine does (a
 *       DOUBLE divided by zero is Infinity, as in Flink).
 *   <li>A constant DOUBLE or FLOAT is a literal, whose zero has no sign: {@code CEIL(CAST(-0.5 AS
 *       DOUBLE))}, {@code LOG(0, 8)} and {@code CAST('-0.0' AS DOUBLE)} are 0.0, while the same
 *       functions of a column give -0.0, as in Flink. Each constant floating-point expression of a
 *       projection is written {@code CASE WHEN e = 0 THEN 0.0 ELSE e END}, so every backend answers
 *       the same.
 *   <li>A field of a NULL ROW is a NULL of the field's type, also where the ROW is a column of an
 *       input that is NULL in every row, as a sub-query's {@code CAST(NULL AS ROW<a INT>) AS x},
 *       and a reference to such a column is the NULL literal ({@link NullRows}).
 * </ul>
 *
 * <p>Runs on the logical plan, before any backend is chosen.
 */
public final class FlinkConstants {
  private FlinkConstants() {}

  public static RelNode apply(RelNode rel) {
    return CallRewrites.everyExpression(
        rel,
        node ->
            new Folded(
                node.getCluster().getRexBuilder(),
                node instanceof Project,
                NullRows.inputsOf(node)));
  }

  private static final class Folded extends RexShuttle {
    private final RexBuilder rex;
    private final boolean unsignedZeros;
    private final List<RelNode> inputs;

    Folded(RexBuilder rex, boolean unsignedZeros, List<RelNode> inputs) {
      this.rex = rex;
      this.unsignedZeros = unsignedZeros;
      this.inputs = inputs;
    }

    @Override
    public RexNode visitLiteral(RexLiteral literal) {
      if (unsignedZeros
          && NegativeZero.floating(literal.getType())
          && literal.getValue() instanceof Number n
          && n.doubleValue() == 0.0
          && 1 / n.doubleValue() < 0) {
        return rex.makeApproxLiteral(BigDecimal.ZERO, literal.getType());
      }
      return literal;
    }

    /**
     * A field of a NULL ROW ({@code CAST(NULL AS ROW<a INT>).a}, or of a NULL ROW column of an
     * input) is a NULL of the field's type, as Flink's planner folds it ({@link NullRows}).
     */
    @Override
    public RexNode visitFieldAccess(org.apache.calcite.rex.RexFieldAccess access) {
      return nullRowField(super.visitFieldAccess(access), inputs);
    }

    /** A ROW column NULL in every row is that NULL ({@link NullRows}). */
    @Override
    public RexNode visitInputRef(org.apache.calcite.rex.RexInputRef ref) {
      return NullRows.fold(rex, ref, inputs);
    }

    private RexNode nullRowField(RexNode node, List<RelNode> from) {
      return node instanceof org.apache.calcite.rex.RexFieldAccess field
          ? NullRows.fold(rex, field, from)
          : node;
    }

    @Override
    public RexNode visitCall(RexCall constant) {
      if (!RexUtil.isConstant(constant) || !RexUtil.isDeterministic(constant)) {
        RexNode visited = super.visitCall(constant);
        return visited instanceof RexCall call ? NullRows.fold(rex, call) : visited;
      }
      // A constant call is not walked below: its fields of NULL ROWs, and the tests of those
      // being NULL, are folded here.
      RexNode folded =
          constant.accept(
              new RexShuttle() {
                @Override
                public RexNode visitFieldAccess(org.apache.calcite.rex.RexFieldAccess access) {
                  return nullRowField(super.visitFieldAccess(access), List.of());
                }

                @Override
                public RexNode visitCall(RexCall call) {
                  RexNode visited = super.visitCall(call);
                  return visited instanceof RexCall c ? NullRows.fold(rex, c) : visited;
                }
              });
      if (!(folded instanceof RexCall call)) {
        return folded;
      }
      checkDivisor(call);
      // A query parameter's value is no constant of the text: -0.0 keeps its sign, as a column's.
      if (unsignedZeros && NegativeZero.floating(call.getType()) && !hasParameter(call)) {
        return NegativeZero.zero(rex, call);
      }
      return call;
    }

    /** Whether {@code node} holds a query parameter (a dynamic parameter of a kept plan). */
    private static boolean hasParameter(RexNode node) {
      boolean[] found = {false};
      node.accept(
          new org.apache.calcite.rex.RexVisitorImpl<Void>(true) {
            @Override
            public Void visitDynamicParam(org.apache.calcite.rex.RexDynamicParam param) {
              found[0] = true;
              return null;
            }
          });
      return found[0];
    }

    /** Fails as Flink's planner does when a constant division's divisor is zero. */
    private void checkDivisor(RexCall call) {
      RexNode divisor;
      if (call.getKind() == SqlKind.DIVIDE) {
        divisor = call.getOperands().get(call.getOperands().size() - 1);
      } else if (call.getOperator() == NumberFunctions.DECIMAL_DIVIDE) {
        divisor = call.getOperands().get(1);
      } else {
        return;
      }
      RexNode dividend = Constants.fold(rex, call.getOperands().get(0));
      RexNode value = Constants.fold(rex, divisor);
      if (value instanceof RexLiteral literal
          && !RexLiteral.isNullLiteral(dividend)
          && literal.getValue() instanceof Number n
          && (n instanceof BigDecimal d ? d.signum() == 0 : n.doubleValue() == 0.0)) {
        SqlParserPos pos = call.getParserPosition();
        if (pos.equals(SqlParserPos.ZERO)) {
          throw new ArithmeticException("Division by zero");
        }
        throw new PositionedException(ErrorKind.EXECUTION, "Division by zero", pos);
      }
    }
  }
}

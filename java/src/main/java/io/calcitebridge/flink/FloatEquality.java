package io.calcitebridge.flink;

import io.calcitebridge.rewrite.BottomUp;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.adapter.enumerable.EnumerableCalc;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLocalRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * {@code =}, {@code <>} and {@code IS [NOT] DISTINCT FROM} of two DOUBLE or FLOAT operands that
 * differ only by casts between approximate types ({@code CAST('NaN' AS FLOAT) = CAST('NaN' AS
 * DOUBLE)}) compare a NaN as nothing equal, on Calcite's engine as on the other backends.
 *
 * <p>Calcite's engine holds FLOAT and DOUBLE values alike (a Java {@code double}), so both operands
 * compiled to the same Java expression, and the code generator's optimizer (linq4j's {@code
 * OptimizeShuttle}) takes {@code e == e} as {@code true}: the comparison was TRUE for NaN. Here
 * such a comparison is written with its answer for NaN: {@code a = b AND NOT isnan(a)}, {@code a <>
 * b OR isnan(a)}, {@code a IS DISTINCT FROM b OR isnan(a) IS TRUE} and its negation ({@link
 * NanRanks#isNanFunction()}). Operands equal as written are left to the planner, which takes {@code
 * x = x} as TRUE, as Flink's does. The plan is changed only for the code it compiles to (as {@link
 * DeferredConstants}).
 */
public final class FloatEquality {
  private FloatEquality() {}

  /** {@code rel} with such comparisons of its calculations rewritten. */
  public static RelNode apply(RelNode rel) {
    return BottomUp.rewrite(rel, FloatEquality::step);
  }

  private static RelNode step(RelNode rel) {
    if (!(rel instanceof EnumerableCalc calc)) {
      return rel;
    }
    RexProgram program = calc.getProgram();
    RexBuilder rex = calc.getCluster().getRexBuilder();
    Rewriting rewriting = new Rewriting(rex);
    List<RexNode> projects = new ArrayList<>();
    for (RexLocalRef project : program.getProjectList()) {
      projects.add(program.expandLocalRef(project));
    }
    RexNode condition =
        program.getCondition() == null ? null : program.expandLocalRef(program.getCondition());
    List<RexNode> newProjects = rewriting.apply(projects);
    RexNode newCondition = condition == null ? null : condition.accept(rewriting);
    if (!rewriting.changed) {
      return rel;
    }
    RexProgram rewritten =
        RexProgram.create(
            program.getInputRowType(), newProjects, newCondition, program.getOutputRowType(), rex);
    return calc.copy(calc.getTraitSet(), calc.getInput(), rewritten);
  }

  private static final class Rewriting extends RexShuttle {
    private final RexBuilder rex;
    boolean changed;

    Rewriting(RexBuilder rex) {
      this.rex = rex;
    }

    @Override
    public RexNode visitCall(RexCall call) {
      RexCall visited = (RexCall) super.visitCall(call);
      SqlKind kind = visited.getKind();
      if (kind != SqlKind.EQUALS
          && kind != SqlKind.NOT_EQUALS
          && kind != SqlKind.IS_DISTINCT_FROM
          && kind != SqlKind.IS_NOT_DISTINCT_FROM) {
        return visited;
      }
      RexNode a = visited.operands.get(0);
      RexNode b = visited.operands.get(1);
      if (!approximate(a) || !approximate(b) || a.equals(b)) {
        return visited;
      }
      if (!canonical(a).equals(canonical(b))) {
        return visited;
      }
      changed = true;
      RexNode nan = rex.makeCall(NanRanks.isNanFunction(), a);
      switch (kind) {
        case EQUALS:
          return rex.makeCall(
              SqlStdOperatorTable.AND, visited, rex.makeCall(SqlStdOperatorTable.NOT, nan));
        case NOT_EQUALS:
          return rex.makeCall(SqlStdOperatorTable.OR, visited, nan);
        case IS_DISTINCT_FROM:
          return rex.makeCall(
              SqlStdOperatorTable.OR, visited, rex.makeCall(SqlStdOperatorTable.IS_TRUE, nan));
        default:
          return rex.makeCall(
              SqlStdOperatorTable.AND, visited, rex.makeCall(SqlStdOperatorTable.IS_NOT_TRUE, nan));
      }
    }

    /** {@code e} with each cast to an approximate type of an approximate value removed. */
    private RexNode canonical(RexNode e) {
      return e.accept(
          new RexShuttle() {
            @Override
            public RexNode visitCall(RexCall call) {
              RexCall visited = (RexCall) super.visitCall(call);
              if (visited.getKind() != SqlKind.CAST || !approximate(visited)) {
                return visited;
              }
              RexNode operand = visited.operands.get(0);
              if (approximate(operand)) {
                return operand;
              }
              RelDataType doubleType =
                  rex.getTypeFactory()
                      .createTypeWithNullability(
                          rex.getTypeFactory().createSqlType(SqlTypeName.DOUBLE),
                          visited.getType().isNullable());
              return rex.makeAbstractCast(doubleType, operand, false);
            }
          });
    }
  }

  private static boolean approximate(RexNode e) {
    return SqlTypeFamily.APPROXIMATE_NUMERIC.contains(e.getType());
  }
}

package io.calcitebridge.translate;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Comparisons of DOUBLE and FLOAT values as Java (the reference, and Flink) computes them, written
 * for DuckDB and Spark, which order NaN above every number and take it as equal to itself.
 *
 * <p>In Java a comparison with NaN is FALSE, but {@code <>}, which is TRUE. A comparison whose
 * operands may be NaN (of an approximate type, not a literal) is rewritten, NULLs kept:
 *
 * <ul>
 *   <li>{@code a op b} ({@code =, <, <=, >, >=}) becomes {@code a op b AND (a IS NULL OR b IS NULL
 *       OR NOT (isnan(a) OR isnan(b)))}: where an operand is NULL the comparison is NULL as
 *       written; otherwise a NaN makes it FALSE.
 *   <li>{@code a <> b} becomes {@code a <> b OR (a IS NOT NULL AND b IS NOT NULL AND (isnan(a) OR
 *       isnan(b)))}.
 *   <li>{@code a IS NOT DISTINCT FROM b} becomes {@code a IS NOT DISTINCT FROM b AND (a IS NULL OR
 *       NOT isnan(a))} (NaN is distinct from everything, itself included), {@code IS DISTINCT FROM}
 *       its negation.
 *   <li>A {@code SEARCH} ({@code BETWEEN}, {@code IN}) over such a value is expanded into its
 *       comparisons first.
 * </ul>
 *
 * <p>A NULL operand is tested before {@code isnan} is read, so it does not matter what {@code
 * isnan(NULL)} is (NULL in DuckDB, FALSE in Spark). Comparisons of other types are left as they
 * are.
 */
final class NanComparisons {
  private NanComparisons() {}

  /** {@code isnan(x)}, the same in DuckDB and Spark. */
  static final SqlFunction ISNAN =
      new SqlFunction(
          "isnan",
          SqlKind.OTHER_FUNCTION,
          ReturnTypes.BOOLEAN_NULLABLE,
          null,
          OperandTypes.NUMERIC,
          SqlFunctionCategory.NUMERIC);

  /**
   * {@code call} rewritten as the class comment says, its operands already rewritten; {@code
   * rewriter} rewrites the comparisons a SEARCH expands into. {@code call} itself when it is no
   * such comparison.
   */
  static RexNode rewrite(RexBuilder rex, RexCall call, RexShuttle rewriter) {
    SqlKind kind = call.getKind();
    switch (kind) {
      case SEARCH:
        if (!approximate(call.operands.get(0))) {
          return call;
        }
        return RexUtil.expandSearch(rex, null, call).accept(rewriter);
      case EQUALS:
      case LESS_THAN:
      case LESS_THAN_OR_EQUAL:
      case GREATER_THAN:
      case GREATER_THAN_OR_EQUAL:
        {
          RexNode nan = anyNaN(rex, call.operands);
          if (nan == null) {
            return call;
          }
          List<RexNode> guard = new ArrayList<>();
          for (RexNode operand : call.operands) {
            if (operand.getType().isNullable()) {
              guard.add(rex.makeCall(SqlStdOperatorTable.IS_NULL, operand));
            }
          }
          guard.add(rex.makeCall(SqlStdOperatorTable.NOT, nan));
          return rex.makeCall(
              SqlStdOperatorTable.AND, call, RexUtil.composeDisjunction(rex, guard));
        }
      case NOT_EQUALS:
        {
          RexNode nan = anyNaN(rex, call.operands);
          if (nan == null) {
            return call;
          }
          List<RexNode> when = new ArrayList<>();
          for (RexNode operand : call.operands) {
            if (operand.getType().isNullable()) {
              when.add(rex.makeCall(SqlStdOperatorTable.IS_NOT_NULL, operand));
            }
          }
          when.add(nan);
          return rex.makeCall(SqlStdOperatorTable.OR, call, RexUtil.composeConjunction(rex, when));
        }
      case IS_NOT_DISTINCT_FROM:
      case IS_DISTINCT_FROM:
        {
          RexNode a = call.operands.get(0);
          if (!mayBeNaN(a) && !mayBeNaN(call.operands.get(1))) {
            return call;
          }
          if (!mayBeNaN(a)) {
            a = call.operands.get(1);
          }
          // a NaN: distinct from everything.
          RexNode aNaN = rex.makeCall(ISNAN, a);
          if (a.getType().isNullable()) {
            aNaN =
                rex.makeCall(
                    SqlStdOperatorTable.AND,
                    rex.makeCall(SqlStdOperatorTable.IS_NOT_NULL, a),
                    aNaN);
          }
          return kind == SqlKind.IS_DISTINCT_FROM
              ? rex.makeCall(SqlStdOperatorTable.OR, call, aNaN)
              : rex.makeCall(
                  SqlStdOperatorTable.AND, call, rex.makeCall(SqlStdOperatorTable.NOT, aNaN));
        }
      default:
        return call;
    }
  }

  /** {@code isnan(a) OR isnan(b)} of the operands that may be NaN; null when none may. */
  private static @Nullable RexNode anyNaN(RexBuilder rex, List<RexNode> operands) {
    List<RexNode> nans = new ArrayList<>();
    for (RexNode operand : operands) {
      if (mayBeNaN(operand)) {
        nans.add(rex.makeCall(ISNAN, operand));
      }
    }
    return nans.isEmpty() ? null : RexUtil.composeDisjunction(rex, nans);
  }

  /** Of an approximate type, and not a literal (planning makes no NaN literal). */
  private static boolean mayBeNaN(RexNode e) {
    return approximate(e) && !(e instanceof RexLiteral);
  }

  private static boolean approximate(RexNode e) {
    return SqlTypeFamily.APPROXIMATE_NUMERIC.contains(e.getType());
  }
}

package io.calcitebridge.translate;

import io.calcitebridge.dyncol.DynColOperators.DynColFunction;
import io.calcitebridge.flink.Convertlets;
import java.math.BigDecimal;
import java.util.List;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Rewrites a plan's expressions where DuckDB spells our semantics differently:
 *
 * <ul>
 *   <li>{@code a / b} over integers truncates in Calcite; DuckDB's {@code /} divides as DOUBLE, so
 *       it becomes {@link DuckDbOperators#INT_DIVIDE} ({@code //}).
 *   <li>{@code a[i]} over an ARRAY is NULL for an index below 1 in Calcite; DuckDB counts a
 *       negative index from the end, so a non-literal index is guarded with {@code CASE WHEN i >=
 *       1} and a literal one below 1 becomes NULL.
 *   <li>{@code UPPER} and {@code LOWER} become {@link DuckDbOperators#UPPER} and {@link
 *       DuckDbOperators#LOWER}, Java's full case mapping, which DuckDB's functions do not do.
 *   <li>Flink's functions that DuckDB has under another name ({@link DuckDbOperators#FLINK}).
 *   <li>Our code-point {@code CHAR_LENGTH} ({@link Convertlets#CHAR_LENGTH}) is written as the
 *       standard one: DuckDB's also counts code points.
 *   <li>A dynamic-columns call ({@code COLUMN_GET}, ...) becomes a call of the backend's
 *       user-defined function for it ({@link DuckDbDynCol}).
 *   <li>A product of DECIMALs (or a DECIMAL and an integer) of more than 18 digits multiplies
 *       operands cast to 38 digits: DuckDB multiplies operands of up to 18 digits in 18 digits and
 *       fails where the product needs more ({@code DECIMAL(10, 3) * INT}, 21 digits).
 *   <li>Flink's date, time, collection and string functions DuckDB spells otherwise ({@link
 *       DuckDbFunctions}).
 *   <li>Comparisons of DOUBLE and FLOAT values that may be NaN, which DuckDB orders above every
 *       number and takes as equal to itself, compare as Java does ({@link NanComparisons}).
 * </ul>
 */
final class DuckDbRewrites extends RexShuttle {
  private final RexBuilder rex;

  private DuckDbRewrites(RexBuilder rex) {
    this.rex = rex;
  }

  static RelNode rewrite(RelNode plan) {
    DuckDbRewrites rexes = new DuckDbRewrites(plan.getCluster().getRexBuilder());
    return plan.accept(
        new RelHomogeneousShuttle() {
          @Override
          protected RelNode visitChildren(RelNode rel) {
            return super.visitChildren(rel).accept(rexes);
          }
        });
  }

  @Override
  public RexNode visitFieldAccess(org.apache.calcite.rex.RexFieldAccess access) {
    RexNode visited = super.visitFieldAccess(access);
    // A field of a column too: DuckDB reads "t"."x" as the column x of a relation t first, and
    // the converter names its relations t, t0, scan_0, ... as a user may name a ROW column.
    if (visited instanceof org.apache.calcite.rex.RexFieldAccess field
        && (field.getReferenceExpr() instanceof RexCall
            || field.getReferenceExpr() instanceof org.apache.calcite.rex.RexInputRef)) {
      RexNode extracted = DuckDbFunctions.field(rex, field);
      return extracted != null ? extracted : visited;
    }
    return visited;
  }

  @Override
  public RexNode visitCall(RexCall call) {
    if (call.getOperator() instanceof DynColFunction) {
      // The operands' kinds are read off the call as planned, before its operands are rewritten.
      List<RexNode> operands = visitList(call.operands, new boolean[] {false});
      return DuckDbDynCol.rewrite(rex, call, operands);
    }
    if (call.getKind() == SqlKind.CAST
        && call.getType().getSqlTypeName() == SqlTypeName.DECIMAL
        && call.operands.get(0) instanceof RexCall divide
        && divide.getOperator() == SqlStdOperatorTable.DIVIDE
        && divide.getType().getSqlTypeName() == SqlTypeName.DECIMAL) {
      // AVG of a DECIMAL, reduced to CAST(SUM / COUNT AS t): divided at t's scale at once, as
      // Flink's average rounds once.
      List<RexNode> operands = visitList(divide.operands, new boolean[] {false});
      RexNode divided =
          DuckDbFunctions.decimalDivide(rex, call.getType(), operands.get(0), operands.get(1));
      if (divided != null) {
        return divided;
      }
    }
    RexNode fieldwise = rowCast(call);
    if (fieldwise != null) {
      return fieldwise.accept(this);
    }
    RexCall visited = (RexCall) super.visitCall(call);
    if (visited.getOperator() instanceof io.calcitebridge.functions.JavaFunction) {
      // A Java function: an Arrow function on DuckDB's connection calls it in this JVM a batch
      // at a time (_duckdb.py, io.calcitebridge.udf.JavaUdf).
      return DuckDbPython.rewriteJava(rex, visited, visited.operands, "duckdb");
    }
    if (visited.getOperator() instanceof io.calcitebridge.functions.UserFunction) {
      return DuckDbPython.rewrite(rex, visited, visited.operands);
    }
    RexNode flink = DuckDbFunctions.rewrite(rex, visited);
    if (flink != null) {
      return flink;
    }
    RexNode compared = NanComparisons.rewrite(rex, visited, this);
    if (compared != visited) {
      return compared;
    }
    if (io.calcitebridge.flink.NanRanks.isIsNan(visited.getOperator())) {
      return rex.makeCall(visited.getType(), NanComparisons.ISNAN, visited.operands);
    }
    if (Convertlets.isCharLength(visited.getOperator())) {
      return rex.makeCall(visited.getType(), SqlStdOperatorTable.CHAR_LENGTH, visited.operands);
    }
    SqlFunction duck = DuckDbOperators.FLINK.get(visited.getOperator());
    if (duck != null) {
      return rex.makeCall(visited.getType(), duck, visited.operands);
    }
    if (visited.getOperator() == SqlStdOperatorTable.UPPER) {
      return rex.makeCall(visited.getType(), DuckDbOperators.UPPER, visited.operands);
    }
    if (visited.getOperator() == SqlStdOperatorTable.LOWER) {
      return rex.makeCall(visited.getType(), DuckDbOperators.LOWER, visited.operands);
    }
    if (visited.getKind() == SqlKind.TIMES
        && visited.getType().getSqlTypeName() == SqlTypeName.DECIMAL
        && visited.getType().getPrecision() > 18) {
      List<RexNode> wide = new java.util.ArrayList<>();
      for (RexNode operand : visited.operands) {
        org.apache.calcite.rel.type.RelDataType t = operand.getType();
        org.apache.calcite.rel.type.RelDataType to =
            rex.getTypeFactory()
                .createTypeWithNullability(
                    rex.getTypeFactory()
                        .createSqlType(SqlTypeName.DECIMAL, 38, Math.max(t.getScale(), 0)),
                    t.isNullable());
        wide.add(
            t.getSqlTypeName() == SqlTypeName.DECIMAL || isInteger(operand)
                ? rex.makeCast(to, operand, true, false)
                : operand);
      }
      return visited.clone(visited.getType(), wide);
    }
    if (visited.getKind() == SqlKind.DIVIDE
        && isInteger(visited.operands.get(0))
        && isInteger(visited.operands.get(1))) {
      return rex.makeCall(visited.getType(), DuckDbOperators.INT_DIVIDE, visited.operands);
    }
    if (visited.getKind() == SqlKind.ITEM
        && visited.operands.get(0).getType().getSqlTypeName() == SqlTypeName.ARRAY) {
      RexNode index = visited.operands.get(1);
      if (index instanceof RexLiteral literal) {
        BigDecimal value = literal.getValueAs(BigDecimal.class);
        if (value != null && value.signum() <= 0) {
          return rex.makeNullLiteral(visited.getType());
        }
        return visited;
      }
      RexNode positive =
          rex.makeCall(
              SqlStdOperatorTable.GREATER_THAN_OR_EQUAL,
              index,
              rex.makeExactLiteral(BigDecimal.ONE, index.getType()));
      return rex.makeCall(
          visited.getType(),
          SqlStdOperatorTable.CASE,
          List.of(positive, visited, rex.makeNullLiteral(visited.getType())));
    }
    return visited;
  }

  /**
   * A cast of a ROW to a ROW type ({@code CAST(r AS ROW<aB INT, Cd STRING>)}) as Flink casts it,
   * field by field by position, the fields named as the type names them: a ROW of each field cast
   * to its new type (each cast then written as any other), NULL for a NULL row. Null when {@code
   * call} is no such cast.
   */
  private @Nullable RexNode rowCast(RexCall call) {
    if (call.getKind() != SqlKind.CAST) {
      return null;
    }
    RexNode value = call.operands.get(0);
    RelDataType to = call.getType();
    RelDataType from = value.getType();
    if (!to.isStruct()
        || !from.isStruct()
        || to.getFieldCount() != from.getFieldCount()
        || to.getFieldCount() == 0) {
      return null;
    }
    List<RexNode> fields = new java.util.ArrayList<>();
    for (int i = 0; i < to.getFieldCount(); i++) {
      RexNode field =
          value.getKind() == SqlKind.ROW
              ? ((RexCall) value).operands.get(i)
              : rex.makeFieldAccess(value, i);
      RelDataType type = to.getFieldList().get(i).getType();
      fields.add(field.getType().equals(type) ? field : rex.makeCast(type, field, true, false));
    }
    RexNode row = rex.makeCall(to, SqlStdOperatorTable.ROW, fields);
    if (value.getKind() == SqlKind.ROW || !from.isNullable()) {
      return row;
    }
    return rex.makeCall(
        to,
        SqlStdOperatorTable.CASE,
        List.of(rex.makeCall(SqlStdOperatorTable.IS_NULL, value), rex.makeNullLiteral(to), row));
  }

  private static boolean isInteger(RexNode node) {
    return SqlTypeFamily.INTEGER.contains(node.getType());
  }
}

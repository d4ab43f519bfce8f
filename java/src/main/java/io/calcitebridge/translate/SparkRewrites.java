package io.calcitebridge.translate;

import io.calcitebridge.dyncol.DynColOperators;
import io.calcitebridge.flink.Convertlets;
import io.calcitebridge.functions.NumberFunctions;
import io.calcitebridge.functions.TemporalFunctions;
import java.math.BigDecimal;
import java.util.List;
import org.apache.calcite.avatica.util.TimeUnitRange;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;

/**
 * Rewrites a plan's expressions where Spark SQL spells our semantics differently:
 *
 * <ul>
 *   <li>{@code a / b} over integers truncates in Calcite; Spark's {@code /} divides as DOUBLE, so
 *       it becomes {@code CAST(a div b AS <type>)} ({@link SparkOperators#DIV}).
 *   <li>A DOUBLE or FLOAT division by anything but a non-zero literal is refused: Spark's fails on
 *       a zero divisor, where IEEE 754 (and Flink) give Infinity or NaN.
 *   <li>{@code a[i]} over an ARRAY is 1-based and NULL out of range in Calcite; Spark's {@code []}
 *       is 0-based and fails out of range, so it becomes {@code try_element_at(a, i)}, guarded with
 *       {@code CASE WHEN i >= 1} (a literal index below 1 becomes NULL).
 *   <li>A field of a computed ROW ({@code items[1].x}) or of a column becomes {@link
 *       SparkOperators#FIELD}, {@code (t).x}: Spark reads {@code t.x} as the column x of a relation
 *       t first, and the converter names its relations t, t0, scan_0, ... as a user may name a ROW
 *       column.
 *   <li>A ROW constructor becomes {@code named_struct} ({@link SparkOperators#NAMED_STRUCT}).
 *   <li>{@code FLOOR(ts TO unit)} of a TIMESTAMP becomes {@link SparkOperators#FLOOR_NTZ}.
 *   <li>A cast of a DECIMAL to a smaller scale truncates in Calcite and rounds in Spark: the digits
 *       past the scale are taken off first, {@code CAST(x - MOD(x, 10^-s) AS DECIMAL(p, s))}.
 *   <li>The dynamic-columns functions become calls of the Java UDFs the backend registers ({@link
 *       SparkDynCol}).
 *   <li>Our code-point {@code CHAR_LENGTH} ({@link Convertlets#CHAR_LENGTH}) is the standard one:
 *       Spark's also counts code points.
 *   <li>Comparisons of DOUBLE and FLOAT values that may be NaN, which Spark orders above every
 *       number and takes as equal to itself, compare as Java does ({@link NanComparisons}).
 * </ul>
 */
final class SparkRewrites extends RexShuttle {
  private final RexBuilder rex;

  private SparkRewrites(RexBuilder rex) {
    this.rex = rex;
  }

  static RelNode rewrite(RelNode plan) {
    SparkRewrites rexes = new SparkRewrites(plan.getCluster().getRexBuilder());
    return plan.accept(
        new RelHomogeneousShuttle() {
          @Override
          protected RelNode visitChildren(RelNode rel) {
            return super.visitChildren(rel).accept(rexes);
          }
        });
  }

  @Override
  public RexNode visitFieldAccess(RexFieldAccess access) {
    RexNode ref = access.getReferenceExpr().accept(this);
    if (ref instanceof RexCall || ref instanceof org.apache.calcite.rex.RexInputRef) {
      return rex.makeCall(
          access.getType(),
          SparkOperators.FIELD,
          List.of(ref, rex.makeLiteral(access.getField().getName())));
    }
    return ref == access.getReferenceExpr()
        ? access
        : rex.makeFieldAccess(ref, access.getField().getIndex());
  }

  @Override
  public RexNode visitCall(RexCall call) {
    RexCall visited = (RexCall) super.visitCall(call);
    RexNode compared = NanComparisons.rewrite(rex, visited, this);
    if (compared != visited) {
      return compared;
    }
    if (visited.getOperator() instanceof DynColOperators.DynColFunction) {
      return SparkDynCol.rewrite(rex, call, visited);
    }
    if (visited.getOperator() instanceof io.calcitebridge.functions.JavaFunction) {
      // A Java function: our generic Java UDF calls its class on the executors (_spark.py).
      return DuckDbPython.rewriteJava(rex, visited, visited.operands, "spark");
    }
    if (visited.getOperator() instanceof io.calcitebridge.functions.JavaAggregate) {
      // A Java aggregate function over its group's rows: run on the executors (_spark.py).
      return DuckDbPython.rewriteJavaAggregate(rex, visited, "spark");
    }
    if (visited.getOperator() instanceof io.calcitebridge.functions.UserFunction) {
      // A Python function: a Spark UDF the backend registers under the name (_spark.py).
      return DuckDbPython.rewrite(rex, visited, visited.operands, "spark");
    }
    if (io.calcitebridge.flink.NanRanks.isIsNan(visited.getOperator())) {
      return rex.makeCall(visited.getType(), NanComparisons.ISNAN, visited.operands);
    }
    if (Convertlets.isCharLength(visited.getOperator())) {
      return rex.makeCall(visited.getType(), SqlStdOperatorTable.CHAR_LENGTH, visited.operands);
    }
    if (visited.getKind() == SqlKind.ROW) {
      List<RexNode> operands = new java.util.ArrayList<>();
      List<org.apache.calcite.rel.type.RelDataTypeField> fields = visited.getType().getFieldList();
      for (int i = 0; i < fields.size(); i++) {
        operands.add(rex.makeLiteral(fields.get(i).getName()));
        operands.add(visited.operands.get(i));
      }
      return rex.makeCall(visited.getType(), SparkOperators.NAMED_STRUCT, operands);
    }
    if (visited.getKind() == SqlKind.DIVIDE
        && SqlTypeUtil.isApproximateNumeric(visited.getType())
        && !(visited.operands.get(1) instanceof RexLiteral divisor
            && divisor.getValueAs(Double.class) != null
            && divisor.getValueAs(Double.class) != 0.0)) {
      // Spark's ANSI division fails on a zero divisor; a DOUBLE divided by zero is Infinity or NaN
      // here, as in IEEE 754 and Flink (a constant division by zero fails while planning).
      throw new Refusal(
          SparkTranslator.BACKEND, "a DOUBLE or FLOAT division by a value that may be zero");
    }
    if (visited.getKind() == SqlKind.DIVIDE
        && isInteger(visited.operands.get(0))
        && isInteger(visited.operands.get(1))) {
      RexNode div = rex.makeCall(SparkOperators.DIV, visited.operands);
      return rex.makeAbstractCast(visited.getType(), div, false);
    }
    if (visited.getKind() == SqlKind.ITEM
        && visited.operands.get(0).getType().getSqlTypeName() == SqlTypeName.ARRAY) {
      RexNode array = visited.operands.get(0);
      RexNode index = visited.operands.get(1);
      if (index instanceof RexLiteral literal) {
        BigDecimal value = literal.getValueAs(BigDecimal.class);
        if (value == null || value.signum() <= 0) {
          return rex.makeNullLiteral(visited.getType());
        }
        return rex.makeCall(
            visited.getType(), SparkOperators.TRY_ELEMENT_AT, List.of(array, index));
      }
      RexNode element =
          rex.makeCall(visited.getType(), SparkOperators.TRY_ELEMENT_AT, List.of(array, index));
      RexNode positive =
          rex.makeCall(
              SqlStdOperatorTable.GREATER_THAN_OR_EQUAL,
              index,
              rex.makeExactLiteral(BigDecimal.ONE, index.getType()));
      return rex.makeCall(
          visited.getType(),
          SqlStdOperatorTable.CASE,
          List.of(positive, element, rex.makeNullLiteral(visited.getType())));
    }
    if (visited.getKind() == SqlKind.FLOOR
        && visited.operands.size() == 2
        && visited.operands.get(0).getType().getSqlTypeName() == SqlTypeName.TIMESTAMP
        && visited.operands.get(1) instanceof RexLiteral unit) {
      TimeUnitRange range = unit.getValueAs(TimeUnitRange.class);
      if (range != null && TRUNCATABLE.contains(range)) {
        return rex.makeCall(
            visited.getType(),
            SparkOperators.FLOOR_NTZ,
            List.of(visited.operands.get(0), rex.makeLiteral(range.name())));
      }
    }
    if (visited.getOperator() == TemporalFunctions.TIMESTAMP_TO_LTZ
        || visited.getOperator() == TemporalFunctions.LTZ_TO_TIMESTAMP) {
      // The reference's casts between TIMESTAMP and TIMESTAMP_LTZ read the wall-clock time in the
      // session zone, as Spark's casts do in its session zone (set from table.local-time-zone).
      return rex.makeAbstractCast(visited.getType(), visited.operands.get(0), false);
    }
    if (visited.getOperator() == NumberFunctions.ROUND_HALF_UP
        && visited.operands.get(0).getType().getSqlTypeName() == SqlTypeName.DECIMAL
        && visited.operands.get(1) instanceof RexLiteral) {
      return rex.makeCall(visited.getType(), SparkOperators.ROUND, visited.operands);
    }
    if (visited.getKind() == SqlKind.CAST) {
      RexNode operand = visited.operands.get(0);
      RelDataType from = operand.getType();
      RelDataType to = visited.getType();
      if (from.getSqlTypeName() == SqlTypeName.DECIMAL
          && to.getSqlTypeName() == SqlTypeName.DECIMAL
          && from.getScale() > to.getScale()) {
        RexNode unit = rex.makeExactLiteral(BigDecimal.ONE.scaleByPowerOfTen(-to.getScale()));
        RexNode truncated =
            rex.makeCall(
                SqlStdOperatorTable.MINUS,
                operand,
                rex.makeCall(SqlStdOperatorTable.MOD, operand, unit));
        return rex.makeAbstractCast(to, truncated, false);
      }
    }
    return visited;
  }

  /** Units whose {@code date_trunc} is the reference's FLOOR of a TIMESTAMP. */
  static final java.util.Set<TimeUnitRange> TRUNCATABLE =
      java.util.EnumSet.of(
          TimeUnitRange.YEAR,
          TimeUnitRange.QUARTER,
          TimeUnitRange.MONTH,
          TimeUnitRange.DAY,
          TimeUnitRange.HOUR,
          TimeUnitRange.MINUTE,
          TimeUnitRange.SECOND);

  private static boolean isInteger(RexNode node) {
    return SqlTypeFamily.INTEGER.contains(node.getType());
  }
}

package io.calcitebridge.flink;

import io.calcitebridge.functions.NumberFunctions;
import io.calcitebridge.functions.StringFunctions;
import io.calcitebridge.functions.TemporalFunctions;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.avatica.util.TimeUnit;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlUtil;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql2rel.SqlRexContext;
import org.apache.calcite.sql2rel.SqlRexConvertlet;
import org.apache.calcite.sql2rel.StandardConvertletTable;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Conversions that give Flink's answers where Calcite's differ (see {@link NumberFunctions}):
 *
 * <ul>
 *   <li>{@code CAST(x AS DECIMAL(p, s))} of a DECIMAL of larger scale rounds half up ({@code
 *       CAST(1.5 AS DECIMAL(1, 0))} is 2); Calcite's cast truncates.
 *   <li>{@code CAST(s AS INT)} (any integer type) of a string drops a fraction: {@code '1.5'} is 1.
 *   <li>{@code CAST(b AS STRING)} of BYTES decodes UTF-8 ({@code X'41'} is {@code A}); Calcite's
 *       gives the hexadecimal digits.
 *   <li>{@code CAST(d AS STRING)} of a DOUBLE or FLOAT is Java's text of it ({@code 0.0});
 *       Calcite's writes zero as {@code 0E0}.
 *   <li>{@code CAST(d AS STRING)} of a DECIMAL keeps the zero before the point ({@code 0.500});
 *       Calcite's writes {@code .500}.
 *   <li>{@code ROUND} and {@code TRUNCATE} of a DECIMAL to a literal scale give the value at the
 *       validated scale ({@code ROUND(1.2345, 2)} is {@code 1.23}, {@code DECIMAL(4, 2)}).
 *   <li>{@code x / y} of DECIMALs keeps 34 digits, rounded half up to the result's scale.
 *   <li>{@code SUBSTRING} of a string is Flink's {@code SUBSTR}.
 *   <li>{@code OVERLAY} of strings is Flink's ({@link StringFunctions#OVERLAY}).
 *   <li>{@code EXTRACT(MILLISECOND ...)} is the milliseconds within the second (345 for {@code
 *       10:11:12.345}); Calcite's counts the seconds too (12345). {@code MICROSECOND} and {@code
 *       NANOSECOND} likewise.
 *   <li>{@code TIMESTAMPDIFF(MONTH|QUARTER|YEAR, ...)} of DATEs, TIMESTAMPs and TIMESTAMP_LTZs
 *       (their wall-clock times in the session zone) counts a month from the 31st of January to the
 *       28th of February, as Flink does; Calcite's gave 0, and failed on a TIMESTAMP_LTZ.
 *   <li>{@code TIMESTAMPDIFF} of a DATE and a TIMESTAMP in weeks down to seconds counts from the
 *       DATE's midnight; Calcite's subtracted days from milliseconds.
 * </ul>
 */
final class FlinkNumbers {
  private FlinkNumbers() {}

  /** The convertlet for {@code call}, or null where Calcite's is Flink's. */
  static @Nullable SqlRexConvertlet convertlet(SqlCall call) {
    if (call.getOperator() == NumberFunctions.SUBSTRING) {
      return FlinkNumbers::substring;
    }
    if (call.getOperator() == NumberFunctions.ROUND
        || call.getOperator() == NumberFunctions.TRUNCATE) {
      return FlinkNumbers::round;
    }
    if (call.getKind() == SqlKind.EXTRACT
        && call.operand(0) instanceof SqlIntervalQualifier q
        && withinSecond(q.getStartUnit()) > 0) {
      return FlinkNumbers::extractWithinSecond;
    }
    if (call.getKind() == SqlKind.DIVIDE && call.operandCount() == 2) {
      return FlinkNumbers::divide;
    }
    if (call.getKind() == SqlKind.TIMESTAMP_DIFF) {
      return FlinkNumbers::timestampDiff;
    }
    if (call.getOperator() == SqlStdOperatorTable.OVERLAY) {
      return FlinkNumbers::overlay;
    }
    return null;
  }

  private static RexNode standard(SqlRexContext cx, SqlCall c) {
    return StandardConvertletTable.INSTANCE.convertCall(cx, c);
  }

  private static List<RexNode> operands(SqlRexContext cx, SqlCall c) {
    List<RexNode> out = new ArrayList<>();
    for (SqlNode operand : c.getOperandList()) {
      out.add(cx.convertExpression(operand));
    }
    return out;
  }

  private static RexNode substring(SqlRexContext cx, SqlCall c) {
    RelDataType type = cx.getValidator().getValidatedNodeType(c);
    List<RexNode> ops = operands(cx, c);
    RexBuilder rex = cx.getRexBuilder();
    if (!SqlTypeUtil.inCharFamily(ops.get(0).getType())) {
      return rex.makeCall(type, SqlStdOperatorTable.SUBSTRING, ops);
    }
    RelDataTypeFactory f = rex.getTypeFactory();
    List<RexNode> args = new ArrayList<>();
    args.add(ops.get(0));
    for (RexNode n : ops.subList(1, ops.size())) {
      RelDataType t = n.getType();
      args.add(
          t.getSqlTypeName() == SqlTypeName.INTEGER
              ? n
              : rex.makeCast(
                  f.createTypeWithNullability(f.createSqlType(SqlTypeName.INTEGER), t.isNullable()),
                  n));
    }
    return rex.makeCall(type, StringFunctions.SUBSTR, args);
  }

  /** {@code OVERLAY} of strings as Flink computes it ({@link StringFunctions#OVERLAY}). */
  private static RexNode overlay(SqlRexContext cx, SqlCall c) {
    RelDataType type = cx.getValidator().getValidatedNodeType(c);
    List<RexNode> ops = operands(cx, c);
    RexBuilder rex = cx.getRexBuilder();
    if (!SqlTypeUtil.inCharFamily(ops.get(0).getType())
        || !SqlTypeUtil.inCharFamily(ops.get(1).getType())) {
      return rex.makeCall(type, SqlStdOperatorTable.OVERLAY, ops);
    }
    RelDataTypeFactory f = rex.getTypeFactory();
    List<RexNode> args = new ArrayList<>(ops.subList(0, 3));
    if (ops.size() == 3) {
      args.add(rex.makeCall(SqlStdOperatorTable.CHAR_LENGTH, ops.get(1)));
    } else {
      args.add(ops.get(3));
    }
    for (int i = 2; i < 4; i++) {
      RelDataType t = args.get(i).getType();
      if (t.getSqlTypeName() != SqlTypeName.INTEGER) {
        args.set(
            i,
            rex.makeCast(
                f.createTypeWithNullability(f.createSqlType(SqlTypeName.INTEGER), t.isNullable()),
                args.get(i)));
      }
    }
    return rex.makeCall(type, StringFunctions.OVERLAY, args);
  }

  private static RexNode round(SqlRexContext cx, SqlCall c) {
    RelDataType type = cx.getValidator().getValidatedNodeType(c);
    List<RexNode> ops = operands(cx, c);
    RexBuilder rex = cx.getRexBuilder();
    boolean truncate = c.getOperator() == NumberFunctions.TRUNCATE;
    RexNode x = ops.get(0);
    if (x.getType().getSqlTypeName() == SqlTypeName.DECIMAL
        && type.getSqlTypeName() == SqlTypeName.DECIMAL
        && (ops.size() == 1 || ops.get(1) instanceof RexLiteral)) {
      RexNode r = ops.size() == 1 ? rex.makeExactLiteral(BigDecimal.ZERO) : ops.get(1);
      return rex.makeCall(
          type,
          truncate ? NumberFunctions.ROUND_DOWN : NumberFunctions.ROUND_HALF_UP,
          List.of(x, r));
    }
    return rex.makeCall(
        type, truncate ? SqlStdOperatorTable.TRUNCATE : SqlStdOperatorTable.ROUND, ops);
  }

  /** A cast that Flink computes otherwise than Calcite, converted; else null. */
  static @Nullable RexNode cast(SqlRexContext cx, SqlCall c) {
    if (c.operandCount() != 2) {
      return null;
    }
    SqlNode operand = c.operand(0);
    // A cast that implicit coercion added may have no validated type, nor its operand.
    RelDataType target = cx.getValidator().getValidatedNodeTypeIfKnown(c);
    RelDataType source = cx.getValidator().getValidatedNodeTypeIfKnown(operand);
    if (target == null || source == null) {
      return null;
    }
    RexBuilder rex = cx.getRexBuilder();
    RelDataTypeFactory f = rex.getTypeFactory();
    if (source.getSqlTypeName() == SqlTypeName.DECIMAL
        && target.getSqlTypeName() == SqlTypeName.DECIMAL
        && target.getScale() < source.getScale()) {
      RexNode x = cx.convertExpression(operand);
      int scale = target.getScale();
      int precision =
          Math.min(
              f.getTypeSystem().getMaxPrecision(SqlTypeName.DECIMAL),
              source.getPrecision() - source.getScale() + scale + 1);
      RelDataType rounded =
          f.createTypeWithNullability(
              f.createSqlType(SqlTypeName.DECIMAL, precision, scale), x.getType().isNullable());
      RexNode round =
          rex.makeCall(
              rounded,
              NumberFunctions.ROUND_HALF_UP,
              List.of(x, rex.makeExactLiteral(BigDecimal.valueOf(scale))));
      return rex.makeCast(target, round);
    }
    RexNode decimal = toDecimal(rex, source, target, operand, cx, false);
    if (decimal != null) {
      return decimal;
    }
    if (SqlTypeUtil.inCharFamily(source)
        && SqlTypeFamily.INTEGER.contains(target)
        && target.getSqlTypeName() != SqlTypeName.NULL) {
      RexNode x = cx.convertExpression(operand);
      RelDataType bigint =
          f.createTypeWithNullability(
              f.createSqlType(SqlTypeName.BIGINT), x.getType().isNullable());
      return rex.makeCast(target, rex.makeCall(bigint, NumberFunctions.PARSE_INTEGER, List.of(x)));
    }
    if (source.getSqlTypeName() == SqlTypeName.TIMESTAMP
        && source.getPrecision() > 0
        && SqlTypeUtil.inCharFamily(target)) {
      RexNode x = cx.convertExpression(operand);
      return rex.makeCast(target, timestampText(rex, x));
    }
    if (SqlTypeUtil.isApproximateNumeric(source) && SqlTypeUtil.inCharFamily(target)) {
      RexNode x = cx.convertExpression(operand);
      RelDataType string =
          f.createTypeWithNullability(
              f.createSqlType(SqlTypeName.VARCHAR, Integer.MAX_VALUE), x.getType().isNullable());
      boolean isFloat = source.getSqlTypeName() == SqlTypeName.REAL;
      return rex.makeCast(
          target,
          rex.makeCall(
              string,
              isFloat ? NumberFunctions.FLOAT_TEXT : NumberFunctions.DOUBLE_TEXT,
              List.of(x)));
    }
    if (source.getSqlTypeName() == SqlTypeName.DECIMAL && SqlTypeUtil.inCharFamily(target)) {
      RexNode x = cx.convertExpression(operand);
      RelDataType string =
          f.createTypeWithNullability(
              f.createSqlType(SqlTypeName.VARCHAR, Integer.MAX_VALUE), x.getType().isNullable());
      return rex.makeCast(target, rex.makeCall(string, NumberFunctions.DECIMAL_TEXT, List.of(x)));
    }
    if (SqlTypeFamily.BINARY.contains(source) && SqlTypeUtil.inCharFamily(target)) {
      RexNode x = cx.convertExpression(operand);
      RelDataType string =
          f.createTypeWithNullability(
              f.createSqlType(SqlTypeName.VARCHAR, Integer.MAX_VALUE), x.getType().isNullable());
      return rex.makeCast(target, rex.makeCall(string, NumberFunctions.DECODE_UTF8, List.of(x)));
    }
    return null;
  }

  /**
   * A cast of a string, a DOUBLE or a FLOAT to a DECIMAL as Flink computes it ({@link
   * NumberFunctions#PARSE_DECIMAL}, {@link NumberFunctions#DOUBLE_TO_DECIMAL}: rounded half up),
   * or, when {@code safe}, as TRY_CAST does (NULL where it fails); null for another cast.
   */
  static @Nullable RexNode toDecimal(
      RexBuilder rex,
      RelDataType source,
      RelDataType target,
      SqlNode operand,
      SqlRexContext cx,
      boolean safe) {
    if (target.getSqlTypeName() != SqlTypeName.DECIMAL) {
      return null;
    }
    SqlOperator op;
    if (SqlTypeUtil.inCharFamily(source)) {
      op = safe ? NumberFunctions.TRY_PARSE_DECIMAL : NumberFunctions.PARSE_DECIMAL;
    } else if (SqlTypeUtil.isApproximateNumeric(source)) {
      op = safe ? NumberFunctions.TRY_DOUBLE_TO_DECIMAL : NumberFunctions.DOUBLE_TO_DECIMAL;
    } else {
      return null;
    }
    RexNode x = cx.convertExpression(operand);
    return rex.makeCall(
        rex.getTypeFactory().createTypeWithNullability(target, safe || x.getType().isNullable()),
        op,
        List.of(
            x,
            rex.makeExactLiteral(BigDecimal.valueOf(target.getPrecision())),
            rex.makeExactLiteral(BigDecimal.valueOf(target.getScale()))));
  }

  /** The text of a TIMESTAMP(p) with p digits of fraction, as Flink writes it. */
  static RexNode timestampText(RexBuilder rex, RexNode x) {
    return io.calcitebridge.functions.RowText.text(rex, x);
  }

  /** A division of DECIMALs at the result's scale ({@link NumberFunctions#DECIMAL_DIVIDE}). */
  private static RexNode divide(SqlRexContext cx, SqlCall c) {
    RelDataType type = cx.getValidator().getValidatedNodeTypeIfKnown(c);
    if (type != null
        && type.isNullable()
        && c.getOperandList().stream().anyMatch(o -> SqlUtil.isNullLiteral(o, true))) {
      // A division by or of NULL is NULL. Kept as a call, Calcite's monotonicity of a product
      // over it (SqlMonotonicBinaryOperator, 1.42) read it as a literal and failed ("not a
      // literal: /(88, null)") in SELECT 88 / CAST(NULL AS INTEGER) * 96.
      return cx.getRexBuilder().makeNullLiteral(type);
    }
    if (type == null || type.getSqlTypeName() != SqlTypeName.DECIMAL) {
      return standard(cx, c);
    }
    RexBuilder rex = cx.getRexBuilder();
    List<RexNode> ops = new ArrayList<>(operands(cx, c));
    ops.add(rex.makeExactLiteral(BigDecimal.valueOf(type.getScale())));
    return rex.makeCall(c.getParserPosition(), type, NumberFunctions.DECIMAL_DIVIDE, ops);
  }

  /** The units of a second counted by EXTRACT of {@code unit} within the second, or 0. */
  private static long withinSecond(TimeUnit unit) {
    return switch (unit) {
      case MILLISECOND -> 1_000L;
      case MICROSECOND -> 1_000_000L;
      case NANOSECOND -> 1_000_000_000L;
      default -> 0L;
    };
  }

  private static RexNode extractWithinSecond(SqlRexContext cx, SqlCall c) {
    RelDataType type = cx.getValidator().getValidatedNodeType(c);
    RexBuilder rex = cx.getRexBuilder();
    long per = withinSecond(((SqlIntervalQualifier) c.operand(0)).getStartUnit());
    return rex.makeCall(
        type,
        SqlStdOperatorTable.MOD,
        List.of(standard(cx, c), rex.makeExactLiteral(BigDecimal.valueOf(per))));
  }

  /** The unit of a TIMESTAMPDIFF call. */
  private static @Nullable TimeUnit unit(SqlCall call) {
    SqlNode unit = call.operand(0);
    if (unit instanceof SqlIntervalQualifier q) {
      return q.getStartUnit();
    }
    if (unit instanceof SqlLiteral l && l.getValue() instanceof TimeUnit t) {
      return t;
    }
    return null;
  }

  /** Milliseconds per unit of a TIMESTAMPDIFF counted in time (a week down to a second), or 0. */
  private static long millisPer(@Nullable TimeUnit unit) {
    if (unit == null) {
      return 0;
    }
    return switch (unit) {
      case WEEK -> 604_800_000L;
      case DAY -> 86_400_000L;
      case HOUR -> 3_600_000L;
      case MINUTE -> 60_000L;
      case SECOND -> 1_000L;
      default -> 0L;
    };
  }

  /** Months per unit of a TIMESTAMPDIFF counted in months (1, 3, 12), or 0. */
  private static int months(SqlCall call) {
    TimeUnit u = unit(call);
    if (u == null) {
      return 0;
    }
    return switch (u) {
      case MONTH -> 1;
      case QUARTER -> 3;
      case YEAR -> 12;
      default -> 0;
    };
  }

  private static RexNode timestampDiff(SqlRexContext cx, SqlCall c) {
    RelDataType type = cx.getValidator().getValidatedNodeType(c);
    RexBuilder rex = cx.getRexBuilder();
    RelDataTypeFactory f = rex.getTypeFactory();
    int per = months(c);
    long millisPer = millisPer(unit(c));
    SqlTypeName n1 = cx.getValidator().getValidatedNodeType(c.operand(1)).getSqlTypeName();
    SqlTypeName n2 = cx.getValidator().getValidatedNodeType(c.operand(2)).getSqlTypeName();
    // Two DATEs too: Calcite's count went through an INTEGER of seconds, which overflows past 68
    // years (and Flink's wraps around there).
    boolean mixed =
        (n1 != n2 || n1 == SqlTypeName.DATE) && millisPer > 0 && instant(n1) && instant(n2);
    if (!(per > 0 && (instant(n1) || ltz(n1)) && (instant(n2) || ltz(n2))) && !mixed) {
      SqlRexConvertlet std = StandardConvertletTable.INSTANCE.get(c);
      return std == null ? standard(cx, c) : std.convertCall(cx, c);
    }
    RexNode t1 = wallClock(rex, cx.convertExpression(c.operand(1)));
    RexNode t2 = wallClock(rex, cx.convertExpression(c.operand(2)));
    if (mixed) {
      // A DATE and a TIMESTAMP (or two DATEs): both as milliseconds; Calcite's subtraction mixed
      // days and them.
      RelDataType bigint = f.createSqlType(SqlTypeName.BIGINT);
      RexNode m1 =
          rex.makeReinterpretCast(
              nullableAs(f, bigint, t1), millis(rex, f, t1), rex.makeLiteral(false));
      RexNode m2 =
          rex.makeReinterpretCast(
              nullableAs(f, bigint, t2), millis(rex, f, t2), rex.makeLiteral(false));
      RexNode diff = rex.makeCall(SqlStdOperatorTable.MINUS, m2, m1);
      RexNode units =
          rex.makeCall(
              SqlStdOperatorTable.DIVIDE,
              diff,
              rex.makeExactLiteral(BigDecimal.valueOf(millisPer)));
      return rex.makeCast(type, units);
    }
    RexNode months =
        rex.makeCall(
            type, NumberFunctions.MONTHS_BETWEEN, List.of(millis(rex, f, t1), millis(rex, f, t2)));
    if (per == 1) {
      return months;
    }
    return rex.makeCall(
        type,
        SqlStdOperatorTable.DIVIDE,
        List.of(months, rex.makeExactLiteral(BigDecimal.valueOf(per))));
  }

  private static boolean instant(SqlTypeName t) {
    return t == SqlTypeName.DATE || t == SqlTypeName.TIMESTAMP;
  }

  private static boolean ltz(SqlTypeName t) {
    return t == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
  }

  private static RelDataType nullableAs(RelDataTypeFactory f, RelDataType type, RexNode e) {
    return f.createTypeWithNullability(type, e.getType().isNullable());
  }

  /**
   * A TIMESTAMP_LTZ as its wall-clock time in the session zone, where Flink counts months ({@link
   * TemporalFunctions#LTZ_TO_TIMESTAMP}); any other value as it is.
   */
  private static RexNode wallClock(RexBuilder rex, RexNode e) {
    if (!ltz(e.getType().getSqlTypeName())) {
      return e;
    }
    RelDataTypeFactory f = rex.getTypeFactory();
    return rex.makeCall(
        nullableAs(f, f.createSqlType(SqlTypeName.TIMESTAMP, 3), e),
        TemporalFunctions.LTZ_TO_TIMESTAMP,
        List.of(e));
  }

  /** A DATE or TIMESTAMP as a TIMESTAMP(3), whose value in generated code is its milliseconds. */
  private static RexNode millis(RexBuilder rex, RelDataTypeFactory f, RexNode t) {
    if (t.getType().getSqlTypeName() == SqlTypeName.TIMESTAMP) {
      return t;
    }
    return rex.makeCast(
        f.createTypeWithNullability(
            f.createSqlType(SqlTypeName.TIMESTAMP, 3), t.getType().isNullable()),
        t);
  }
}

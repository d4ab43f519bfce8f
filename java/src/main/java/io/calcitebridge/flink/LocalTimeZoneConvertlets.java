package io.calcitebridge.flink;

import io.calcitebridge.functions.TemporalFunctions;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlUtil;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql2rel.SqlRexContext;
import org.apache.calcite.sql2rel.SqlRexConvertlet;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * {@code TIMESTAMP_LTZ} as Flink has it: what reads or writes the wall-clock time of an instant
 * does so in the session's {@code table.local-time-zone}. Calcite's Enumerable engine converts an
 * instant to its wall-clock time in that zone for a {@code CAST} to {@code TIMESTAMP} or {@code
 * DATE} and for {@code EXTRACT} of a date field, but not for {@code EXTRACT(HOUR ...)}, {@code
 * FLOOR}/{@code CEIL} (whose result it leaves a wall-clock time) or a {@code CAST} to or from a
 * string (which it writes with the zone's name and reads only with one). So these calls go through
 * {@code TIMESTAMP}, the wall-clock time in the session zone:
 *
 * <ul>
 *   <li>{@code EXTRACT(unit FROM l)} is {@code EXTRACT(unit FROM CAST(l AS TIMESTAMP(p)))};
 *   <li>{@code FLOOR(l TO unit)} is {@code CAST(FLOOR(CAST(l AS TIMESTAMP(p)) TO unit) AS
 *       TIMESTAMP_LTZ(p))}, and {@code CEIL} likewise;
 *   <li>{@code CAST(l AS STRING)} is {@code CAST(CAST(l AS TIMESTAMP(p)) AS STRING)}, {@code
 *       2023-11-14 22:13:20.000} for a {@code TIMESTAMP_LTZ(3)};
 *   <li>{@code CAST(s AS TIMESTAMP_LTZ(p))} of a string is {@code CAST(CAST(s AS TIMESTAMP(p)) AS
 *       TIMESTAMP_LTZ(p))};
 *   <li>the operands of {@link TemporalFunctions#LOCALIZED} functions ({@code DATE_FORMAT}).
 * </ul>
 *
 * <p>And Flink's {@code CURRENT_TIMESTAMP} becomes {@code NOW()}, its {@code LOCALTIMESTAMP}
 * Calcite's, with Flink's type.
 */
final class LocalTimeZoneConvertlets {
  private LocalTimeZoneConvertlets() {}

  /** The convertlet of {@code call}: {@code base}, or one that makes the calls above. */
  static @Nullable SqlRexConvertlet wrap(SqlCall call, @Nullable SqlRexConvertlet base) {
    if (call.getOperator() == TemporalFunctions.CURRENT_TIMESTAMP) {
      return (cx, c) ->
          cx.getRexBuilder()
              .makeCall(
                  cx.getValidator().getValidatedNodeType(c), TemporalFunctions.NOW, List.of());
    }
    if (call.getOperator() == TemporalFunctions.LOCALTIMESTAMP) {
      return (cx, c) ->
          cx.getRexBuilder()
              .makeCall(
                  cx.getValidator().getValidatedNodeType(c),
                  SqlStdOperatorTable.LOCALTIMESTAMP,
                  List.of());
    }
    if (base == null) {
      return null;
    }
    SqlKind kind = call.getKind();
    if (kind == SqlKind.CAST) {
      return (cx, c) -> cast(cx, c, base);
    }
    if (kind == SqlKind.EXTRACT
        || kind == SqlKind.FLOOR
        || kind == SqlKind.CEIL
        || TemporalFunctions.LOCALIZED.contains(call.getOperator())) {
      return (cx, c) -> localize(cx.getRexBuilder(), base.convertCall(cx, c));
    }
    return base;
  }

  private static boolean isLtz(RelDataType type) {
    return type.getSqlTypeName() == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
  }

  /** {@code TIMESTAMP(p)} of the precision and nullability of {@code ltz}. */
  private static RelDataType timestamp(RelDataTypeFactory f, RelDataType type) {
    return f.createTypeWithNullability(
        f.createSqlType(SqlTypeName.TIMESTAMP, type.getPrecision()), type.isNullable());
  }

  /** A {@code TIMESTAMP_LTZ} expression as its wall-clock time in the session zone. */
  private static RexNode wallClock(RexBuilder rb, RexNode e) {
    return rb.makeCall(
        timestamp(rb.getTypeFactory(), e.getType()),
        TemporalFunctions.LTZ_TO_TIMESTAMP,
        List.of(e));
  }

  /** A {@code TIMESTAMP} expression, a wall-clock time in the session zone, as an instant. */
  private static RexNode instant(RexBuilder rb, RelDataType ltz, RexNode e) {
    return rb.makeCall(ltz, TemporalFunctions.TIMESTAMP_TO_LTZ, List.of(e));
  }

  private static RexNode cast(SqlRexContext cx, SqlCall c, SqlRexConvertlet base) {
    RelDataType to;
    RelDataType from;
    try {
      to = cx.getValidator().getValidatedNodeType(c);
      from = cx.getValidator().getValidatedNodeType(c.operand(0));
    } catch (RuntimeException e) {
      // Not validated (an expression converted on its own): Calcite's conversion as it is.
      return base.convertCall(cx, c);
    }
    boolean fromString = SqlTypeFamily.CHARACTER.contains(from);
    boolean toString = SqlTypeFamily.CHARACTER.contains(to);
    boolean fromTimestamp = from.getSqlTypeName() == SqlTypeName.TIMESTAMP;
    boolean toTimestamp = to.getSqlTypeName() == SqlTypeName.TIMESTAMP;
    if (!(isLtz(to) && (fromString || fromTimestamp) || isLtz(from) && (toString || toTimestamp))
        || SqlUtil.isNullLiteral(c.operand(0), false)) {
      return base.convertCall(cx, c);
    }
    RexBuilder rb = cx.getRexBuilder();
    RexNode operand = cx.convertExpression(c.operand(0));
    if (isLtz(to)) {
      RexNode ts =
          fromString
              ? rb.makeAbstractCast(
                  timestamp(rb.getTypeFactory(), to),
                  TimestampTexts.cut(rb, operand, to.getPrecision()),
                  false)
              : operand;
      return instant(rb, to, ts);
    }
    if (toTimestamp) {
      RexNode ts = wallClock(rb, operand);
      return ts.getType().equals(to) ? ts : rb.makeAbstractCast(to, ts, false);
    }
    RexNode text =
        rb.makeCall(
            to,
            TemporalFunctions.LTZ_TO_STRING,
            List.of(
                operand, rb.makeExactLiteral(java.math.BigDecimal.valueOf(from.getPrecision()))));
    return text;
  }

  /** EXTRACT, FLOOR, CEIL and localized functions of TIMESTAMP_LTZ operands, as above. */
  private static RexNode localize(RexBuilder rb, RexNode converted) {
    if (!(converted instanceof RexCall call)
        || call.getOperands().stream().noneMatch(o -> isLtz(o.getType()))) {
      return converted;
    }
    List<RexNode> operands = new ArrayList<>();
    for (RexNode o : call.getOperands()) {
      operands.add(isLtz(o.getType()) ? wallClock(rb, o) : o);
    }
    SqlKind kind = call.getKind();
    if ((kind == SqlKind.FLOOR || kind == SqlKind.CEIL) && isLtz(call.getType())) {
      RelDataType ts = timestamp(rb.getTypeFactory(), call.getType());
      return instant(rb, call.getType(), rb.makeCall(ts, call.getOperator(), operands));
    }
    return rb.makeCall(call.getType(), call.getOperator(), operands);
  }
}

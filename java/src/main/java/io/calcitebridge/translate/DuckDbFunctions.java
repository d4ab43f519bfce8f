package io.calcitebridge.translate;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.calcite.avatica.util.TimeUnitRange;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Flink's everyday functions in DuckDB SQL, with Flink's semantics where DuckDB's built-in differs
 * (each a {@link DuckDbTemplate}; the differential cases of {@code backend_cases.sql} run them on
 * NULLs and edge values against Calcite's engine):
 *
 * <ul>
 *   <li>{@code EXTRACT(unit FROM x)} and its shorthands ({@code HOUR(x)}, {@code YEAR(x)}, ...) on
 *       a DATE or TIMESTAMP: DuckDB's {@code date_part}; {@code DOW} counts Sunday as 1 in Flink
 *       and 0 in DuckDB.
 *   <li>{@code FLOOR/CEIL(x TO unit)}: DuckDB's {@code date_trunc}, and for CEIL one unit more
 *       unless the value is already on the unit. Flink's weeks start on Sunday, DuckDB's on Monday:
 *       a WEEK is truncated from the day after, less a day.
 *   <li>{@code TIMESTAMPDIFF} by DAY, HOUR, MINUTE or SECOND (and DATE or TIMESTAMP differences as
 *       numbers): planning reads a TIMESTAMP as milliseconds ({@code Reinterpret}), which is
 *       DuckDB's {@code epoch_ms}; two TIMESTAMP(6) values by their microseconds, in one division.
 *   <li>{@code TIMESTAMPADD} and a DATE or TIMESTAMP plus or minus an interval; {@code DATE_FORMAT}
 *       of a TIMESTAMP by a literal pattern of common letters ({@code strftime}).
 *   <li>{@code CARDINALITY} of an ARRAY: {@code len}, of a MAP: {@code cardinality}; {@code
 *       ARRAY_CONTAINS}: TRUE for a NULL element when the value sought is NULL, as in Flink ({@code
 *       list_position} finds NULLs); {@code ELEMENT}: an error for more than one element.
 *   <li>{@code LOCATE} and {@code POSITION}: {@code strpos}, 1 for an empty string sought.
 *   <li>{@code BTRIM}, {@code SUBSTR} (position 0 reads as 1, a negative length gives NULL), {@code
 *       REPLACE} of a non-empty literal (Java inserts the replacement between every character for
 *       an empty one).
 *   <li>{@code ROUND} of a DECIMAL or an integer to a literal number of digits: half away from zero
 *       in both, cast to the result's type; of a DOUBLE, half up on its shortest decimal text, as
 *       Flink rounds it. {@code FLOOR} and {@code CEIL} of a number; {@code CONCAT} of strings as
 *       {@code ||} (NULL when any is NULL).
 *   <li>{@code CAST} of a DOUBLE, FLOAT or DECIMAL to an integer type: truncated toward zero, NaN
 *       as 0 but to BIGINT ({@code trunc}; DuckDB's cast rounds).
 *   <li>DECIMAL division and {@code AVG} of a DECIMAL at Flink's result scale, rounded half up,
 *       exactly in 128-bit integers (DuckDB's {@code /} divides DECIMALs as DOUBLE).
 *   <li>Casts of BOOLEAN ({@code TRUE}, {@code FALSE}), DECIMAL and {@code TIMESTAMP(p)} to STRING;
 *       a TIMESTAMP_LTZ's wall-clock time ({@code CAST} to TIMESTAMP or STRING) in DuckDB's {@code
 *       TimeZone}, which the backend sets to {@code table.local-time-zone}.
 *   <li>The window table functions {@code TUMBLE}, {@code HOP} and {@code CUMULATE} over a
 *       TIMESTAMP or a TIMESTAMP_LTZ(0..3): each row's windows as a list DuckDB unnests, their
 *       bounds in milliseconds as Flink's assigners compute them (of an instant, on the session
 *       zone's wall clock).
 *   <li>{@code REGEXP_EXTRACT} with a literal pattern RE2 reads as Java does ({@link JavaRegex}).
 *   <li>The clock: {@code NOW()}, {@code CURRENT_TIMESTAMP}, {@code LOCALTIMESTAMP}, {@code
 *       CURRENT_DATE}, {@code CURRENT_TIME}, {@code LOCALTIME}, {@code UNIX_TIMESTAMP()} and {@code
 *       CURRENT_ROW_TIMESTAMP()} ({@link DuckDbClock}).
 *   <li>{@code ROW(...)} as {@code struct_pack} with the row type's names; a field of a computed
 *       ROW, an array element ({@code items[1].x}) or a column as {@code struct_extract}.
 * </ul>
 */
final class DuckDbFunctions {
  private DuckDbFunctions() {}

  /** EXTRACT's units DuckDB's date_part computes as Flink does, by DuckDB's name. */
  private static final Map<TimeUnitRange, String> PARTS =
      Map.ofEntries(
          Map.entry(TimeUnitRange.YEAR, "date_part('year', {0})"),
          Map.entry(TimeUnitRange.QUARTER, "date_part('quarter', {0})"),
          Map.entry(TimeUnitRange.MONTH, "date_part('month', {0})"),
          Map.entry(TimeUnitRange.WEEK, "date_part('week', {0})"),
          Map.entry(TimeUnitRange.DAY, "date_part('day', {0})"),
          Map.entry(TimeUnitRange.HOUR, "date_part('hour', {0})"),
          Map.entry(TimeUnitRange.MINUTE, "date_part('minute', {0})"),
          Map.entry(TimeUnitRange.SECOND, "date_part('second', {0})"),
          Map.entry(TimeUnitRange.MILLISECOND, "date_part('millisecond', {0})"),
          Map.entry(TimeUnitRange.MICROSECOND, "date_part('microsecond', {0})"),
          Map.entry(TimeUnitRange.DOY, "date_part('doy', {0})"),
          Map.entry(TimeUnitRange.DOW, "date_part('dow', {0}) + 1"),
          Map.entry(TimeUnitRange.ISODOW, "date_part('isodow', {0})"),
          Map.entry(TimeUnitRange.ISOYEAR, "date_part('isoyear', {0})"));

  /** FLOOR and CEIL's units: DuckDB's date_trunc part, and one unit as an interval. */
  private static final Map<TimeUnitRange, String[]> TRUNCS =
      Map.of(
          TimeUnitRange.YEAR, new String[] {"year", "INTERVAL 1 YEAR"},
          TimeUnitRange.QUARTER, new String[] {"quarter", "INTERVAL 3 MONTH"},
          TimeUnitRange.MONTH, new String[] {"month", "INTERVAL 1 MONTH"},
          TimeUnitRange.DAY, new String[] {"day", "INTERVAL 1 DAY"},
          TimeUnitRange.HOUR, new String[] {"hour", "INTERVAL 1 HOUR"},
          TimeUnitRange.MINUTE, new String[] {"minute", "INTERVAL 1 MINUTE"},
          TimeUnitRange.SECOND, new String[] {"second", "INTERVAL 1 SECOND"});

  /** The DuckDB spelling of {@code call}, or null when it is not one of these functions. */
  static @Nullable RexNode rewrite(RexBuilder rex, RexCall call) {
    String name = call.getOperator().getName().toUpperCase(Locale.ROOT);
    List<RexNode> ops = call.operands;
    if (call.getOperator() == io.calcitebridge.functions.NumberFunctions.PARSE_INTEGER) {
      return parseInteger(rex, call);
    }
    if (name.equals("$WINDOWS")
        || name.equals("$WINDOW_START")
        || name.equals("$WINDOW_END")
        || name.equals("$WINDOW_TIME")) {
      return window(rex, call, name);
    }
    RexNode clock = DuckDbClock.rewrite(rex, call);
    if (clock != null) {
      return clock;
    }
    RexNode timestampDiff = timestampDiff(rex, call);
    if (timestampDiff != null) {
      return timestampDiff;
    }
    if (call.getOperator() == io.calcitebridge.functions.NumberFunctions.DECIMAL_DIVIDE
        || call.getKind() == SqlKind.DIVIDE
            && call.getType().getSqlTypeName() == SqlTypeName.DECIMAL) {
      return decimalDivide(rex, call, call.getType().getScale());
    }
    if (name.equals("$AVG_DECIMAL")) {
      return decimalAverage(rex, call);
    }
    if (io.calcitebridge.functions.NumberFunctions.isDecimalCast(call.getOperator())) {
      return toDecimal(rex, call);
    }
    SqlTypeName number =
        call.operands.isEmpty() ? null : call.operands.get(0).getType().getSqlTypeName();
    if ((call.getOperator() == io.calcitebridge.functions.NumberFunctions.DOUBLE_TEXT
            && (number == SqlTypeName.DOUBLE || number == SqlTypeName.FLOAT))
        || (call.getOperator() == io.calcitebridge.functions.NumberFunctions.FLOAT_TEXT
            && number == SqlTypeName.REAL)) {
      return javaNumberText(rex, call);
    }
    if (call.getOperator() == io.calcitebridge.functions.NumberFunctions.DECIMAL_TEXT) {
      // BigDecimal#toPlainString of a value at its type's scale: DuckDB's text of a DECIMAL.
      return call.operands.get(0).getType().getSqlTypeName() == SqlTypeName.DECIMAL
          ? make(rex, call, "CAST({0} AS VARCHAR)")
          : null;
    }
    if (call.getOperator() == io.calcitebridge.functions.TemporalFunctions.TIMESTAMP_TO_STRING) {
      return timestampText(rex, call);
    }
    if (name.equals("CAST_LTZ_TO_TIMESTAMP") || name.equals("CAST_LTZ_TO_STRING")) {
      return wallClock(rex, call);
    }
    RexNode shortened = call.getKind() == SqlKind.CAST ? shortened(rex, call) : null;
    if (shortened != null) {
      return shortened;
    }
    switch (call.getKind()) {
      case ROW:
        return row(rex, call);
      case EXTRACT:
        return extract(rex, call);
      case FLOOR:
      case CEIL:
        return floorOrCeil(rex, call);
      case REINTERPRET:
        return reinterpret(rex, call);
      case PLUS:
      case MINUS:
        return shift(rex, call);
      case CAST:
        if (call.operands.get(0).getType().getSqlTypeName() == SqlTypeName.BOOLEAN
            && SqlTypeFamily.CHARACTER.contains(call.getType())
            && call.getType().getSqlTypeName() == SqlTypeName.VARCHAR) {
          // Flink writes TRUE and FALSE, DuckDB true and false.
          return make(
              rex, call, "CASE WHEN {0} THEN 'TRUE' WHEN NOT {0} THEN 'FALSE' ELSE NULL END");
        }
        return truncatingCast(rex, call);
      default:
        break;
    }
    switch (name) {
      case "LOCATE":
        return locate(rex, call);
      case "CARDINALITY":
        if (ops.get(0).getType().getSqlTypeName() == SqlTypeName.MAP) {
          return make(rex, call, "CAST(cardinality({0}) AS INTEGER)");
        }
        return array(ops.get(0)) ? make(rex, call, "CAST(len({0}) AS INTEGER)") : null;
      case "ARRAY_CONTAINS":
        // A NaN sought is in no array (Java's ==, as in Flink); DuckDB's list_position finds it.
        return ops.size() == 2 && array(ops.get(0))
            ? make(
                rex,
                call,
                SqlTypeFamily.APPROXIMATE_NUMERIC.contains(ops.get(1).getType())
                    ? "CASE WHEN {0} IS NULL THEN NULL WHEN isnan({1}) THEN FALSE"
                        + " ELSE list_position({0}, {1}) IS NOT NULL END"
                    : "CASE WHEN {0} IS NULL THEN NULL ELSE list_position({0}, {1}) IS NOT NULL END")
            : null;
      case "ELEMENT":
        return ops.size() == 1 && array(ops.get(0))
            ? make(
                rex,
                call,
                "CASE WHEN len({0}) > 1 THEN error('ELEMENT: the array has more than one element')"
                    + " ELSE {0}[1] END")
            : null;
      case "BTRIM":
        return strings(ops)
            ? make(rex, call, ops.size() == 1 ? "trim({0})" : "trim({0}, {1})")
            : null;
      case "SUBSTR":
        if (!strings(ops.subList(0, 1))) {
          return null;
        }
        // A negative position before the first character gives '' in Flink, the whole string in
        // DuckDB.
        return ops.size() == 2
            ? make(
                rex,
                call,
                "CASE WHEN {1} < -length({0}) THEN '' ELSE"
                    + " substring({0}, CASE WHEN {1} = 0 THEN 1 ELSE {1} END) END")
            : make(
                rex,
                call,
                "CASE WHEN {2} < 0 THEN NULL WHEN {1} < -length({0}) THEN '' ELSE"
                    + " substring({0}, CASE WHEN {1} = 0 THEN 1 ELSE {1} END, {2}) END");
      case "REPLACE":
        if (ops.size() == 3
            && strings(ops)
            && ops.get(1) instanceof RexLiteral search
            && !search.isNull()) {
          if (!search.getValueAs(String.class).isEmpty()) {
            return make(rex, call, "replace({0}, {1}, {2})");
          }
          // Java puts the replacement before every character and at the end; RE2 replaces the
          // empty match at each position the same way. A backslash would be RE2's escape.
          if (ops.get(2) instanceof RexLiteral by
              && (by.isNull() || !by.getValueAs(String.class).contains("\\"))) {
            return make(rex, call, "regexp_replace({0}, '', {2}, 'g')");
          }
        }
        return null;
      case "ROUND":
        return round(rex, call);
      case "CONCAT":
        // Flink's CONCAT of strings is NULL when any is NULL, as DuckDB's || (its concat skips
        // NULLs).
        for (RexNode op : ops) {
          if (!SqlTypeFamily.CHARACTER.contains(op.getType())) {
            return null;
          }
        }
        if (ops.isEmpty()) {
          return null;
        }
        StringBuilder joined = new StringBuilder("({0}");
        for (int i = 1; i < ops.size(); i++) {
          joined.append(" || {").append(i).append('}');
        }
        return make(rex, call, joined.append(')').toString());
      case "DATE_FORMAT":
        return dateFormat(rex, call);
      case "REGEXP_EXTRACT":
        return regexpExtract(rex, call);
      case "UNIX_TIMESTAMP":
        // UNIX_TIMESTAMP() is the statement's start (DuckDbClock, above). A string read as a time
        // in the session zone stays refused: Flink reads it with a lenient SimpleDateFormat (a
        // prefix,
        // out-of-range fields carried over, Julian dates before 1582, Long.MIN_VALUE for what it
        // cannot read), which DuckDB's strptime does not do.
        return null;
      default:
        return null;
    }
  }

  /**
   * {@code REGEXP_EXTRACT(s, pattern[, group])} with a literal pattern and group ({@code
   * StringFunctions#regexpExtract}): the group (0, the whole match, by default) of the first match,
   * NULL without a match, for a group the pattern does not have, and for a pattern Java does not
   * compile. DuckDB's {@code regexp_extract} with the pattern in RE2's syntax ({@link JavaRegex}),
   * which answers {@code ''} without a match, so a match is tested first. A pattern whose meaning
   * may differ in RE2, or a group that may not take part in a match (NULL in Java, {@code ''} in
   * DuckDB), is refused.
   */
  private static @Nullable RexNode regexpExtract(RexBuilder rex, RexCall call) {
    List<RexNode> ops = call.operands;
    if (call.getOperator() != io.calcitebridge.functions.StringFunctions.REGEXP_EXTRACT
        || !(ops.get(1) instanceof RexLiteral pattern)
        || (ops.size() == 3 && !(ops.get(2) instanceof RexLiteral))) {
      return null;
    }
    Integer group = 0;
    if (ops.size() == 3) {
      RexLiteral index = (RexLiteral) ops.get(2);
      group = index.isNull() ? null : index.getValueAs(Integer.class);
    }
    if (pattern.isNull() || group == null) {
      return rex.makeNullLiteral(call.getType());
    }
    String text = pattern.getValueAs(String.class);
    boolean compiles;
    try {
      java.util.regex.Pattern.compile(text);
      compiles = true;
    } catch (java.util.regex.PatternSyntaxException e) {
      compiles = false;
    }
    JavaRegex re2 = compiles ? JavaRegex.translate(text) : null;
    if (!compiles || (re2 != null && (group < 0 || group > re2.groups()))) {
      return rex.makeNullLiteral(call.getType());
    }
    if (re2 == null || !re2.certain(group)) {
      return null;
    }
    String literal = "'" + re2.re2().replace("'", "''") + "'";
    return template(
        rex,
        call.getType(),
        new DuckDbTemplate(
            "REGEXP_EXTRACT",
            "CASE WHEN regexp_matches({0}, "
                + literal
                + ") THEN regexp_extract({0}, "
                + literal
                + ", "
                + group
                + ") ELSE NULL END"),
        List.of(ops.get(0)));
  }

  private static @Nullable RexNode extract(RexBuilder rex, RexCall call) {
    RexNode value = call.operands.get(1);
    TimeUnitRange unit = unit(call.operands.get(0));
    refuseInstant(value, "EXTRACT(" + unit + " FROM a TIMESTAMP_LTZ)");
    if (unit == null || !dateOrTimestamp(value.getType())) {
      return null;
    }
    String template = PARTS.get(unit);
    if (template == null) {
      return null;
    }
    String typed =
        "CAST(" + template.replace("{0}", "{1}") + " AS " + DuckDbDialect.typeName(call.getType());
    return make(rex, call, typed + ")");
  }

  private static @Nullable RexNode floorOrCeil(RexBuilder rex, RexCall call) {
    if (call.operands.size() == 1) {
      // Of a number: IEEE's floor and ceiling (-0.0 and NaN alike) or the DECIMAL's, whose
      // result DuckDB types as its own; cast to Flink's.
      SqlTypeName from = call.operands.get(0).getType().getSqlTypeName();
      String type = DuckDbDialect.typeName(call.getType());
      boolean number =
          from == SqlTypeName.DOUBLE
              || from == SqlTypeName.FLOAT
              || from == SqlTypeName.REAL
              || from == SqlTypeName.DECIMAL
              || SqlTypeFamily.INTEGER.contains(call.operands.get(0).getType());
      String fn = call.getKind() == SqlKind.FLOOR ? "floor" : "ceil";
      if (SqlTypeFamily.INTEGER.contains(call.operands.get(0).getType())) {
        fn = ""; // a whole number already (DuckDB's would go through a DOUBLE)
      }
      return number && type != null
          ? make(rex, call, "CAST(" + fn + "({0}) AS " + type + ")")
          : null;
    }
    if (call.operands.size() != 2) {
      return null;
    }
    RexNode value = call.operands.get(0);
    TimeUnitRange unit = unit(call.operands.get(1));
    refuseInstant(value, call.getKind() + "(a TIMESTAMP_LTZ TO " + unit + ")");
    String[] trunc = unit == null ? null : TRUNCS.get(unit);
    if (unit == TimeUnitRange.WEEK) {
      // Flink's weeks start on Sunday, DuckDB's on Monday: the Monday of the day after.
      trunc = new String[] {"week", "INTERVAL 7 DAY"};
    }
    if (trunc == null || !dateOrTimestamp(value.getType())) {
      return null;
    }
    String type = DuckDbDialect.typeName(call.getType());
    String floor =
        unit == TimeUnitRange.WEEK
            ? "(date_trunc('week', {0} + INTERVAL 1 DAY) - INTERVAL 1 DAY)"
            : "date_trunc('" + trunc[0] + "', {0})";
    String body =
        call.getKind() == SqlKind.FLOOR
            ? floor
            : "CASE WHEN "
                + floor
                + " = {0} THEN "
                + floor
                + " ELSE "
                + floor
                + " + "
                + trunc[1]
                + " END";
    return make(rex, call, "CAST(" + body + " AS " + type + ")");
  }

  /**
   * A TIMESTAMP (or DATE) read as milliseconds since 1970, or such a difference: what planning
   * makes of TIMESTAMPDIFF by a day-time unit. A TIMESTAMP(4..6) comes rescaled to milliseconds,
   * rounded toward negative infinity ({@code $TS_RESCALE}); DuckDB's {@code epoch_ms} rounds toward
   * zero, so its milliseconds are counted from {@code epoch_us}.
   */
  private static @Nullable RexNode reinterpret(RexBuilder rex, RexCall call) {
    RexNode value = call.operands.get(0);
    if (!SqlTypeFamily.INTEGER.contains(call.getType())) {
      return null;
    }
    if (value instanceof RexLiteral literal && literal.isNull()) {
      return rex.makeNullLiteral(call.getType());
    }
    String one = millis(value);
    if (one != null) {
      return template(
          rex,
          call.getType(),
          new DuckDbTemplate("TIMESTAMPDIFF", "CAST(" + one + " AS BIGINT)"),
          List.of(operand(value)));
    }
    if (value instanceof RexCall minus
        && minus.getKind() == SqlKind.MINUS
        && SqlTypeFamily.INTERVAL_DAY_TIME.contains(minus.getType())
        && minus.operands.size() == 2) {
      String a = millis(minus.operands.get(0));
      String b = millis(minus.operands.get(1));
      if (micros(minus.operands.get(0)) != null && micros(minus.operands.get(1)) != null) {
        // Divided by the unit's milliseconds next (timestampDiff); alone, the difference of the
        // two values rounded down to milliseconds.
        return template(
            rex,
            call.getType(),
            MICRO_DIFFERENCE,
            List.of(operand(minus.operands.get(0)), operand(minus.operands.get(1))));
      }
      if (a != null && b != null) {
        return template(
            rex,
            call.getType(),
            new DuckDbTemplate(
                "TIMESTAMPDIFF", "CAST(" + a + " - " + b.replace("{0}", "{1}") + " AS BIGINT)"),
            List.of(operand(minus.operands.get(0)), operand(minus.operands.get(1))));
      }
    }
    return null;
  }

  /**
   * {@code x - y} of two TIMESTAMP(4..6) values {0} and {1}, each rounded down to milliseconds, in
   * milliseconds: {@code floor(x / 1000) - floor(y / 1000)} of their microseconds is {@code
   * floor((x - y') / 1000)}, with {@code y'} y rounded down to its millisecond ({@code date_trunc},
   * which rounds down before 1970 too), a multiple of 1000.
   */
  private static final String MICRO_SPAN =
      "epoch_us(CAST({0} AS TIMESTAMP))"
          + " - epoch_us(date_trunc('millisecond', CAST({1} AS TIMESTAMP)))";

  /**
   * The milliseconds between two TIMESTAMP(4..6) values, alone (a date-time difference as a
   * number), rounded down as each value is; {@link #timestampDiff} spells it with its division.
   */
  private static final DuckDbTemplate MICRO_DIFFERENCE =
      new DuckDbTemplate(
          "TIMESTAMPDIFF",
          "CAST((("
              + MICRO_SPAN
              + ") - (("
              + MICRO_SPAN
              + ") % 1000 + 1000) % 1000) // 1000 AS BIGINT)");

  /**
   * TIMESTAMPDIFF of two TIMESTAMP(4..6) values by a day-time unit, {@code (x - y) / n} of their
   * milliseconds (each value rounded down to milliseconds, the quotient truncated toward zero, as
   * in Flink), in one integer division of the microseconds: with {@code s} the span of {@link
   * #MICRO_SPAN} before its division by 1000, the quotient is {@code s // (1000 n)} where {@code s
   * >= 0} and {@code (s - 999) // (1000 n)} where it is negative ({@code //} truncates): one {@code
   * date_trunc}, two {@code epoch_us} and one division a row, where rounding each value down on its
   * own took three divisions a value.
   */
  private static @Nullable RexNode timestampDiff(RexBuilder rex, RexCall call) {
    if (call.getKind() != SqlKind.DIVIDE
        || !SqlTypeFamily.INTEGER.contains(call.getType())
        || !(call.operands.get(0) instanceof RexCall span)
        || span.getOperator() != MICRO_DIFFERENCE
        || !(call.operands.get(1) instanceof RexLiteral unit)) {
      return null;
    }
    Long n = unit.getValueAs(Long.class);
    if (n == null || n <= 0 || n > Long.MAX_VALUE / 1000) {
      return null;
    }
    String s = "(" + MICRO_SPAN + ")";
    return template(
        rex,
        call.getType(),
        new DuckDbTemplate(
            "TIMESTAMPDIFF",
            "CAST((" + s + " - ((" + s + " >> 63) & 999)) // " + n * 1000 + " AS BIGINT)"),
        span.operands);
  }

  /** DuckDB's microseconds since 1970 of a TIMESTAMP(4..6) {@code node} as operand {0}, or null. */
  private static @Nullable String micros(RexNode node) {
    RexNode inner = operand(node);
    RelDataType type = node.getType();
    boolean fine =
        inner != node || type.getSqlTypeName() == SqlTypeName.TIMESTAMP && type.getPrecision() > 3;
    return fine && inner.getType().getPrecision() <= 6 ? "epoch_us(CAST({0} AS TIMESTAMP))" : null;
  }

  /** DuckDB's milliseconds since 1970 of {@code node} as operand {0}, or null. */
  private static @Nullable String millis(RexNode node) {
    RexNode inner = operand(node);
    RelDataType type = node.getType();
    if (inner != node
        || type.getSqlTypeName() == SqlTypeName.TIMESTAMP && type.getPrecision() > 3) {
      // A TIMESTAMP(4..6), rescaled or not: the plan the translation gets reads it without the
      // rescaling of Calcite's engine ($TS_RESCALE), as its milliseconds rounded down.
      return inner.getType().getPrecision() <= 6
          ? "((epoch_us(CAST({0} AS TIMESTAMP)) - ((epoch_us(CAST({0} AS TIMESTAMP)) % 1000)"
              + " + 1000) % 1000) // 1000)"
          : null;
    }
    if (type.getSqlTypeName() == SqlTypeName.DATE
        || type.getSqlTypeName() == SqlTypeName.TIMESTAMP && type.getPrecision() <= 3) {
      // A TIMESTAMP(3) column of an Arrow table is DuckDB's TIMESTAMP_MS, which epoch_ms does not
      // take.
      return "epoch_ms(CAST({0} AS TIMESTAMP))";
    }
    return null;
  }

  /** The TIMESTAMP(4..6) a {@code $TS_RESCALE(v, 1000, 1)} rounds down to milliseconds, or node. */
  private static RexNode operand(RexNode node) {
    if (node instanceof RexCall call
        && call.getOperator().getName().equals("$TS_RESCALE")
        && call.operands.size() == 3
        && call.operands.get(1) instanceof RexLiteral from
        && call.operands.get(2) instanceof RexLiteral to
        && Long.valueOf(1000).equals(from.getValueAs(Long.class))
        && Long.valueOf(1).equals(to.getValueAs(Long.class))
        && call.operands.get(0).getType().getSqlTypeName() == SqlTypeName.TIMESTAMP) {
      return call.operands.get(0);
    }
    return node;
  }

  /**
   * A DATE or TIMESTAMP plus or minus an interval (TIMESTAMPADD, {@code t + INTERVAL '1' DAY}): the
   * interval, a literal or a literal times a number, becomes DuckDB's {@code to_milliseconds} or
   * {@code to_months} of its count. A month past the end of the next month's days ends the month in
   * both.
   */
  private static @Nullable RexNode shift(RexBuilder rex, RexCall call) {
    if (call.operands.size() != 2) {
      return null;
    }
    RexNode value = call.operands.get(0);
    RexNode interval = call.operands.get(1);
    RelDataType type = value.getType();
    boolean dayTime = SqlTypeFamily.INTERVAL_DAY_TIME.contains(interval.getType());
    boolean yearMonth = SqlTypeFamily.INTERVAL_YEAR_MONTH.contains(interval.getType());
    if (!(dayTime || yearMonth)
        || !(type.getSqlTypeName() == SqlTypeName.DATE
            || type.getSqlTypeName() == SqlTypeName.TIMESTAMP && type.getPrecision() <= 6)
        || call.getType().getSqlTypeName() != type.getSqlTypeName()) {
      return null;
    }
    RexNode count = count(rex, interval);
    if (count == null) {
      return null;
    }
    String sign = call.getKind() == SqlKind.PLUS ? " + " : " - ";
    String unit =
        dayTime ? "to_milliseconds(CAST({1} AS BIGINT))" : "to_months(CAST({1} AS INTEGER))";
    String to = DuckDbDialect.typeName(call.getType());
    return template(
        rex,
        call.getType(),
        new DuckDbTemplate(
            call.getOperator().getName(), "CAST({0}" + sign + unit + " AS " + to + ")"),
        List.of(value, count));
  }

  /** An interval's count of milliseconds or months as a BIGINT expression, or null. */
  private static @Nullable RexNode count(RexBuilder rex, RexNode interval) {
    RelDataType bigint =
        rex.getTypeFactory()
            .createTypeWithNullability(
                rex.getTypeFactory().createSqlType(SqlTypeName.BIGINT),
                interval.getType().isNullable());
    if (interval instanceof RexLiteral literal) {
      if (literal.isNull()) {
        return rex.makeNullLiteral(bigint);
      }
      java.math.BigDecimal value = literal.getValueAs(java.math.BigDecimal.class);
      return value == null ? null : rex.makeExactLiteral(value, bigint);
    }
    if (interval instanceof RexCall times
        && times.getKind() == SqlKind.TIMES
        && times.operands.size() == 2) {
      int at = times.operands.get(0) instanceof RexLiteral ? 0 : 1;
      RexNode unit = count(rex, times.operands.get(at));
      RexNode factor = times.operands.get(1 - at);
      if (unit == null || !SqlTypeFamily.INTEGER.contains(factor.getType())) {
        return null;
      }
      // DuckDB multiplies an INT literal and an INT in 32 bits: 1000 days of milliseconds overflow.
      RexNode wide =
          rex.makeAbstractCast(
              rex.getTypeFactory().createTypeWithNullability(bigint, factor.getType().isNullable()),
              factor,
              false);
      return rex.makeCall(
          bigint, org.apache.calcite.sql.fun.SqlStdOperatorTable.MULTIPLY, List.of(unit, wide));
    }
    return null;
  }

  /**
   * Java's pattern letters DATE_FORMAT may hold, as DuckDB's strftime writes them (names of days
   * and months in English, as Flink's formatter writes them).
   */
  private static final Map<String, String> PATTERN =
      Map.ofEntries(
          Map.entry("yyyy", "%Y"),
          Map.entry("yy", "%y"),
          Map.entry("MMMM", "%B"),
          Map.entry("MMM", "%b"),
          Map.entry("MM", "%m"),
          Map.entry("M", "%-m"),
          Map.entry("dd", "%d"),
          Map.entry("d", "%-d"),
          Map.entry("EEEE", "%A"),
          Map.entry("EEE", "%a"),
          Map.entry("HH", "%H"),
          Map.entry("H", "%-H"),
          Map.entry("mm", "%M"),
          Map.entry("m", "%-M"),
          Map.entry("ss", "%S"),
          Map.entry("s", "%-S"),
          Map.entry("SSS", "%g"),
          Map.entry("SSSSSS", "%f"),
          Map.entry("D", "%-j"),
          Map.entry("DDD", "%j"));

  /**
   * {@code DATE_FORMAT(ts, 'yyyy-MM-dd HH:mm:ss')} with a literal pattern of the letters of {@link
   * #PATTERN} and punctuation: DuckDB's {@code strftime}; other patterns are refused.
   */
  private static @Nullable RexNode dateFormat(RexBuilder rex, RexCall call) {
    if (call.operands.size() != 2
        || call.operands.get(0).getType().getSqlTypeName() != SqlTypeName.TIMESTAMP
        || !(call.operands.get(1) instanceof RexLiteral literal)
        || literal.isNull()) {
      return null;
    }
    String pattern = literal.getValueAs(String.class);
    if (pattern.isEmpty()) {
      return null; // strftime refuses an empty format
    }
    StringBuilder format = new StringBuilder();
    int i = 0;
    while (i < pattern.length()) {
      char c = pattern.charAt(i);
      int j = i;
      while (j < pattern.length() && pattern.charAt(j) == c) {
        j++;
      }
      String run = pattern.substring(i, j);
      if (Character.isLetter(c)) {
        String spec = PATTERN.get(run);
        if (spec == null) {
          return null;
        }
        format.append(spec);
      } else if (" -/:.,_".indexOf(c) >= 0) {
        format.append(run);
      } else {
        return null;
      }
      i = j;
    }
    return template(
        rex,
        call.getType(),
        new DuckDbTemplate("DATE_FORMAT", "strftime({0}, '" + format + "')"),
        List.of(call.operands.get(0)));
  }

  /**
   * A DECIMAL division at {@code scale}, as Flink divides ({@code NumberFunctions#divide}): the
   * quotient rounded half up, exactly, in DuckDB's 128-bit integers: {@code (2|X| + |Y|) // 2|Y|}
   * of the dividend's unscaled value {@code X} shifted to the result's scale and the divisor's
   * {@code Y}. A division by zero fails, as in Flink; a dividend whose shifted value passes 38
   * digits fails with DuckDB's overflow error (DuckDB's own {@code /} divides as DOUBLE). Where
   * {@code 2X} or {@code 2Y} could pass HUGEINT's range (an AVG of a DECIMAL(38, s) near its
   * largest value), the quotient is truncated and rounded by its remainder ({@link #wideQuotient}),
   * at Flink's 34 significant digits.
   */
  private static @Nullable RexNode decimalDivide(RexBuilder rex, RexCall call, int scale) {
    if (call.operands.size() < 2 || scale != call.getType().getScale()) {
      return null;
    }
    return decimalDivide(rex, call.getType(), call.operands.get(0), call.operands.get(1));
  }

  /** {@code x / y} as a DECIMAL of {@code type}, at its scale (see above), or null. */
  static @Nullable RexNode decimalDivide(RexBuilder rex, RelDataType type, RexNode x, RexNode y) {
    String to = DuckDbDialect.typeName(type);
    String xs = unscaled(x, "{0}");
    String ys = unscaled(y, "{1}");
    int scale = type.getScale();
    if (to == null || xs == null || ys == null || type.getSqlTypeName() != SqlTypeName.DECIMAL) {
      return null;
    }
    // The quotient's unscaled value is X * 10^shift / Y; a negative shift multiplies Y instead.
    int shift = scale - Math.max(x.getType().getScale(), 0) + Math.max(y.getType().getScale(), 0);
    if (Math.abs(shift) > 37 || scale > 37 || scale < 0) {
      return null;
    }
    String n = shift > 0 ? "(" + xs + " * CAST(" + power(shift) + " AS HUGEINT))" : xs;
    String d = shift < 0 ? "(" + ys + " * CAST(" + power(-shift) + " AS HUGEINT))" : ys;
    // Half away from zero: DuckDB's // on integers truncates toward zero, and its % keeps the
    // dividend's sign.
    boolean wide = digits(x) + Math.max(shift, 0) > 37 || digits(y) + Math.max(-shift, 0) > 37;
    String rounded =
        wide
            ? wideQuotient(n, d)
            : "(2 * " + n + " + sign(" + n + ") * abs(" + d + ")) // (2 * " + d + ")";
    String q =
        "CASE WHEN {0} IS NULL OR {1} IS NULL THEN NULL WHEN "
            + ys
            + " = 0 THEN error('Division by zero') ELSE "
            + rounded
            + " END";
    String value =
        scale == 0
            ? "CAST(" + q + " AS DECIMAL(38, 0))"
            : "CAST("
                + q
                + " AS DECIMAL(38, 0)) * CAST('"
                + tenth(scale)
                + "' AS DECIMAL("
                + (scale + 1)
                + ", "
                + scale
                + "))";
    return template(
        rex,
        type,
        new DuckDbTemplate("DECIMAL_DIVIDE", "CAST(" + value + " AS " + to + ")"),
        List.of(x, y));
  }

  /**
   * {@code $AVG_DECIMAL(sum, count, scale)}: the sum of a DECIMAL column divided by the count at
   * {@code scale}, as {@link #decimalDivide}; NULL over no rows.
   */
  private static @Nullable RexNode decimalAverage(RexBuilder rex, RexCall call) {
    if (call.operands.size() != 3
        || !(call.operands.get(2) instanceof RexLiteral digits)
        || digits.getValueAs(Integer.class) == null) {
      return null;
    }
    RexNode divided = decimalDivide(rex, call, digits.getValueAs(Integer.class));
    if (!(divided instanceof RexCall division)) {
      return null;
    }
    return template(
        rex,
        call.getType(),
        new DuckDbTemplate("AVG", "CASE WHEN {1} = 0 THEN NULL ELSE {2} END"),
        List.of(call.operands.get(0), call.operands.get(1), division));
  }

  /**
   * The quotient {@code n / d} of two HUGEINT expressions whose doubles could overflow, rounded as
   * Flink's {@code NumberFunctions#divide}: to 34 significant digits half even ({@code
   * MathContext.DECIMAL128}), then to the unit half up. A quotient of 35 to 38 digits is rounded
   * half even to a multiple of {@code 10^1..10^4}; one of 34 half even to the unit; a shorter one
   * half up to the unit. Where the quotient has 34 digits or more, {@code |d|} is below {@code
   * 10^5}, so {@code d * 10^4} does not overflow (DuckDB's CASE computes only the branch taken).
   */
  private static String wideQuotient(String n, String d) {
    String q = "(" + n + " // " + d + ")";
    String away = "sign(" + n + ") * sign(" + d + ")";
    StringBuilder out = new StringBuilder("CASE");
    for (int t = 4; t >= 0; t--) {
      String unit = "CAST(" + power(t) + " AS HUGEINT)";
      String dp = t == 0 ? d : "(" + d + " * " + unit + ")";
      String a = "(" + n + " // " + dp + ")";
      String r = "abs(" + n + " % " + dp + ")";
      out.append(" WHEN abs(")
          .append(q)
          .append(") >= CAST(")
          .append(power(33 + t))
          .append(" AS HUGEINT) THEN (")
          .append(a)
          .append(" + CASE WHEN ")
          .append(r)
          .append(" > abs(")
          .append(dp)
          .append(") - ")
          .append(r)
          .append(" OR ")
          .append(r)
          .append(" = abs(")
          .append(dp)
          .append(") - ")
          .append(r)
          .append(" AND ")
          .append(a)
          .append(" % 2 <> 0 THEN ")
          .append(away)
          .append(" ELSE 0 END)")
          .append(t == 0 ? "" : " * " + unit);
    }
    String r = "abs(" + n + " % " + d + ")";
    return out.append(" ELSE ")
        .append(q)
        .append(" + CASE WHEN ")
        .append(r)
        .append(" >= abs(")
        .append(d)
        .append(") - ")
        .append(r)
        .append(" THEN ")
        .append(away)
        .append(" ELSE 0 END END")
        .toString();
  }

  /** The most decimal digits of the unscaled value of an integer or DECIMAL operand. */
  private static int digits(RexNode node) {
    RelDataType type = node.getType();
    return switch (type.getSqlTypeName()) {
      case TINYINT -> 3;
      case SMALLINT -> 5;
      case INTEGER -> 10;
      case BIGINT -> 19;
      case DECIMAL -> type.getPrecision();
      default -> 39;
    };
  }

  /**
   * The unscaled value of a DECIMAL or integer operand as a HUGEINT, or null. A DECIMAL whose value
   * times {@code 10^s} could pass 38 digits is split into its integer part and its fraction, each
   * scaled without overflow.
   */
  private static @Nullable String unscaled(RexNode node, String operand) {
    RelDataType type = node.getType();
    if (SqlTypeFamily.INTEGER.contains(type)) {
      return "CAST(" + operand + " AS HUGEINT)";
    }
    if (type.getSqlTypeName() != SqlTypeName.DECIMAL || type.getScale() < 0) {
      return null;
    }
    int s = type.getScale();
    if (s > 0 && type.getPrecision() + s > 38) {
      String whole = "trunc(CAST(" + operand + " AS DECIMAL(38, " + s + ")))";
      String ten = "CAST(" + power(s) + " AS HUGEINT)";
      return "(CAST("
          + whole
          + " AS HUGEINT) * "
          + ten
          + " + CAST((CAST("
          + operand
          + " AS DECIMAL(38, "
          + s
          + ")) - "
          + whole
          + ") * "
          + ten
          + " AS HUGEINT))";
    }
    return s == 0
        ? "CAST(" + operand + " AS HUGEINT)"
        : "CAST(CAST("
            + operand
            + " AS DECIMAL(38, "
            + s
            + ")) * CAST("
            + power(s)
            + " AS HUGEINT) AS HUGEINT)";
  }

  private static String power(int n) {
    return java.math.BigInteger.TEN.pow(n).toString();
  }

  /** {@code 10^-n} as text: {@code 0.001} for 3. */
  private static String tenth(int n) {
    return java.math.BigDecimal.ONE.movePointLeft(n).toPlainString();
  }

  /**
   * {@code ROW(a, b)}: DuckDB's {@code struct_pack} with the row type's field names (DuckDB's
   * {@code row} makes a struct without names). Never NULL, as Flink's constructor.
   */
  private static @Nullable RexNode row(RexBuilder rex, RexCall call) {
    List<org.apache.calcite.rel.type.RelDataTypeField> fields = call.getType().getFieldList();
    if (fields.isEmpty() || fields.size() != call.operands.size()) {
      return null;
    }
    StringBuilder body = new StringBuilder("struct_pack(");
    java.util.Set<String> seen = new java.util.HashSet<>();
    for (int i = 0; i < fields.size(); i++) {
      String field = fields.get(i).getName();
      if (field.indexOf('{') >= 0 || !seen.add(field.toLowerCase(Locale.ROOT))) {
        return null; // a brace reads as an operand; DuckDB's names ignore case
      }
      body.append(i == 0 ? "" : ", ")
          .append('"')
          .append(field.replace("\"", "\"\""))
          .append("\" := {")
          .append(i)
          .append('}');
    }
    return make(rex, call, body.append(')').toString());
  }

  /**
   * {@code x.f} of a computed value ({@code items[1].x}, a field of a cast ROW) or of a column:
   * DuckDB's {@code struct_extract}, NULL for a NULL row as in Flink. Calcite's converter writes
   * the field of a computed value as a column named after the expression (CALCITE-6344), and that
   * of a column {@code t} as {@code "t"."f"}, which DuckDB reads as the column f of a relation
   * named t (the converter's own names for relations) when there is one.
   */
  static @Nullable RexNode field(RexBuilder rex, org.apache.calcite.rex.RexFieldAccess access) {
    String name = access.getField().getName();
    if (name.indexOf('{') >= 0) {
      return null;
    }
    java.util.Set<String> seen = new java.util.HashSet<>();
    for (org.apache.calcite.rel.type.RelDataTypeField f :
        access.getReferenceExpr().getType().getFieldList()) {
      if (!seen.add(f.getName().toLowerCase(Locale.ROOT))) {
        return null; // DuckDB would read one of two fields whose names differ only in case
      }
    }
    return template(
        rex,
        access.getType(),
        new DuckDbTemplate(
            "a field of a ROW", "struct_extract({0}, '" + name.replace("'", "''") + "')"),
        List.of(access.getReferenceExpr()));
  }

  /**
   * {@code CAST(ts AS STRING)} of a TIMESTAMP(p), Flink's text: {@code p} digits of fraction
   * ({@code TemporalFunctions#TIMESTAMP_TO_STRING}), from DuckDB's nanosecond digits ({@code %n}).
   */
  private static @Nullable RexNode timestampText(RexBuilder rex, RexCall call) {
    RexNode value = call.operands.get(0);
    if (call.operands.size() != 2
        || value.getType().getSqlTypeName() != SqlTypeName.TIMESTAMP
        || !(call.operands.get(1) instanceof RexLiteral digits)
        || digits.getValueAs(Integer.class) == null) {
      return null;
    }
    int p = digits.getValueAs(Integer.class);
    if (p < 1 || p > 6) {
      return null;
    }
    return template(
        rex,
        call.getType(),
        new DuckDbTemplate(
            "CAST",
            "strftime(CAST({0} AS TIMESTAMP), '%Y-%m-%d %H:%M:%S.') || substring(strftime("
                + "CAST({0} AS TIMESTAMP), '%f'), 1, "
                + p
                + ")"),
        List.of(value));
  }

  /**
   * A TIMESTAMP_LTZ's wall-clock time in the session zone ({@code CAST(ltz AS TIMESTAMP)}, {@code
   * CAST(ltz AS STRING)} with its {@code p} digits of fraction, and so EXTRACT, FLOOR, ... of a
   * TIMESTAMP_LTZ): DuckDB's cast of a TIMESTAMPTZ to TIMESTAMP, in its {@code TimeZone}, which the
   * backend sets to {@code table.local-time-zone} for each statement. The other way (a wall clock
   * to an instant) is refused: a time in a gap or overlap of the zone may be resolved otherwise.
   */
  private static @Nullable RexNode wallClock(RexBuilder rex, RexCall call) {
    RexNode value = call.operands.get(0);
    RelDataType type = value.getType();
    if (type.getSqlTypeName() != SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE) {
      return null;
    }
    int p = type.getPrecision();
    // The instant as a TIMESTAMPTZ, whether the scan hands DuckDB one or a TIMESTAMP in UTC
    // (an Arrow timestamp without a zone), then its wall-clock time in DuckDB's TimeZone.
    String wall = "CAST(timezone('UTC', make_timestamp(epoch_us({0}))) AS TIMESTAMP)";
    if (call.getOperator().getName().equals("CAST_LTZ_TO_TIMESTAMP")) {
      // Its result is a TIMESTAMP(3): a finer instant would keep digits the reference cuts.
      return p <= 3 && call.getType().getSqlTypeName() == SqlTypeName.TIMESTAMP
          ? template(rex, call.getType(), new DuckDbTemplate("CAST", wall), List.of(value))
          : null;
    }
    if (call.operands.size() > 2 || p > 6) {
      return null;
    }
    String text = "strftime(" + wall + ", '%Y-%m-%d %H:%M:%S')";
    if (p > 0) {
      text += " || '.' || substring(strftime(" + wall + ", '%f'), 1, " + p + ")";
    }
    return template(rex, call.getType(), new DuckDbTemplate("CAST", text), List.of(value));
  }

  private static @Nullable RexNode round(RexBuilder rex, RexCall call) {
    List<RexNode> ops = call.operands;
    if (ops.size() == 1 && ops.get(0).getType().getSqlTypeName() == SqlTypeName.DOUBLE) {
      return roundDouble(rex, call, 0);
    }
    if (ops.size() != 2 || !(ops.get(1) instanceof RexLiteral digits) || digits.isNull()) {
      return null;
    }
    RelDataType type = ops.get(0).getType();
    if (type.getSqlTypeName() == SqlTypeName.DOUBLE) {
      Integer places = digits.getValueAs(Integer.class);
      return places == null ? null : roundDouble(rex, call, places);
    }
    if (type.getSqlTypeName() != SqlTypeName.DECIMAL && !SqlTypeFamily.INTEGER.contains(type)) {
      return null;
    }
    String to = DuckDbDialect.typeName(call.getType());
    return to == null ? null : make(rex, call, "CAST(round({0}, {1}) AS " + to + ")");
  }

  /**
   * A window table function's parts ({@code WindowFunctions}) over a TIMESTAMP: {@code $WINDOWS},
   * the numbers 0, 1, ... of the windows of a row's time (none for a NULL time), which the plan
   * unnests, and the start, end and time of the k-th. A window starts at {@code t - floorMod(t -
   * offset, size)}, in milliseconds since 1970 (the time rounded down to milliseconds), as Flink's
   * assigners compute it; DuckDB's {@code %} keeps the dividend's sign, hence {@code ((x % n) + n)
   * % n}. Over a TIMESTAMP_LTZ the windows are aligned on the time's wall clock in the session zone
   * (DuckDB's {@code TimeZone}), {@code window_start} and {@code window_end} are wall-clock
   * TIMESTAMPs and {@code window_time} the instant of the end less a millisecond ({@link
   * #INSTANT}).
   */
  private static @Nullable RexNode window(RexBuilder rex, RexCall call, String name) {
    List<RexNode> ops = call.operands;
    if (ops.size() < 6
        || !(ops.get(0) instanceof RexLiteral ltzLiteral)
        || ltzLiteral.getValueAs(Boolean.class) == null
        || !(ops.get(1) instanceof RexLiteral kindLiteral)) {
      return null;
    }
    boolean ltz = Boolean.TRUE.equals(ltzLiteral.getValueAs(Boolean.class));
    Integer kind = kindLiteral.getValueAs(Integer.class);
    long[] sizes = new long[3];
    for (int i = 0; i < 3; i++) {
      if (!(ops.get(3 + i) instanceof RexLiteral lit)) {
        return null;
      }
      Long ms = lit.getValueAs(Long.class);
      if (ms == null) {
        return null;
      }
      sizes[i] = ms;
    }
    String t = ltz ? wallMillis(ops.get(2)) : millis(ops.get(2));
    if (kind == null || t == null || kind < 0 || kind > 2) {
      return null;
    }
    long a = sizes[0];
    long b = sizes[1];
    long offset = sizes[2];
    String ma = "((((" + t + ") - " + offset + ") % " + a + " + " + a + ") % " + a + ")";
    String mb = "((((" + t + ") - " + offset + ") % " + b + " + " + b + ") % " + b + ")";
    List<RexNode> operands = new java.util.ArrayList<>(List.of(operand(ops.get(2))));
    if (name.equals("$WINDOWS")) {
      String count =
          switch (kind) {
            case 1 -> "(" + b + " - " + ma + " + " + (a - 1) + ") // " + a; // HOP
            case 2 -> "(" + b + " - " + mb + " + " + ma + " - " + a + ") // " + a + " + 1";
            default -> "1";
          };
      return template(
          rex,
          call.getType(),
          new DuckDbTemplate(
              name,
              "CASE WHEN {0} IS NULL THEN CAST([] AS INTEGER[])"
                  + " ELSE CAST(range(0, "
                  + count
                  + ") AS INTEGER[]) END"),
          operands);
    }
    if (ops.size() != 7) {
      return null;
    }
    operands.add(ops.get(6));
    String k = "CAST({1} AS BIGINT)";
    String start =
        switch (kind) {
          case 1 -> "(" + t + ") - " + ma + " - " + k + " * " + a;
          case 2 -> "(" + t + ") - " + mb;
          default -> "(" + t + ") - " + ma;
        };
    String end =
        switch (kind) {
          case 1 -> "(" + start + ") + " + b;
          case 2 -> "(" + t + ") - " + ma + " + " + a + " + " + k + " * " + a;
          default -> "(" + start + ") + " + a;
        };
    String millis =
        switch (name) {
          case "$WINDOW_START" -> start;
          case "$WINDOW_END" -> end;
          default -> "(" + end + ") - 1";
        };
    String type = DuckDbDialect.typeName(call.getType());
    if (ltz
        && name.equals("$WINDOW_TIME")
        && call.getType().getSqlTypeName() == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE) {
      // The instant of the window's end in the session zone, less a millisecond.
      return template(
          rex,
          call.getType(),
          new DuckDbTemplate(
              name,
              "timezone('UTC', epoch_ms(list_transform([CAST("
                  + end
                  + " AS BIGINT)], lambda cb_w: "
                  + INSTANT
                  + ")[1] - 1))"),
          operands);
    }
    if (type == null || call.getType().getSqlTypeName() != SqlTypeName.TIMESTAMP) {
      return null;
    }
    return template(
        rex,
        call.getType(),
        new DuckDbTemplate(name, "CAST(epoch_ms(CAST(" + millis + " AS BIGINT)) AS " + type + ")"),
        operands);
  }

  /**
   * The milliseconds of the wall-clock time of a TIMESTAMP_LTZ(0..3) {@code node} ({0}) in the
   * session zone, DuckDB's {@code TimeZone} (Java's {@code ts + zone.getOffset(ts)}), or null.
   */
  private static @Nullable String wallMillis(RexNode node) {
    RelDataType type = node.getType();
    if (type.getSqlTypeName() != SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE
        || type.getPrecision() > 3) {
      return null;
    }
    // The instant as a TIMESTAMPTZ, whether the scan hands DuckDB one or a TIMESTAMP in UTC.
    return "epoch_ms(CAST(timezone('UTC', make_timestamp(epoch_us({0}))) AS TIMESTAMP))";
  }

  /** The wall-clock milliseconds in DuckDB's {@code TimeZone} of the instant of milliseconds i. */
  private static String wallOf(String i) {
    return "epoch_ms(CAST(timezone('UTC', epoch_ms(" + i + ")) AS TIMESTAMP))";
  }

  /**
   * The instant, in milliseconds, of the wall-clock milliseconds {@code w} (a lambda's parameter)
   * in the session zone, as Java's {@code LocalDateTime#atZone} resolves it: a time in a gap moves
   * on by the gap (so does DuckDB's cast to TIMESTAMPTZ), a time an overlap repeats is the earlier
   * instant (DuckDB's cast takes the later). The earlier candidate {@code e} takes the offset of a
   * day before DuckDB's instant {@code c}; it is the answer when it is earlier and reads as {@code
   * w} (no zone changes its offset twice in a day).
   */
  private static final String INSTANT =
      "list_transform([epoch_ms(CAST(epoch_ms(cb_w) AS TIMESTAMPTZ))], lambda cb_c:"
          + " list_transform([cb_w - ("
          + wallOf("cb_c - 86400000")
          + " - (cb_c - 86400000))], lambda cb_e: CASE WHEN cb_e < cb_c AND "
          + wallOf("cb_e")
          + " = cb_w THEN cb_e ELSE cb_c END)[1])[1]";

  /**
   * {@code ROUND} of a DOUBLE to {@code places} digits as Flink computes it: half up on the
   * number's shortest decimal text ({@code BigDecimal.valueOf}: 2.675 rounds to 2.68, where
   * DuckDB's {@code round} of the binary value gives 2.67), back to the nearest DOUBLE; a NaN or an
   * infinity fails, as in Flink. The text is read as a DECIMAL of 22 places (DuckDB's CAST of a
   * DOUBLE to VARCHAR is its shortest text, Java's digits); a value of 2^52 or more is a whole
   * number, which rounding to any places keeps, and is left as it is. Places beyond 15 or below 0
   * are left to Calcite's engine.
   */
  private static @Nullable RexNode roundDouble(RexBuilder rex, RexCall call, int places) {
    if (places < 0 || places > 15) {
      return null;
    }
    return make(
        rex,
        call,
        "CASE WHEN isnan({0}) OR isinf({0}) THEN error('Invalid number: ' || CAST({0} AS VARCHAR))"
            + " WHEN abs({0}) >= 4503599627370496 THEN {0}"
            + " ELSE CAST(CAST(round(CAST(CAST({0} AS VARCHAR) AS DECIMAL(38, 22)), "
            + places
            + ") AS VARCHAR) AS DOUBLE) END");
  }

  /**
   * Refuses a function of a TIMESTAMP_LTZ by its name ({@code EXTRACT(HOUR FROM a TIMESTAMP_LTZ)}):
   * planning reads the instant in the session's time zone ({@code CAST_LTZ_TO_TIMESTAMP}), which
   * DuckDB would read in its own.
   */
  private static void refuseInstant(RexNode value, String construct) {
    if (value instanceof RexCall cast
        && cast.getOperator().getName().equals("CAST_LTZ_TO_TIMESTAMP")) {
      throw new Refusal(DuckDbTranslator.BACKEND, construct);
    }
  }

  private static boolean dateOrTimestamp(RelDataType type) {
    return type.getSqlTypeName() == SqlTypeName.DATE
        || type.getSqlTypeName() == SqlTypeName.TIMESTAMP && type.getPrecision() <= 6;
  }

  private static boolean array(RexNode node) {
    return node.getType().getSqlTypeName() == SqlTypeName.ARRAY;
  }

  /**
   * A cast of a DOUBLE, FLOAT or DECIMAL to an integer type truncates toward zero in Flink, and NaN
   * is 0 (but to BIGINT, where Calcite's engine fails); DuckDB rounds, and fails on NaN. A value
   * out of the type's range fails in both.
   */
  private static @Nullable RexNode truncatingCast(RexBuilder rex, RexCall call) {
    RelDataType from = call.operands.get(0).getType();
    String to = DuckDbDialect.typeName(call.getType());
    if (to == null || !SqlTypeFamily.INTEGER.contains(call.getType())) {
      return null;
    }
    if (SqlTypeFamily.APPROXIMATE_NUMERIC.contains(from)
        && call.getType().getSqlTypeName() != SqlTypeName.BIGINT) {
      return make(
          rex,
          call,
          "CASE WHEN isnan({0}) THEN CAST(0 AS "
              + to
              + ") ELSE CAST(trunc({0}) AS "
              + to
              + ") END");
    }
    if (from.getSqlTypeName() == SqlTypeName.DECIMAL
        || SqlTypeFamily.APPROXIMATE_NUMERIC.contains(from)) {
      // Calcite's engine fails on a NaN cast to BIGINT (it goes through BigDecimal), as DuckDB.
      return make(rex, call, "CAST(trunc({0}) AS " + to + ")");
    }
    return null;
  }

  /**
   * The characters Java's {@code String.strip} removes ({@code Character.isWhitespace}), as an RE2
   * class; written as themselves, since a template reads braces around digits as an operand.
   */
  private static final String JAVA_SPACE =
      "[\\t\\n\\x0B\\f\\r\\x1C-\\x1F \u1680\u2000-\u2006\u2008-\u200A\u2028\u2029"
          + "\u205F\u3000]";

  /**
   * Flink's cast of a string to an integer ({@code NumberFunctions#parseInteger}): the string
   * stripped of Java's white space, a number with an optional sign and fraction (no exponent), its
   * fraction dropped; anything else fails, as does a value past BIGINT. DuckDB's cast takes an
   * exponent and {@code _} separators, and rounds a fraction.
   */
  private static RexNode parseInteger(RexBuilder rex, RexCall call) {
    String stripped = "regexp_replace({0}, '^" + JAVA_SPACE + "+|" + JAVA_SPACE + "+$', '', 'g')";
    String whole = "regexp_extract(" + stripped + ", '^[+-]?[0-9]*')";
    return make(
        rex,
        call,
        "CASE WHEN {0} IS NULL THEN NULL WHEN NOT regexp_full_match("
            + stripped
            + ", '[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)') THEN error('For input string: \"' || {0}"
            + " || '\"') WHEN regexp_full_match("
            + whole
            + ", '[+-]?') THEN CAST(0 AS BIGINT) ELSE CAST("
            + whole
            + " AS BIGINT) END");
  }

  /**
   * Flink's cast of a string, a DOUBLE or a FLOAT to {@code DECIMAL(p, s)} ({@code
   * NumberFunctions#parseDecimal}, {@code #doubleToDecimal}): the number's decimal text rounded
   * half up to the scale, an error past the precision (NULL for TRY_CAST). A string is stripped of
   * Java's white space and must be Java's {@code BigDecimal} grammar (sign, digits with an optional
   * point, an optional exponent): DuckDB's own cast also takes {@code _} separators. A DOUBLE's
   * text is its shortest decimal text ({@code Double#toString}), which DuckDB's text of a DOUBLE
   * also is; a FLOAT is widened to DOUBLE first, as Java widens it. DuckDB's cast of such text to a
   * DECIMAL rounds half away from zero, Java's HALF_UP; NaN and infinities fail on both.
   */
  private static RexNode toDecimal(RexBuilder rex, RexCall call) {
    boolean safe =
        call.getOperator() == io.calcitebridge.functions.NumberFunctions.TRY_PARSE_DECIMAL
            || call.getOperator()
                == io.calcitebridge.functions.NumberFunctions.TRY_DOUBLE_TO_DECIMAL;
    String type =
        "DECIMAL(" + call.getType().getPrecision() + ", " + call.getType().getScale() + ")";
    String cast = safe ? "TRY_CAST(" : "CAST(";
    String template;
    if (SqlTypeFamily.CHARACTER.contains(call.operands.get(0).getType())) {
      String stripped = "regexp_replace({0}, '^" + JAVA_SPACE + "+|" + JAVA_SPACE + "+$', '', 'g')";
      String number = "'[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]+)?'";
      template =
          "CASE WHEN {0} IS NULL THEN NULL WHEN NOT regexp_full_match("
              + stripped
              + ", "
              + number
              + ") THEN "
              + (safe ? "NULL" : "error('For input string: ''' || {0} || '''')")
              + " ELSE "
              + cast
              + stripped
              + " AS "
              + type
              + ") END";
    } else {
      template = cast + "CAST(CAST({0} AS DOUBLE) AS VARCHAR) AS " + type + ")";
    }
    return template(
        rex,
        call.getType(),
        new DuckDbTemplate(call.getOperator().getName(), template),
        List.of(call.operands.get(0)));
  }

  /**
   * Flink's text of a DOUBLE or a FLOAT, Java's {@code Double#toString} / {@code Float#toString}:
   * the shortest digits that read back as the value (DuckDB's text has the same digits), written
   * plain with at least one digit after the point from 10^-3 up to 10^7 ({@code 100.0}, {@code
   * 0.001}), else as {@code d.dddE-n} ({@code 1.0E7}, {@code 1.5E-5}); {@code NaN}, {@code
   * Infinity}, {@code -Infinity}. DuckDB's text is taken apart into its sign, its significant
   * digits {@code d} and the point's place {@code p} (the value is {@code 0.d} times 10^p).
   */
  private static RexNode javaNumberText(RexBuilder rex, RexCall call) {
    String parts =
        "regexp_extract(CAST({0} AS VARCHAR),"
            + " '^(-?)([0-9]+)(?:[.]([0-9]*))?(?:e([+-][0-9]+))?$', ['s', 'i', 'f', 'x'])";
    String digits = "(m['i'] || m['f'])";
    String point =
        "length(m['i']) + COALESCE(TRY_CAST(NULLIF(m['x'], '') AS INTEGER), 0) - (length("
            + digits
            + ") - length(ltrim("
            + digits
            + ", '0')))";
    String plain =
        "CASE WHEN n['d'] = '' THEN n['s'] || '0.0'"
            + " WHEN n['p'] - 1 < -3 OR n['p'] - 1 >= 7 THEN n['s'] || substr(n['d'], 1, 1) || '.'"
            + " || CASE WHEN length(n['d']) > 1 THEN substr(n['d'], 2) ELSE '0' END"
            + " || 'E' || CAST(n['p'] - 1 AS VARCHAR)"
            + " WHEN n['p'] <= 0 THEN n['s'] || '0.' || repeat('0', -n['p']) || n['d']"
            + " WHEN n['p'] >= length(n['d']) THEN n['s'] || n['d'] || repeat('0', n['p'] - length(n['d'])) || '.0'"
            + " ELSE n['s'] || substr(n['d'], 1, n['p']) || '.' || substr(n['d'], n['p'] + 1) END";
    return make(
        rex,
        call,
        "CASE WHEN {0} IS NULL THEN NULL WHEN isnan({0}) THEN 'NaN'"
            + " WHEN isinf({0}) THEN CASE WHEN {0} > 0 THEN 'Infinity' ELSE '-Infinity' END"
            + " ELSE list_transform([list_transform(["
            + parts
            + "], lambda m: struct_pack(s := m['s'], d := rtrim(ltrim("
            + digits
            + ", '0'), '0'), p := "
            + point
            + "))[1]], lambda n: "
            + plain
            + ")[1] END");
  }

  /**
   * {@code LOCATE(sub, s[, from])} and {@code POSITION(sub IN s)} ({@code StringFunctions#locate}):
   * the code-point position from 1 of {@code sub} at or after {@code from}, 0 if none, 1 for an
   * empty {@code sub}; NULL for any NULL operand. DuckDB's {@code strpos} counts code points too.
   */
  private static @Nullable RexNode locate(RexBuilder rex, RexCall call) {
    List<RexNode> ops = call.operands;
    if (call.getOperator() != io.calcitebridge.functions.StringFunctions.LOCATE
        || !strings(ops.subList(0, 2))) {
      return null;
    }
    if (ops.size() == 2) {
      return make(
          rex,
          call,
          "CASE WHEN {0} IS NULL OR {1} IS NULL THEN NULL WHEN {0} = '' THEN 1"
              + " ELSE CAST(strpos({1}, {0}) AS INTEGER) END");
    }
    String start = "(CASE WHEN {2} < 1 THEN 1 ELSE {2} END)";
    String found = "strpos(substring({1}, " + start + "), {0})";
    return make(
        rex,
        call,
        "CASE WHEN {0} IS NULL OR {1} IS NULL OR {2} IS NULL THEN NULL WHEN {0} = '' THEN 1"
            + " WHEN "
            + start
            + " - 1 > length({1}) THEN 0 WHEN "
            + found
            + " = 0 THEN 0 ELSE CAST("
            + found
            + " + "
            + start
            + " - 1 AS INTEGER) END");
  }

  private static boolean strings(List<RexNode> ops) {
    return ops.stream().allMatch(o -> SqlTypeFamily.CHARACTER.contains(o.getType()));
  }

  static @Nullable TimeUnitRange unit(RexNode node) {
    return node instanceof RexLiteral literal && literal.getValue() instanceof TimeUnitRange unit
        ? unit
        : null;
  }

  /**
   * A cast to {@code VARCHAR(n)} of a value whose text may be longer: Flink keeps its first {@code
   * n} characters, where DuckDB's VARCHAR has no length and keeps them all. Only for the values
   * whose text DuckDB writes as Flink does (strings, integers, dates; the whitelist refuses casts
   * of the others to strings).
   */
  private static @Nullable RexNode shortened(RexBuilder rex, RexCall cast) {
    RelDataType to = cast.getType();
    RelDataType from = cast.operands.get(0).getType();
    int n = to.getPrecision();
    if (to.getSqlTypeName() != SqlTypeName.VARCHAR
        || n == RelDataType.PRECISION_NOT_SPECIFIED
        || n >= rex.getTypeFactory().getTypeSystem().getMaxPrecision(SqlTypeName.VARCHAR)) {
      return null;
    }
    boolean text = SqlTypeFamily.CHARACTER.contains(from);
    if (text
        && from.getPrecision() != RelDataType.PRECISION_NOT_SPECIFIED
        && from.getPrecision() <= n) {
      return null;
    }
    if (!text
        && !SqlTypeFamily.INTEGER.contains(from)
        && from.getSqlTypeName() != SqlTypeName.DATE) {
      return null;
    }
    return make(rex, cast, "left(CAST({0} AS VARCHAR), " + n + ")");
  }

  private static RexNode make(RexBuilder rex, RexCall call, String template) {
    String name = call.getOperator().getName();
    return template(rex, call.getType(), new DuckDbTemplate(name, template), call.operands);
  }

  /**
   * The call of {@code template}; a NULL literal operand is written as a cast to its type, as
   * DuckDB cannot choose among a function's overloads for an untyped NULL ({@code date_part('hour',
   * NULL)}).
   */
  private static RexNode template(
      RexBuilder rex, RelDataType type, DuckDbTemplate template, List<RexNode> operands) {
    List<RexNode> typed = new java.util.ArrayList<>(operands.size());
    for (RexNode operand : operands) {
      typed.add(
          operand instanceof RexLiteral literal
                  && literal.isNull()
                  && DuckDbDialect.typeName(operand.getType()) != null
              ? rex.makeAbstractCast(operand.getType(), operand, false)
              : operand);
    }
    return rex.makeCall(type, template, typed);
  }
}

package io.calcitebridge.functions;

import static io.calcitebridge.functions.Fn.strict;

import org.apache.calcite.avatica.util.DateTimeUtils;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;

/**
 * The conversions of a {@code TIMESTAMP(p)} held in finer units than milliseconds on Calcite's
 * engine: microseconds for {@code p} 4 to 6, nanoseconds for 7 to 9 (see {@code arrow.TimeUnits}).
 * Calcite's own code for casts, intervals and date-time functions counts milliseconds; the plan
 * pass {@code plan.Timestamps} converts around it with these. Not callable from SQL.
 */
public final class TimestampTicks {
  private TimestampTicks() {}

  private static final Class<?> C = TimestampTicks.class;

  /**
   * {@code $TS_RESCALE(v, from, to)}: a timestamp counted in {@code 1/from} milliseconds, counted
   * in {@code 1/to} milliseconds; a coarser count rounds towards negative infinity. Its type is
   * given by the caller.
   */
  public static final SqlOperator RESCALE =
      strict("$TS_RESCALE", ReturnTypes.ARG0, OperandTypes.ANY, C, "rescale");

  /**
   * {@code $TS_RESCALE_UP(v, from, to)}: as {@link #RESCALE}, rounding towards positive infinity.
   */
  public static final SqlOperator RESCALE_UP =
      strict("$TS_RESCALE_UP", ReturnTypes.ARG0, OperandTypes.ANY, C, "rescaleUp");

  /**
   * {@code $TS_WIDEN(millis, per, below)}: a timestamp of {@code millis} milliseconds and {@code
   * below} ticks, counted in {@code 1/per} milliseconds.
   */
  public static final SqlOperator WIDEN =
      strict("$TS_WIDEN", ReturnTypes.ARG0, OperandTypes.ANY, C, "widen");

  /**
   * {@code $TS_BELOW_MILLI(v, per, units)}: the part of a timestamp counted in {@code 1/per}
   * milliseconds below its millisecond, in {@code 1/units} milliseconds.
   */
  public static final SqlOperator BELOW_MILLI =
      strict("$TS_BELOW_MILLI", ReturnTypes.BIGINT, OperandTypes.ANY, C, "belowMilli");

  /**
   * {@code $TS_PARSE(text, precision)}: a string read as a {@code TIMESTAMP(precision)}, its
   * fraction of a second cut to {@code precision} digits, as Flink does; the text is read as
   * Calcite's cast reads it.
   */
  public static final SqlOperator PARSE =
      strict("$TS_PARSE", ReturnTypes.ARG0, OperandTypes.ANY, C, "parse");

  /** {@code $TS_TICKS(v)}: the {@code BIGINT} {@code v} as a timestamp of the call's type. */
  public static final SqlOperator TICKS =
      strict("$TS_TICKS", ReturnTypes.ARG0, OperandTypes.ANY, C, "ticks");

  public static long rescale(long v, long from, long to) {
    if (from == to) {
      return v;
    }
    return to > from ? Math.multiplyExact(v, to / from) : Math.floorDiv(v, from / to);
  }

  public static long rescaleUp(long v, long from, long to) {
    if (from <= to) {
      return rescale(v, from, to);
    }
    return Math.floorDiv(v, from / to) + (Math.floorMod(v, from / to) == 0 ? 0 : 1);
  }

  public static long widen(long millis, long per, long below) {
    return Math.addExact(Math.multiplyExact(millis, per), below);
  }

  public static long belowMilli(long v, long per, long units) {
    long below = Math.floorMod(v, per);
    return units >= per ? below * (units / per) : below / (per / units);
  }

  public static long ticks(long v) {
    return v;
  }

  public static long parse(String text, int precision) {
    String trimmed = text.trim();
    long millis = DateTimeUtils.timestampStringToUnixDate(TemporalFunctions.timestampText(trimmed));
    long per = io.calcitebridge.types.ArrowTypes.ticksPerMilli(precision);
    long ticks = Math.multiplyExact(millis, per);
    int dot = trimmed.indexOf('.');
    if (dot < 0 || per == 1L) {
      return ticks;
    }
    // The digits past the third of the fraction, as many as the precision keeps.
    int digits = 0;
    long below = 0;
    int perDigits = per == 1_000L ? 3 : 6;
    for (int i = dot + 4; i < trimmed.length() && digits < perDigits; i++) {
      char c = trimmed.charAt(i);
      if (c < '0' || c > '9') {
        break;
      }
      below = below * 10 + (c - '0');
      digits++;
    }
    if (dot + 4 > trimmed.length()) {
      return ticks;
    }
    for (; digits < perDigits; digits++) {
      below *= 10;
    }
    long kept = pow10(perDigits - Math.max(0, Math.min(perDigits, precision - 3)));
    return ticks + below / kept * kept;
  }

  private static long pow10(int n) {
    long p = 1;
    for (int i = 0; i < n; i++) {
      p *= 10;
    }
    return p;
  }
}

package io.calcitebridge.functions;

import static io.calcitebridge.functions.Fn.Nulls.ALWAYS;
import static io.calcitebridge.functions.Fn.Nulls.ANY;
import static io.calcitebridge.functions.Fn.Nulls.NEVER;
import static io.calcitebridge.functions.Fn.of;
import static io.calcitebridge.functions.Fn.strict;
import static io.calcitebridge.functions.Fn.string;

import java.math.BigDecimal;
import java.text.ParseException;
import java.text.SimpleDateFormat;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.ResolverStyle;
import java.time.temporal.ChronoField;
import java.time.temporal.TemporalAccessor;
import java.time.temporal.TemporalQueries;
import java.util.Date;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TimeZone;
import org.apache.calcite.DataContext;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.fun.SqlAbstractTimeFunction;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.SqlOperandTypeChecker;
import org.apache.calcite.sql.type.SqlReturnTypeInference;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Flink's temporal functions. A {@code TIMESTAMP} value is the milliseconds of its wall-clock time,
 * a {@code TIMESTAMP_LTZ} value the milliseconds of its instant since the epoch; the functions that
 * show an instant as a wall-clock time or read one as an instant ({@code FROM_UNIXTIME}, {@code
 * UNIX_TIMESTAMP}, {@code DATE_FORMAT} of a {@code TIMESTAMP_LTZ}) do so in the session's {@code
 * table.local-time-zone}. Patterns are Java's {@link DateTimeFormatter}'s, as Flink's are, except
 * where Flink reads or writes with a {@link SimpleDateFormat} ({@code UNIX_TIMESTAMP}, {@code
 * FROM_UNIXTIME}, {@code TO_DATE}, {@code CONVERT_TZ}, {@code DATE_FORMAT} of a string): there its
 * rules hold too, a prefix that parses is enough, a wall-clock time that a change to daylight
 * saving time repeats is the later instant, and only {@code TO_DATE} refuses a day past the end of
 * its month. A string that does not parse gives NULL, except in {@code UNIX_TIMESTAMP}, which gives
 * {@link Long#MIN_VALUE} as Flink does.
 *
 * <p>{@code CURRENT_TIMESTAMP} is a {@code TIMESTAMP_LTZ(3)} and {@code LOCALTIMESTAMP} a {@code
 * TIMESTAMP(3)}, as in Flink: they replace Calcite's standard operators of those names ({@link
 * #REPLACED}).
 */
public final class TemporalFunctions {
  private TemporalFunctions() {}

  private static final Class<?> C = TemporalFunctions.class;

  private static SqlReturnTypeInference ltz3(Fn.Nulls nulls) {
    return Fn.type(f -> f.createSqlType(SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE, 3), nulls);
  }

  private static final SqlOperandTypeChecker SS =
      OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER);

  public static final SqlOperator NOW = strict("NOW", ltz3(NEVER), OperandTypes.NILADIC, C, "now");

  public static final SqlOperator CURRENT_ROW_TIMESTAMP =
      strict("CURRENT_ROW_TIMESTAMP", ltz3(NEVER), OperandTypes.NILADIC, C, "currentRowTimestamp");

  /**
   * {@code DATE_FORMAT(timestamp, pattern)} and {@code DATE_FORMAT(string, pattern)}; a {@code
   * TIMESTAMP_LTZ} operand is cast to {@code TIMESTAMP} (its wall-clock time in the session zone)
   * when SQL is converted ({@link #localized}).
   */
  public static final SqlOperator DATE_FORMAT =
      strict(
          "DATE_FORMAT",
          string(ALWAYS),
          Fn.notDateOrTime(
              OperandTypes.or(
                  OperandTypes.family(SqlTypeFamily.TIMESTAMP, SqlTypeFamily.CHARACTER), SS)),
          C,
          "dateFormat");

  public static final SqlOperator CONVERT_TZ =
      strict(
          "CONVERT_TZ",
          string(ALWAYS),
          OperandTypes.family(
              SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER),
          C,
          "convertTz");

  public static final SqlOperator FROM_UNIXTIME =
      strict(
          "FROM_UNIXTIME",
          string(ALWAYS),
          OperandTypes.or(
              OperandTypes.family(SqlTypeFamily.INTEGER),
              OperandTypes.family(SqlTypeFamily.INTEGER, SqlTypeFamily.CHARACTER)),
          C,
          "fromUnixtime");

  public static final SqlOperator UNIX_TIMESTAMP =
      strict(
          "UNIX_TIMESTAMP",
          b ->
              b.getTypeFactory()
                  .createTypeWithNullability(
                      b.getTypeFactory().createSqlType(SqlTypeName.BIGINT),
                      b.collectOperandTypes().stream().anyMatch(RelDataType::isNullable)),
          OperandTypes.or(OperandTypes.NILADIC, OperandTypes.CHARACTER, SS),
          C,
          "unixTimestamp");

  public static final SqlOperator TO_DATE =
      strict(
          "TO_DATE",
          of(SqlTypeName.DATE, ALWAYS),
          OperandTypes.or(OperandTypes.CHARACTER, SS),
          C,
          "toDate");

  public static final SqlOperator TO_TIMESTAMP =
      strict(
          "TO_TIMESTAMP",
          Fn.type(f -> f.createSqlType(SqlTypeName.TIMESTAMP, 3), ALWAYS),
          OperandTypes.or(OperandTypes.CHARACTER, SS),
          C,
          "toTimestamp");

  public static final SqlOperator TO_TIMESTAMP_LTZ =
      strict(
          "TO_TIMESTAMP_LTZ",
          ltz3(ALWAYS),
          OperandTypes.or(
              OperandTypes.NUMERIC,
              OperandTypes.family(SqlTypeFamily.NUMERIC, SqlTypeFamily.INTEGER),
              OperandTypes.CHARACTER,
              SS,
              OperandTypes.family(
                  SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER)),
          C,
          "toTimestampLtz");

  /** Flink's {@code CURRENT_TIMESTAMP}: {@code TIMESTAMP_LTZ(3)}, converted to {@link #NOW}. */
  public static final SqlOperator CURRENT_TIMESTAMP =
      new TimeFunction("CURRENT_TIMESTAMP", SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE);

  /**
   * Flink's {@code LOCALTIMESTAMP}: {@code TIMESTAMP(3)}, converted to Calcite's, which reads the
   * query's start time in the session zone.
   */
  public static final SqlOperator LOCALTIMESTAMP =
      new TimeFunction("LOCALTIMESTAMP", SqlTypeName.TIMESTAMP);

  /**
   * {@code CAST} of a {@code TIMESTAMP} (a wall-clock time in the session zone) to {@code
   * TIMESTAMP_LTZ}, keeping its milliseconds (Calcite's goes through text without them). Not
   * callable from SQL: {@code CAST}s convert to it.
   */
  public static final SqlOperator TIMESTAMP_TO_LTZ =
      strict("CAST_TIMESTAMP_TO_LTZ", ltz3(ANY), OperandTypes.ANY, C, "timestampToLtz");

  /** {@code CAST} of a {@code TIMESTAMP_LTZ} to {@code TIMESTAMP}, its wall-clock time. */
  public static final SqlOperator LTZ_TO_TIMESTAMP =
      strict(
          "CAST_LTZ_TO_TIMESTAMP",
          Fn.type(f -> f.createSqlType(SqlTypeName.TIMESTAMP, 3), ANY),
          OperandTypes.ANY,
          C,
          "ltzToTimestamp");

  /**
   * {@code CAST} of a {@code TIMESTAMP_LTZ(p)} to a string, Flink's text: the wall-clock time with
   * {@code p} fractional digits.
   */
  public static final SqlOperator LTZ_TO_STRING =
      strict("CAST_LTZ_TO_STRING", string(ANY), OperandTypes.ANY, C, "ltzToString");

  /**
   * The text a {@code CAST} of a string to {@code TIMESTAMP} parses: its fraction of a second cut
   * to the milliseconds the engine keeps. Calcite's parse rounds the digits past the third, so
   * {@code '00:09:59.9995'} became 00:10:00, in another second (and minute) than the text's; Flink
   * cuts. Not callable from SQL: {@code CAST}s of strings convert to it.
   */
  public static final SqlOperator TIMESTAMP_TEXT =
      strict(
          "CAST_STRING_TO_TIMESTAMP_TEXT", string(ANY), OperandTypes.CHARACTER, C, "timestampText");

  private static final java.util.regex.Pattern PAST_MILLISECONDS =
      java.util.regex.Pattern.compile("(:\\d{1,2}\\.\\d{3})\\d+");

  /** {@code text} without the digits of its fraction of a second past the third. */
  public static String timestampText(String text) {
    return text.indexOf('.') < 0 ? text : PAST_MILLISECONDS.matcher(text).replaceFirst("$1");
  }

  /** {@code text} without the digits of its fraction of a second past the {@code digits}th. */
  public static String timestampText(String text, int digits) {
    if (digits <= 3) {
      return timestampText(text);
    }
    return text.indexOf('.') < 0
        ? text
        : java.util.regex.Pattern.compile("(:\\d{1,2}\\.\\d{" + digits + "})\\d+")
            .matcher(text)
            .replaceFirst("$1");
  }

  /**
   * {@code CAST(ts AS STRING)} of a {@code TIMESTAMP(p)}, {@code p > 0}, as Flink writes it: with
   * {@code p} digits of fraction ({@code 2023-01-02 10:11:12.500} for a {@code TIMESTAMP(3)});
   * Calcite's cast dropped the fraction. Operands: the timestamp and {@code p}.
   */
  public static final SqlOperator TIMESTAMP_TO_STRING =
      strict("CAST", string(ANY), OperandTypes.ANY_ANY, C, "timestampToString");

  /**
   * {@code CAST(t AS STRING)} of a {@code TIME(p)}, {@code p > 0}, as Flink writes it: the
   * fraction's {@code p} digits without their trailing zeros, one digit at least ({@code
   * 01:02:03.45} and {@code 01:02:03.0} for a {@code TIME(3)}); Calcite's cast dropped the
   * fraction. Operands: the time and {@code p}.
   */
  public static final SqlOperator TIME_TO_STRING =
      strict("CAST", string(ANY), OperandTypes.ANY_ANY, C, "timeToString");

  /** Calcite's standard operators that the ones of this class replace. */
  public static final Set<SqlOperator> REPLACED =
      Set.of(SqlStdOperatorTable.CURRENT_TIMESTAMP, SqlStdOperatorTable.LOCALTIMESTAMP);

  /** The functions whose {@code TIMESTAMP_LTZ} operands are cast to {@code TIMESTAMP}. */
  public static final Set<SqlOperator> LOCALIZED = Set.of(DATE_FORMAT);

  public static final List<SqlOperator> ALL =
      List.of(
          NOW,
          CURRENT_ROW_TIMESTAMP,
          DATE_FORMAT,
          CONVERT_TZ,
          FROM_UNIXTIME,
          UNIX_TIMESTAMP,
          TO_DATE,
          TO_TIMESTAMP,
          TO_TIMESTAMP_LTZ,
          CURRENT_TIMESTAMP,
          LOCALTIMESTAMP);

  /** A time function of Flink's type: precision 3 unless the call gives one. */
  private static final class TimeFunction extends SqlAbstractTimeFunction {
    private final SqlTypeName typeName;

    TimeFunction(String name, SqlTypeName typeName) {
      super(name, typeName);
      this.typeName = typeName;
    }

    @Override
    public RelDataType inferReturnType(SqlOperatorBinding b) {
      if (b.getOperandCount() == 1 && SqlTypeUtil.isNumeric(b.getOperandType(0))) {
        return super.inferReturnType(b);
      }
      return b.getTypeFactory().createSqlType(typeName, 3);
    }
  }

  // ---- implementations ---------------------------------------------------------------------

  /** The query's start time: the same throughout a query, as {@code CURRENT_TIMESTAMP}. */
  public static long now(DataContext root) {
    return DataContext.Variable.UTC_TIMESTAMP.get(root);
  }

  public static long timestampToLtz(TimeZone zone, long wallClock) {
    return wallClock(wallClock).atZone(zone.toZoneId()).toInstant().toEpochMilli();
  }

  public static long ltzToTimestamp(TimeZone zone, long instant) {
    return millis(LocalDateTime.ofInstant(Instant.ofEpochMilli(instant), zone.toZoneId()));
  }

  public static String ltzToString(TimeZone zone, long instant, int precision) {
    return ltzToString(zone, instant, precision, 1L);
  }

  /**
   * {@code CAST(l AS STRING)} of a {@code TIMESTAMP_LTZ(p)} held in {@code 1/per} milliseconds
   * ({@code TimestampTicks}): its wall-clock time in {@code zone}.
   */
  public static String ltzToString(TimeZone zone, long ticks, int precision, long per) {
    LocalDateTime t =
        LocalDateTime.ofInstant(wallClock(ticks, per).toInstant(ZoneOffset.UTC), zone.toZoneId());
    String text = formatter("yyyy-MM-dd HH:mm:ss").format(t);
    if (precision <= 0) {
      return text;
    }
    String fraction = String.format(Locale.ROOT, "%09d", t.getNano());
    return text + "." + fraction.substring(0, Math.min(precision, 9));
  }

  /** See {@link #TIME_TO_STRING}: {@code time} in milliseconds of the day. */
  public static String timeToString(int time, int precision) {
    int millis = Math.floorMod(time, 86_400_000);
    String text =
        String.format(
            Locale.ROOT,
            "%02d:%02d:%02d",
            millis / 3_600_000,
            millis / 60_000 % 60,
            millis / 1000 % 60);
    if (precision <= 0) {
      return text;
    }
    String fraction = String.format(Locale.ROOT, "%03d", millis % 1000);
    int end = Math.min(precision, fraction.length());
    while (end > 1 && fraction.charAt(end - 1) == '0') {
      end--;
    }
    return text + "." + fraction.substring(0, end);
  }

  public static String timestampToString(long timestamp, int precision) {
    return ltzToString(UTC, timestamp, precision, 1L);
  }

  /**
   * {@code CAST(ts AS STRING)} of a {@code TIMESTAMP(p)} held in {@code 1/per} milliseconds ({@code
   * TimestampTicks}).
   */
  public static String timestampToString(long ticks, int precision, long per) {
    return ltzToString(UTC, ticks, precision, per);
  }

  /** The wall-clock time of a {@code TIMESTAMP} held in {@code 1/per} milliseconds. */
  private static LocalDateTime wallClock(long ticks, long per) {
    long perSecond = 1000L * per;
    long nanosPerTick = 1_000_000L / per;
    return LocalDateTime.ofEpochSecond(
        Math.floorDiv(ticks, perSecond),
        (int) (Math.floorMod(ticks, perSecond) * nanosPerTick),
        ZoneOffset.UTC);
  }

  private static final TimeZone UTC = TimeZone.getTimeZone("UTC");

  public static long currentRowTimestamp() {
    return System.currentTimeMillis();
  }

  private static DateTimeFormatter formatter(String pattern) {
    return DateTimeFormatter.ofPattern(pattern, Locale.US);
  }

  /** Flink's text of a timestamp: a date, then optionally a time with optional fraction. */
  private static final DateTimeFormatter TIMESTAMP =
      new DateTimeFormatterBuilder()
          .appendPattern("uuuu-MM-dd")
          .optionalStart()
          .optionalStart()
          .appendLiteral(' ')
          .optionalEnd()
          .optionalStart()
          .appendLiteral('T')
          .optionalEnd()
          .appendPattern("HH:mm")
          .optionalStart()
          .appendPattern(":ss")
          .optionalStart()
          .appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true)
          .optionalEnd()
          .optionalEnd()
          .optionalEnd()
          .toFormatter(Locale.US);

  /**
   * Flink's text of a timestamp for {@code TO_TIMESTAMP}: a date whose month and day may have one
   * digit, then optionally a space and a time with seconds and an optional fraction; no {@code T}.
   */
  private static final DateTimeFormatter FLINK_TIMESTAMP =
      new DateTimeFormatterBuilder()
          .appendPattern("uuuu-[MM][M]-[dd][d]")
          .optionalStart()
          .appendPattern(" [HH][H]:[mm][m]:[ss][s]")
          .appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true)
          .optionalEnd()
          .toFormatter(Locale.US)
          .withResolverStyle(ResolverStyle.SMART);

  /** A {@link SimpleDateFormat} of {@code pattern} in {@code zone}, lenient or not. */
  private static SimpleDateFormat simple(String pattern, TimeZone zone, boolean lenient) {
    SimpleDateFormat f = new SimpleDateFormat(pattern, Locale.US);
    f.setTimeZone(zone);
    f.setLenient(lenient);
    return f;
  }

  /** The instant a string's prefix holds in {@code pattern} in {@code zone}, as Flink reads it. */
  private static @Nullable Date parseSimple(
      String s, String pattern, TimeZone zone, boolean lenient) {
    try {
      return simple(pattern, zone, lenient).parse(s);
    } catch (ParseException | IllegalArgumentException e) {
      return null;
    }
  }

  private static @Nullable String formatSimple(Date d, String pattern, TimeZone zone) {
    try {
      return simple(pattern, zone, true).format(d);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /** The date and time a string holds in {@code pattern}; midnight when it has no time. */
  private static @Nullable LocalDateTime parse(String s, @Nullable String pattern) {
    try {
      TemporalAccessor t = (pattern == null ? TIMESTAMP : formatter(pattern)).parse(s.trim());
      LocalDate date = t.query(TemporalQueries.localDate());
      if (date == null) {
        return null;
      }
      LocalTime time = t.query(TemporalQueries.localTime());
      return date.atTime(time == null ? LocalTime.MIDNIGHT : time);
    } catch (DateTimeException | IllegalArgumentException e) {
      return null;
    }
  }

  /** A date and time with a time of day: what DATE_FORMAT and CONVERT_TZ take as text. */
  private static @Nullable LocalDateTime parseDateTime(String s) {
    String t = s.trim();
    return t.length() > 10 ? parse(t, null) : null;
  }

  private static long millis(LocalDateTime t) {
    return t.toInstant(ZoneOffset.UTC).toEpochMilli();
  }

  private static LocalDateTime wallClock(long millis) {
    return LocalDateTime.ofInstant(Instant.ofEpochMilli(millis), ZoneOffset.UTC);
  }

  private static @Nullable String format(LocalDateTime t, String pattern) {
    try {
      return formatter(pattern).format(t);
    } catch (DateTimeException | IllegalArgumentException e) {
      return null;
    }
  }

  /** DATE_FORMAT of a TIMESTAMP held in {@code 1/per} milliseconds ({@code TimestampTicks}). */
  public static @Nullable String dateFormat(long timestamp, String pattern, long per) {
    return format(wallClock(timestamp, per), pattern);
  }

  /** DATE_FORMAT of a TIMESTAMP (its milliseconds). */
  public static @Nullable String dateFormat(long timestamp, String pattern) {
    return format(wallClock(timestamp), pattern);
  }

  /** DATE_FORMAT of a string: read as {@code yyyy-MM-dd HH:mm:ss}, leniently, as Flink does. */
  public static @Nullable String dateFormat(String timestamp, String pattern) {
    Date d = parseSimple(timestamp, "yyyy-MM-dd HH:mm:ss", UTC, true);
    return d == null ? null : formatSimple(d, pattern, UTC);
  }

  public static @Nullable String convertTz(String timestamp, String from, String to) {
    if (parseDateTime(timestamp) == null) {
      return null;
    }
    Date d = parseSimple(timestamp, "yyyy-MM-dd HH:mm:ss", TimeZone.getTimeZone(from), true);
    return d == null ? null : formatSimple(d, "yyyy-MM-dd HH:mm:ss", TimeZone.getTimeZone(to));
  }

  public static @Nullable String fromUnixtime(TimeZone zone, long seconds) {
    return fromUnixtime(zone, seconds, "yyyy-MM-dd HH:mm:ss");
  }

  public static @Nullable String fromUnixtime(TimeZone zone, long seconds, String pattern) {
    return formatSimple(new Date(Math.multiplyExact(seconds, 1000L)), pattern, zone);
  }

  public static long unixTimestamp(DataContext root) {
    return Math.floorDiv(now(root), 1000L);
  }

  public static long unixTimestamp(TimeZone zone, String s) {
    return unixTimestamp(zone, s, "yyyy-MM-dd HH:mm:ss");
  }

  public static long unixTimestamp(TimeZone zone, String s, String pattern) {
    Date d = parseSimple(s, pattern, zone, true);
    return d == null ? Long.MIN_VALUE : Math.floorDiv(d.getTime(), 1000L);
  }

  public static @Nullable Integer toDate(String s) {
    return toDate(s, "yyyy-MM-dd");
  }

  /** The date a string's prefix holds in {@code pattern}; NULL past the end of a month. */
  public static @Nullable Integer toDate(String s, String pattern) {
    Date d = parseSimple(s, pattern, UTC, false);
    return d == null ? null : Math.toIntExact(Math.floorDiv(d.getTime(), 86_400_000L));
  }

  public static @Nullable Long toTimestamp(String s) {
    try {
      TemporalAccessor t = FLINK_TIMESTAMP.parse(s);
      LocalTime time = t.query(TemporalQueries.localTime());
      LocalDate date = t.query(TemporalQueries.localDate());
      return date == null ? null : millis(date.atTime(time == null ? LocalTime.MIDNIGHT : time));
    } catch (DateTimeException e) {
      return null;
    }
  }

  public static @Nullable Long toTimestamp(String s, String pattern) {
    LocalDateTime t = parse(s, pattern);
    return t == null ? null : millis(t);
  }

  /** TO_TIMESTAMP_LTZ of a number of milliseconds. */
  public static long toTimestampLtz(BigDecimal millis) {
    return millis.longValue();
  }

  /** TO_TIMESTAMP_LTZ of a number of seconds (precision 0) or milliseconds (3). */
  public static @Nullable Long toTimestampLtz(BigDecimal value, int precision) {
    long v = value.longValue();
    switch (precision) {
      case 0:
        return Math.multiplyExact(v, 1000L);
      case 3:
        return v;
      default:
        return null;
    }
  }

  /** TO_TIMESTAMP_LTZ of a string in Flink's default format, in UTC. */
  public static @Nullable Long toTimestampLtz(String s) {
    LocalDateTime t = parse(s, null);
    return t == null ? null : millis(t);
  }

  public static @Nullable Long toTimestampLtz(String s, String pattern) {
    LocalDateTime t = parse(s, pattern);
    return t == null ? null : millis(t);
  }

  public static @Nullable Long toTimestampLtz(String s, String pattern, String zone) {
    LocalDateTime t = parse(s, pattern);
    return t == null
        ? null
        : t.atZone(TimeZone.getTimeZone(zone).toZoneId()).toInstant().toEpochMilli();
  }
}

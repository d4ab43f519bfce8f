package io.calcitebridge.dyncol;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The conversions of {@code COLUMN_GET(blob, name AS type)}, value for value as MariaDB makes them:
 * {@code '42x'} as INT is 42, {@code 'abc'} is 0, {@code 3.9} is 4; a value that does not convert
 * to a temporal type is NULL. Methods return null for NULL.
 */
public final class DynConvert {
  private DynConvert() {}

  private static final BigInteger TWO_64 = BigInteger.ONE.shiftLeft(64);

  /** The value converted to {@code type}: Long, BigDecimal, Double, String, byte[] or DynTime. */
  public static Object convert(DynValue v, DynType type) {
    if (v == null || v.isNull()) {
      return null;
    }
    switch (type.kind) {
      case INT:
        return toLong(v);
      case UNSIGNED:
        return toUnsigned(v);
      case DOUBLE:
        return toDouble(v);
      case DECIMAL:
        return toDecimal(v, type.length, type.scale);
      case CHAR:
        return toChar(v, type.length);
      case BINARY:
        return toBinary(v, type.length);
      case DATE:
        return toDate(v);
      case TIME:
        return toTime(v, Math.max(type.length, 0));
      case DATETIME:
        return toDateTime(v, Math.max(type.length, 0));
      default:
        throw new AssertionError(type);
    }
  }

  /** The text MariaDB shows for a stored value (COLUMN_JSON's and AS CHAR's rendering). */
  public static String toText(DynValue v) {
    return v.toText();
  }

  /**
   * A double as MariaDB's my_gcvt prints it: the shortest digits that read back, in fixed notation
   * unless the decimal exponent passes 15 or the fixed form would not fit in 39 characters.
   */
  public static String formatDouble(double x) {
    return DynValue.formatDouble(x);
  }

  // ----------------------------------------------------------------- numbers

  /** my_strtoll10-like prefix parse: spaces, sign, digits; stops at the first other byte. */
  static BigInteger leadingInteger(String s) {
    int i = 0;
    int n = s.length();
    while (i < n && Character.isWhitespace(s.charAt(i))) {
      i++;
    }
    boolean neg = false;
    if (i < n && (s.charAt(i) == '-' || s.charAt(i) == '+')) {
      neg = s.charAt(i) == '-';
      i++;
    }
    int start = i;
    while (i < n && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
      i++;
    }
    if (i == start) {
      return BigInteger.ZERO;
    }
    BigInteger v = new BigInteger(s.substring(start, i));
    return neg ? v.negate() : v;
  }

  private static final Pattern NUMBER =
      Pattern.compile("^\\s*([-+]?(?:\\d+(?:\\.\\d*)?|\\.\\d+)(?:[eE][-+]?\\d+)?)");

  /** strtod-like prefix parse; 0 when no number starts the string. */
  static BigDecimal leadingDecimal(String s) {
    Matcher m = NUMBER.matcher(s);
    if (!m.find()) {
      return BigDecimal.ZERO;
    }
    String t = m.group(1);
    if (t.endsWith(".")) {
      t = t.substring(0, t.length() - 1);
    }
    try {
      return new BigDecimal(t);
    } catch (NumberFormatException e) {
      return BigDecimal.ZERO;
    }
  }

  private static long clampLong(BigInteger v) {
    if (v.bitLength() > 63) {
      return v.signum() < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
    return v.longValue();
  }

  private static long temporalNumber(DynTime t) {
    long n;
    switch (t.kind) {
      case DATE:
        n = t.year * 10000L + t.month * 100L + t.day;
        break;
      case TIME:
        n = t.hour * 10000L + t.minute * 100L + t.second;
        break;
      default:
        n =
            t.year * 10000000000L
                + t.month * 100000000L
                + t.day * 1000000L
                + t.hour * 10000L
                + t.minute * 100L
                + t.second;
    }
    return t.negative ? -n : n;
  }

  private static BigDecimal temporalDecimal(DynTime t) {
    BigDecimal n = BigDecimal.valueOf(temporalNumber(t));
    if (t.micros != 0 && t.kind != DynTime.Kind.DATE) {
      BigDecimal f = BigDecimal.valueOf(t.micros, 6).stripTrailingZeros();
      n = t.negative ? n.subtract(f) : n.add(f);
    }
    return n;
  }

  public static Long toLong(DynValue v) {
    switch (v.type) {
      case INT:
      case UINT:
        return v.longValue();
      case DOUBLE:
        {
          double d = Math.rint((Double) v.value);
          if (d >= 9.223372036854775807E18) {
            return Long.MAX_VALUE;
          }
          if (d <= -9.223372036854775808E18) {
            return Long.MIN_VALUE;
          }
          return (long) d;
        }
      case STRING:
        return clampLong(leadingInteger(v.text()));
      case DECIMAL:
        return clampLong(((BigDecimal) v.value).setScale(0, RoundingMode.HALF_UP).toBigInteger());
      case DATE:
      case TIME:
      case DATETIME:
        return temporalNumber((DynTime) v.value);
      default:
        return null;
    }
  }

  /** UNSIGNED: the value modulo 2^64, as a BigDecimal. */
  public static BigDecimal toUnsigned(DynValue v) {
    BigInteger b;
    switch (v.type) {
      case UINT:
        b = v.unsignedValue();
        break;
      case STRING:
        {
          BigInteger x = leadingInteger(v.text());
          if (x.signum() >= 0 && x.bitLength() > 64) {
            b = TWO_64.subtract(BigInteger.ONE);
          } else {
            b = x.signum() < 0 ? x.add(TWO_64) : x;
          }
          break;
        }
      case DOUBLE:
        {
          double d = Math.rint((Double) v.value);
          if (d < 0) {
            return BigDecimal.ZERO;
          }
          if (d >= 1.8446744073709552E19) {
            return new BigDecimal(TWO_64.subtract(BigInteger.ONE));
          }
          b = new BigDecimal(d).toBigInteger();
          break;
        }
      case DECIMAL:
        {
          BigInteger x = ((BigDecimal) v.value).setScale(0, RoundingMode.HALF_UP).toBigInteger();
          if (x.signum() < 0) {
            return BigDecimal.ZERO;
          }
          b = x.bitLength() > 64 ? TWO_64.subtract(BigInteger.ONE) : x;
          break;
        }
      default:
        {
          Long l = toLong(v);
          if (l == null) {
            return null;
          }
          b = BigInteger.valueOf(l);
          if (b.signum() < 0) {
            b = b.add(TWO_64);
          }
        }
    }
    return new BigDecimal(b);
  }

  public static Double toDouble(DynValue v) {
    switch (v.type) {
      case INT:
        return (double) v.longValue();
      case UINT:
        return v.unsignedValue().doubleValue();
      case DOUBLE:
        return (Double) v.value;
      case STRING:
        return leadingDecimal(v.text()).doubleValue();
      case DECIMAL:
        return ((BigDecimal) v.value).doubleValue();
      case DATE:
      case TIME:
      case DATETIME:
        return temporalDecimal((DynTime) v.value).doubleValue();
      default:
        return null;
    }
  }

  public static BigDecimal toDecimal(DynValue v, int precision, int scale) {
    BigDecimal d;
    switch (v.type) {
      case INT:
        d = BigDecimal.valueOf(v.longValue());
        break;
      case UINT:
        d = new BigDecimal(v.unsignedValue());
        break;
      case DOUBLE:
        d = new BigDecimal(Double.toString((Double) v.value));
        break;
      case STRING:
        d = leadingDecimal(v.text());
        break;
      case DECIMAL:
        d = (BigDecimal) v.value;
        break;
      case DATE:
      case TIME:
      case DATETIME:
        d = temporalDecimal((DynTime) v.value);
        break;
      default:
        return null;
    }
    d = d.setScale(scale, RoundingMode.HALF_UP);
    BigDecimal max = BigDecimal.TEN.pow(precision).subtract(BigDecimal.ONE).movePointLeft(scale);
    if (d.abs().compareTo(max) > 0) {
      d = d.signum() < 0 ? max.negate() : max;
    }
    return d;
  }

  public static String toChar(DynValue v, int length) {
    String s = toText(v);
    if (s == null) {
      return null;
    }
    if (length >= 0 && s.codePointCount(0, s.length()) > length) {
      s = s.substring(0, s.offsetByCodePoints(0, length));
    }
    return s;
  }

  public static byte[] toBinary(DynValue v, int length) {
    byte[] b;
    if (v.type == DynValue.Type.STRING || v.type == DynValue.Type.DYNCOL) {
      b = (byte[]) v.value;
    } else {
      String s = toText(v);
      if (s == null) {
        return null;
      }
      b = s.getBytes(StandardCharsets.UTF_8);
    }
    if (length >= 0 && b.length != length) {
      b = Arrays.copyOf(b, length);
    }
    return b.clone();
  }

  // ---------------------------------------------------------------- temporal

  private static final Pattern DATETIME_TEXT =
      Pattern.compile(
          "^\\s*(\\d{1,4})[-/.:](\\d{1,2})[-/.:](\\d{1,2})"
              + "(?:(?:\\s+|T)(\\d{1,2})(?::(\\d{1,2})(?::(\\d{1,2})(?:\\.(\\d*))?)?)?)?");

  private static final Pattern TIME_TEXT =
      Pattern.compile(
          "^\\s*(-)?(?:(\\d+)\\s+)?(\\d{1,3}):(\\d{1,2})(?::(\\d{1,2})(?:\\.(\\d*))?)?");

  private static int micros(String frac, int digits) {
    if (frac == null || frac.isEmpty()) {
      return 0;
    }
    String f = (frac + "000000").substring(0, 6);
    int m = Integer.parseInt(f);
    int cut = (int) Math.pow(10, 6 - digits);
    return m / cut * cut;
  }

  private static int year2(int y, int len) {
    if (len <= 2) {
      return y < 70 ? 2000 + y : 1900 + y;
    }
    return y;
  }

  private static DynTime validDate(int y, int mo, int d) {
    if (mo < 1 || mo > 12 || d < 1 || d > 31 || y > 9999) {
      return null;
    }
    if (d > java.time.YearMonth.of(Math.max(y, 1), mo).lengthOfMonth()) {
      return null;
    }
    return DynTime.date(y, mo, d);
  }

  /** Parses a date or datetime text; null if it is not one. */
  static DynTime parseDateTime(String s, int digits) {
    Matcher m = DATETIME_TEXT.matcher(s);
    if (m.find()) {
      DynTime date =
          validDate(
              year2(Integer.parseInt(m.group(1)), m.group(1).length()),
              Integer.parseInt(m.group(2)),
              Integer.parseInt(m.group(3)));
      if (date == null) {
        return null;
      }
      int h = m.group(4) == null ? 0 : Integer.parseInt(m.group(4));
      int mi = m.group(5) == null ? 0 : Integer.parseInt(m.group(5));
      int se = m.group(6) == null ? 0 : Integer.parseInt(m.group(6));
      if (h > 23 || mi > 59 || se > 59) {
        return null;
      }
      return DynTime.datetime(
          date.year, date.month, date.day, h, mi, se, micros(m.group(7), digits));
    }
    String t = s.trim();
    if (t.matches("\\d{8}|\\d{14}|\\d{6}|\\d{12}")) {
      return fromNumber(Long.parseLong(t), digits);
    }
    return null;
  }

  /** A number YYYYMMDD, YYMMDD, YYYYMMDDhhmmss or YYMMDDhhmmss as a datetime. */
  static DynTime fromNumber(long n, int digits) {
    if (n <= 0) {
      return null;
    }
    long date = n;
    long time = 0;
    if (n >= 10000101000000L || (n >= 100000000L && n < 10000101L * 1000000)) {
      date = n / 1000000;
      time = n % 1000000;
    }
    int y = (int) (date / 10000);
    int mo = (int) (date / 100 % 100);
    int d = (int) (date % 100);
    if (date < 1000000) {
      y = year2(y, 2);
    }
    DynTime dt = validDate(y, mo, d);
    if (dt == null) {
      return null;
    }
    int h = (int) (time / 10000);
    int mi = (int) (time / 100 % 100);
    int se = (int) (time % 100);
    if (h > 23 || mi > 59 || se > 59) {
      return null;
    }
    return DynTime.datetime(y, mo, d, h, mi, se, 0);
  }

  public static DynTime toDate(DynValue v) {
    DynTime t = toDateTime(v, 0);
    return t == null ? null : DynTime.date(t.year, t.month, t.day);
  }

  public static DynTime toDateTime(DynValue v, int digits) {
    switch (v.type) {
      case DATE:
      case DATETIME:
        {
          DynTime t = (DynTime) v.value;
          if (t.month == 0 || t.day == 0) {
            return null;
          }
          int cut = (int) Math.pow(10, 6 - digits);
          return DynTime.datetime(
              t.year, t.month, t.day, t.hour, t.minute, t.second, t.micros / cut * cut);
        }
      case STRING:
        return parseDateTime(v.text(), digits);
      case INT:
      case UINT:
        return fromNumber(v.longValue(), digits);
      case DECIMAL:
      case DOUBLE:
        {
          BigDecimal d =
              v.type == DynValue.Type.DECIMAL
                  ? (BigDecimal) v.value
                  : new BigDecimal(Double.toString((Double) v.value));
          if (d.signum() < 0) {
            return null;
          }
          DynTime t = fromNumber(d.longValue(), digits);
          if (t == null) {
            return null;
          }
          int cut = (int) Math.pow(10, 6 - digits);
          int frac = d.remainder(BigDecimal.ONE).movePointRight(6).intValue();
          int m = frac / cut * cut;
          return DynTime.datetime(t.year, t.month, t.day, t.hour, t.minute, t.second, m);
        }
      default:
        return null;
    }
  }

  public static DynTime toTime(DynValue v, int digits) {
    int cut = (int) Math.pow(10, 6 - digits);
    switch (v.type) {
      case TIME:
      case DATETIME:
        {
          DynTime t = (DynTime) v.value;
          return DynTime.time(t.negative, t.hour, t.minute, t.second, t.micros / cut * cut);
        }
      case DATE:
        return DynTime.time(false, 0, 0, 0, 0);
      case STRING:
        {
          String s = v.text();
          Matcher dt = DATETIME_TEXT.matcher(s);
          if (dt.find() && dt.group(4) != null) {
            DynTime t = parseDateTime(s, digits);
            return t == null ? null : DynTime.time(false, t.hour, t.minute, t.second, t.micros);
          }
          Matcher m = TIME_TEXT.matcher(s);
          if (m.find()) {
            int days = m.group(2) == null ? 0 : Integer.parseInt(m.group(2));
            int h = Integer.parseInt(m.group(3)) + 24 * days;
            int mi = Integer.parseInt(m.group(4));
            int se = m.group(5) == null ? 0 : Integer.parseInt(m.group(5));
            if (mi > 59 || se > 59 || h > 838) {
              return null;
            }
            return DynTime.time(m.group(1) != null, h, mi, se, micros(m.group(6), digits));
          }
          String t = s.trim();
          if (t.matches("-?\\d+(\\.\\d*)?")) {
            return timeFromNumber(new BigDecimal(t.endsWith(".") ? t + "0" : t), digits);
          }
          return null;
        }
      case INT:
        return timeFromNumber(BigDecimal.valueOf(v.longValue()), digits);
      case UINT:
        return timeFromNumber(new BigDecimal(v.unsignedValue()), digits);
      case DECIMAL:
        return timeFromNumber((BigDecimal) v.value, digits);
      case DOUBLE:
        return timeFromNumber(new BigDecimal(Double.toString((Double) v.value)), digits);
      default:
        return null;
    }
  }

  private static DynTime timeFromNumber(BigDecimal d, int digits) {
    boolean neg = d.signum() < 0;
    d = d.abs();
    long n = d.longValue();
    if (n > 8385959) {
      return null;
    }
    int h = (int) (n / 10000);
    int mi = (int) (n / 100 % 100);
    int se = (int) (n % 100);
    if (mi > 59 || se > 59) {
      return null;
    }
    int cut = (int) Math.pow(10, 6 - digits);
    int frac = d.remainder(BigDecimal.ONE).movePointRight(6).intValue();
    return DynTime.time(neg, h, mi, se, frac / cut * cut);
  }
}

package io.calcitebridge.functions;

import static io.calcitebridge.functions.Fn.Nulls.ALWAYS;
import static io.calcitebridge.functions.Fn.Nulls.ANY;
import static io.calcitebridge.functions.Fn.fn;
import static io.calcitebridge.functions.Fn.of;
import static io.calcitebridge.functions.Fn.strict;
import static io.calcitebridge.functions.Fn.string;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.apache.calcite.adapter.enumerable.NullPolicy;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlOperandCountRanges;
import org.apache.calcite.sql.type.SqlOperandTypeChecker;
import org.apache.calcite.sql.type.SqlReturnTypeInference;
import org.apache.calcite.sql.type.SqlSingleOperandTypeChecker;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeTransforms;

/**
 * Flink's string functions. Lengths and positions count UTF-16 units where Flink's do ({@code
 * LPAD}, {@code RPAD}, {@code LOCATE}, {@code INSTR}) and code points where Flink's do ({@code
 * SUBSTR}). Where Flink declares a result NOT NULL yet computes NULL ({@code LPAD('hi', -1, 'x')},
 * an invalid pattern of {@code REGEXP_REPLACE}), and so fails the query, the result is NULL here,
 * as Flink's documentation has it.
 */
public final class StringFunctions {
  private StringFunctions() {}

  private static final SqlSingleOperandTypeChecker S = OperandTypes.CHARACTER;
  private static final SqlOperandTypeChecker SS =
      OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER);
  private static final SqlOperandTypeChecker SI =
      OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.INTEGER);
  private static final SqlOperandTypeChecker SIS =
      OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.INTEGER, SqlTypeFamily.CHARACTER);
  private static final SqlOperandTypeChecker SSS =
      OperandTypes.family(
          SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER);
  private static final SqlOperandTypeChecker SSI =
      OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER, SqlTypeFamily.INTEGER);

  /** {@code VARCHAR} of the first operand's length: Flink's type for LTRIM, LEFT, SUBSTR, .... */
  private static final SqlReturnTypeInference VARYING_ARG0 =
      ReturnTypes.ARG0.andThen(SqlTypeTransforms.TO_VARYING);

  private static SqlReturnTypeInference varyingArg0(Fn.Nulls nulls) {
    return nulls == ANY
        ? VARYING_ARG0.andThen(SqlTypeTransforms.TO_NULLABLE)
        : VARYING_ARG0.andThen(SqlTypeTransforms.FORCE_NULLABLE);
  }

  /** STRING, nullable when the first operand is. */
  private static final SqlReturnTypeInference STRING_ARG0_NULLS =
      b -> {
        RelDataType t = b.getTypeFactory().createSqlType(SqlTypeName.VARCHAR, Integer.MAX_VALUE);
        return b.getTypeFactory().createTypeWithNullability(t, b.getOperandType(0).isNullable());
      };

  private static final Class<?> C = StringFunctions.class;

  /** The common type of the values of ELT, always nullable. */
  private static final SqlReturnTypeInference ELT_TYPE =
      b -> {
        RelDataType t =
            b.getTypeFactory()
                .leastRestrictive(b.collectOperandTypes().subList(1, b.getOperandCount()));
        if (t == null || !SqlTypeFamily.CHARACTER.contains(t)) {
          throw b instanceof org.apache.calcite.sql.SqlCallBinding call
              ? call.newValidationSignatureError()
              : new IllegalArgumentException("ELT takes strings");
        }
        return b.getTypeFactory().createTypeWithNullability(t, true);
      };

  public static final SqlOperator CONCAT =
      strict(
          "CONCAT",
          string(ANY),
          OperandTypes.repeat(org.apache.calcite.sql.type.SqlOperandCountRanges.from(1), S),
          C,
          "concat");
  public static final SqlOperator CONCAT_WS =
      fn(
          "CONCAT_WS",
          string(ANY),
          OperandTypes.repeat(org.apache.calcite.sql.type.SqlOperandCountRanges.from(1), S),
          C,
          "concatWs",
          NullPolicy.NONE);
  public static final SqlOperator LPAD = strict("LPAD", string(ANY), SIS, C, "lpad");
  public static final SqlOperator RPAD = strict("RPAD", string(ANY), SIS, C, "rpad");
  public static final SqlOperator LTRIM =
      strict("LTRIM", varyingArg0(ANY), OperandTypes.or(S, SS), C, "ltrim");
  public static final SqlOperator RTRIM =
      strict("RTRIM", varyingArg0(ANY), OperandTypes.or(S, SS), C, "rtrim");
  public static final SqlOperator BTRIM =
      strict("BTRIM", string(ANY), OperandTypes.or(S, SS), C, "btrim");
  public static final SqlOperator REPEAT = strict("REPEAT", string(ANY), SI, C, "repeat");
  public static final SqlOperator REGEXP_REPLACE =
      strict("REGEXP_REPLACE", string(ANY), SSS, C, "regexpReplace");
  public static final SqlOperator REGEXP_EXTRACT =
      strict("REGEXP_EXTRACT", string(ALWAYS), OperandTypes.or(SS, SSI), C, "regexpExtract");
  public static final SqlOperator REGEXP =
      strict("REGEXP", of(SqlTypeName.BOOLEAN, ANY), SS, C, "regexp");
  public static final SqlOperator STARTSWITH =
      strict("STARTSWITH", of(SqlTypeName.BOOLEAN, ANY), SS, C, "startsWith");
  public static final SqlOperator ENDSWITH =
      strict("ENDSWITH", of(SqlTypeName.BOOLEAN, ANY), SS, C, "endsWith");

  /**
   * {@code TRANSLATE(s, from, to)}: the parser writes a three-operand {@code TRANSLATE} as a call
   * named {@code TRANSLATE3}, so that is this function's name.
   */
  public static final SqlOperator TRANSLATE =
      fn("TRANSLATE3", STRING_ARG0_NULLS, SSS, C, "translate", NullPolicy.NONE);

  public static final SqlOperator REGEXP_COUNT =
      strict("REGEXP_COUNT", of(SqlTypeName.INTEGER, ALWAYS), SS, C, "regexpCount");
  public static final SqlOperator REGEXP_INSTR =
      strict("REGEXP_INSTR", of(SqlTypeName.INTEGER, ALWAYS), SS, C, "regexpInstr");
  public static final SqlOperator REGEXP_SUBSTR =
      strict("REGEXP_SUBSTR", string(ALWAYS), SS, C, "regexpSubstr");
  public static final SqlOperator REGEXP_EXTRACT_ALL =
      strict(
          "REGEXP_EXTRACT_ALL",
          Fn.type(
              f ->
                  f.createArrayType(
                      f.createTypeWithNullability(
                          f.createSqlType(SqlTypeName.VARCHAR, Integer.MAX_VALUE), true),
                      -1),
              ALWAYS),
          OperandTypes.or(SS, SSI),
          C,
          "regexpExtractAll");
  public static final SqlOperator PARSE_URL =
      strict("PARSE_URL", string(ALWAYS), OperandTypes.or(SS, SSS), C, "parseUrl");
  public static final SqlOperator ENCODE =
      strict(
          "ENCODE",
          Fn.type(f -> f.createSqlType(SqlTypeName.VARBINARY, Integer.MAX_VALUE), ANY),
          SS,
          C,
          "encode");
  public static final SqlOperator DECODE =
      strict(
          "DECODE",
          string(ANY),
          OperandTypes.family(SqlTypeFamily.BINARY, SqlTypeFamily.CHARACTER),
          C,
          "decode");

  /**
   * Flink's {@code OVERLAY(s PLACING r FROM p [FOR l])} (called with {@code l}, the length of
   * {@code r} when not given): {@code s} itself when {@code p} is outside it (below 1 or past its
   * last character); else the characters before {@code p}, then {@code r}, then those from {@code p
   * + l}, none when {@code l} is not positive. Calcite's failed on a position past the end.
   */
  public static final SqlOperator OVERLAY =
      strict(
          "OVERLAY",
          string(ALWAYS),
          OperandTypes.family(
              SqlTypeFamily.CHARACTER,
              SqlTypeFamily.CHARACTER,
              SqlTypeFamily.INTEGER,
              SqlTypeFamily.INTEGER),
          C,
          "overlay");

  public static final SqlOperator STR_TO_MAP =
      strict(
          "STR_TO_MAP",
          Fn.type(
              f -> {
                RelDataType str =
                    f.createTypeWithNullability(
                        f.createSqlType(SqlTypeName.VARCHAR, Integer.MAX_VALUE), true);
                return f.createMapType(str, str);
              },
              ALWAYS),
          OperandTypes.or(S, SSS),
          C,
          "strToMap");
  public static final SqlOperator PRINTF =
      fn(
          "PRINTF",
          string(ALWAYS),
          OperandTypes.repeat(SqlOperandCountRanges.from(1), OperandTypes.ANY),
          C,
          "printf",
          NullPolicy.NONE);

  /** Standard {@code REPLACE}, but an empty search string matches between every character. */
  public static final SqlOperator REPLACE = strict("REPLACE", string(ANY), SSS, C, "replace");

  public static final SqlOperator ELT =
      fn(
          "ELT",
          ELT_TYPE,
          OperandTypes.repeat(SqlOperandCountRanges.from(2), OperandTypes.ANY),
          C,
          "elt",
          NullPolicy.NONE);
  public static final SqlOperator JSON_QUOTE = strict("JSON_QUOTE", string(ANY), S, C, "jsonQuote");
  public static final SqlOperator JSON_UNQUOTE =
      strict("JSON_UNQUOTE", string(ANY), S, C, "jsonUnquote");
  public static final SqlOperator INET_ATON =
      strict("INET_ATON", of(SqlTypeName.BIGINT, ALWAYS), S, C, "inetAton");
  public static final SqlOperator INET_NTOA =
      strict("INET_NTOA", string(ALWAYS), OperandTypes.INTEGER, C, "inetNtoa");
  public static final SqlOperator LEFT = strict("LEFT", varyingArg0(ALWAYS), SI, C, "left");
  public static final SqlOperator RIGHT = strict("RIGHT", varyingArg0(ALWAYS), SI, C, "right");
  public static final SqlOperator LOCATE =
      strict("LOCATE", of(SqlTypeName.INTEGER, ANY), OperandTypes.or(SS, SSI), C, "locate");
  public static final SqlOperator INSTR =
      strict("INSTR", of(SqlTypeName.INTEGER, ANY), SS, C, "instr");
  public static final SqlOperator REVERSE = strict("REVERSE", string(ALWAYS), S, C, "reverse");
  public static final SqlOperator SPLIT_INDEX =
      strict("SPLIT_INDEX", string(ALWAYS), SSI, C, "splitIndex");
  public static final SqlOperator TO_BASE64 = strict("TO_BASE64", string(ANY), S, C, "toBase64");
  public static final SqlOperator FROM_BASE64 =
      strict("FROM_BASE64", string(ANY), S, C, "fromBase64");
  public static final SqlOperator CHR =
      strict("CHR", string(ALWAYS), OperandTypes.INTEGER, C, "chr");
  public static final SqlOperator SUBSTR =
      strict(
          "SUBSTR",
          varyingArg0(ALWAYS),
          OperandTypes.or(
              SI,
              OperandTypes.family(
                  SqlTypeFamily.CHARACTER, SqlTypeFamily.INTEGER, SqlTypeFamily.INTEGER)),
          C,
          "substr");
  public static final SqlOperator URL_ENCODE =
      strict("URL_ENCODE", string(ALWAYS), S, C, "urlEncode");
  public static final SqlOperator URL_DECODE =
      strict("URL_DECODE", string(ALWAYS), S, C, "urlDecode");

  static final List<SqlOperator> ALL =
      List.of(
          CONCAT,
          CONCAT_WS,
          LPAD,
          RPAD,
          LTRIM,
          RTRIM,
          BTRIM,
          REPEAT,
          REGEXP_REPLACE,
          REGEXP_EXTRACT,
          REGEXP,
          STARTSWITH,
          ENDSWITH,
          TRANSLATE,
          LEFT,
          RIGHT,
          LOCATE,
          INSTR,
          REVERSE,
          SPLIT_INDEX,
          TO_BASE64,
          FROM_BASE64,
          CHR,
          SUBSTR,
          URL_ENCODE,
          URL_DECODE,
          ELT,
          JSON_QUOTE,
          JSON_UNQUOTE,
          INET_ATON,
          INET_NTOA,
          PRINTF,
          REGEXP_COUNT,
          REGEXP_INSTR,
          REGEXP_SUBSTR,
          REGEXP_EXTRACT_ALL,
          PARSE_URL,
          ENCODE,
          DECODE,
          STR_TO_MAP);

  // ---- the implementations, called by generated code ----------------------------------------

  public static String concat(String... parts) {
    return String.join("", parts);
  }

  /** NULL separator gives NULL; NULL values are left out. */
  public static String concatWs(String sep, String... parts) {
    if (sep == null) {
      return null;
    }
    StringBuilder b = new StringBuilder();
    boolean first = true;
    for (String p : parts) {
      if (p != null) {
        if (!first) {
          b.append(sep);
        }
        b.append(p);
        first = false;
      }
    }
    return b.toString();
  }

  public static String lpad(String base, int len, String pad) {
    return pad(base, len, pad, true);
  }

  public static String rpad(String base, int len, String pad) {
    return pad(base, len, pad, false);
  }

  private static String pad(String base, int len, String pad, boolean left) {
    if (len < 0 || pad.isEmpty() && len > base.length()) {
      return null;
    }
    if (len <= base.length()) {
      return base.substring(0, len);
    }
    StringBuilder fill = new StringBuilder();
    int need = len - base.length();
    while (fill.length() < need) {
      fill.append(pad);
    }
    fill.setLength(need);
    return left ? fill + base : base + fill;
  }

  public static String ltrim(String s) {
    return ltrim(s, " ");
  }

  /** {@code s} without the code points of {@code chars} at its start. */
  public static String ltrim(String s, String chars) {
    int i = 0;
    while (i < s.length() && chars.indexOf(s.codePointAt(i)) >= 0) {
      i += Character.charCount(s.codePointAt(i));
    }
    return s.substring(i);
  }

  public static String rtrim(String s) {
    return rtrim(s, " ");
  }

  /** {@code s} without the code points of {@code chars} at its end. */
  public static String rtrim(String s, String chars) {
    int i = s.length();
    while (i > 0 && chars.indexOf(s.codePointBefore(i)) >= 0) {
      i -= Character.charCount(s.codePointBefore(i));
    }
    return s.substring(0, i);
  }

  public static String btrim(String s) {
    return ltrim(rtrim(s));
  }

  public static String btrim(String s, String chars) {
    return ltrim(rtrim(s, chars), chars);
  }

  public static String repeat(String s, int n) {
    return n <= 0 ? "" : s.repeat(n);
  }

  /** The replacement is taken literally ({@code $1} is no group); NULL for an invalid pattern. */
  public static String regexpReplace(String s, String regex, String replacement) {
    try {
      return Pattern.compile(regex).matcher(s).replaceAll(Matcher.quoteReplacement(replacement));
    } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
      return null;
    }
  }

  public static String regexpExtract(String s, String regex) {
    return regexpExtract(s, regex, 0);
  }

  /** The group {@code index} of the first match; NULL without a match or such a group. */
  public static String regexpExtract(String s, String regex, int index) {
    try {
      Matcher m = Pattern.compile(regex).matcher(s);
      if (index < 0 || !m.find() || index > m.groupCount()) {
        return null;
      }
      return m.group(index);
    } catch (PatternSyntaxException e) {
      return null;
    }
  }

  /** Whether a part of {@code s} matches; FALSE for an invalid or empty pattern, as in Flink. */
  public static boolean regexp(String s, String regex) {
    if (regex.isEmpty()) {
      return false;
    }
    try {
      return Pattern.compile(regex).matcher(s).find();
    } catch (PatternSyntaxException e) {
      return false;
    }
  }

  /** The number of matches; NULL for an invalid pattern. */
  public static Integer regexpCount(String s, String regex) {
    try {
      Matcher m = Pattern.compile(regex).matcher(s);
      int n = 0;
      while (m.find()) {
        n++;
      }
      return n;
    } catch (PatternSyntaxException e) {
      return null;
    }
  }

  /**
   * The code-point position (from 1) of the first match, 0 without one; NULL for an invalid one.
   */
  public static Integer regexpInstr(String s, String regex) {
    try {
      Matcher m = Pattern.compile(regex).matcher(s);
      return m.find() ? m.start() + 1 : 0;
    } catch (PatternSyntaxException e) {
      return null;
    }
  }

  /** The first match; NULL without one or for an invalid pattern. */
  public static String regexpSubstr(String s, String regex) {
    try {
      Matcher m = Pattern.compile(regex).matcher(s);
      return m.find() ? m.group() : null;
    } catch (PatternSyntaxException e) {
      return null;
    }
  }

  /** Group 1 of every match, as in Flink. */
  public static List<String> regexpExtractAll(String s, String regex) {
    return regexpExtractAll(s, regex, 1);
  }

  /** Group {@code index} of every match; NULL for an invalid pattern or group. */
  public static List<String> regexpExtractAll(String s, String regex, int index) {
    try {
      Matcher m = Pattern.compile(regex).matcher(s);
      if (index < 0 || index > m.groupCount()) {
        return null;
      }
      List<String> out = new java.util.ArrayList<>();
      while (m.find()) {
        out.add(m.group(index));
      }
      return out;
    } catch (PatternSyntaxException e) {
      return null;
    }
  }

  public static String parseUrl(String url, String part) {
    java.net.URL u = url(url);
    if (u == null) {
      return null;
    }
    switch (part) {
      case "HOST":
        return u.getHost();
      case "PATH":
        return u.getPath();
      case "QUERY":
        return u.getQuery();
      case "REF":
        return u.getRef();
      case "PROTOCOL":
        return u.getProtocol();
      case "FILE":
        return u.getFile();
      case "AUTHORITY":
        return u.getAuthority();
      case "USERINFO":
        return u.getUserInfo();
      default:
        return null;
    }
  }

  /** The value of parameter {@code key} of the URL's query ({@code part} being QUERY). */
  public static String parseUrl(String url, String part, String key) {
    if (!part.equals("QUERY")) {
      return null;
    }
    String query = parseUrl(url, part);
    if (query == null) {
      return null;
    }
    Matcher m = Pattern.compile("(&|^)" + Pattern.quote(key) + "=([^&]*)").matcher(query);
    return m.find() ? m.group(2) : null;
  }

  @SuppressWarnings("deprecation") // java.net.URL(String) parses as Flink does
  private static java.net.URL url(String s) {
    try {
      return new java.net.URL(s);
    } catch (java.net.MalformedURLException e) {
      return null;
    }
  }

  public static org.apache.calcite.avatica.util.ByteString encode(String s, String charset) {
    return new org.apache.calcite.avatica.util.ByteString(s.getBytes(charset(charset)));
  }

  public static String decode(org.apache.calcite.avatica.util.ByteString b, String charset) {
    return new String(b.getBytes(), charset(charset));
  }

  private static java.nio.charset.Charset charset(String name) {
    try {
      return java.nio.charset.Charset.forName(name);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("Unsupported character set '" + name + "'", e);
    }
  }

  public static String overlay(String s, String r, int p, int l) {
    int n = s.codePointCount(0, s.length());
    if (p < 1 || p > n) {
      return s;
    }
    String before = s.substring(0, s.offsetByCodePoints(0, p - 1));
    long end = (long) p - 1 + l;
    String after = l > 0 && end < n ? s.substring(s.offsetByCodePoints(0, (int) end)) : "";
    return before + r + after;
  }

  public static java.util.Map<String, String> strToMap(String s) {
    return strToMap(s, ",", "=");
  }

  /**
   * The pairs of {@code s} split at {@code pairs}, each split at its first {@code keyValue} (both
   * regular expressions, trailing empty pairs dropped as Java's {@code split} drops them); a key
   * without a value maps to NULL, a later key wins.
   */
  public static java.util.Map<String, String> strToMap(String s, String pairs, String keyValue) {
    java.util.Map<String, String> out = new java.util.LinkedHashMap<>();
    if (s.isEmpty()) {
      return out;
    }
    Pattern kv = Pattern.compile(keyValue);
    for (String pair : s.split(pairs)) {
      String[] parts = kv.split(pair, 2);
      out.put(parts[0], parts.length > 1 ? parts[1] : null);
    }
    return out;
  }

  public static boolean startsWith(String s, String prefix) {
    return s.startsWith(prefix);
  }

  public static boolean endsWith(String s, String suffix) {
    return s.endsWith(suffix);
  }

  /**
   * Each character of {@code from} becomes the one at the same place in {@code to}, or is removed
   * where {@code to} is shorter; NULL {@code from} leaves the string as it is, NULL {@code to}
   * removes.
   */
  public static String translate(String s, String from, String to) {
    if (s == null) {
      return null;
    }
    if (from == null || from.isEmpty()) {
      return s;
    }
    String target = to == null ? "" : to;
    StringBuilder b = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      int at = from.indexOf(c);
      if (at < 0) {
        b.append(c);
      } else if (at < target.length()) {
        b.append(target.charAt(at));
      }
    }
    return b.toString();
  }

  /** The first {@code n} code points. */
  public static String left(String s, int n) {
    int count = s.codePointCount(0, s.length());
    return n <= 0 ? "" : s.substring(0, s.offsetByCodePoints(0, Math.min(n, count)));
  }

  /** The last {@code n} code points. */
  public static String right(String s, int n) {
    int count = s.codePointCount(0, s.length());
    return n <= 0 ? "" : s.substring(s.offsetByCodePoints(0, count - Math.min(n, count)));
  }

  public static int locate(String sub, String s) {
    return locate(sub, s, 1);
  }

  /**
   * The code-point position (from 1) of {@code sub} at or after {@code from}; 0 if none, 1 for an
   * empty {@code sub}.
   */
  public static int locate(String sub, String s, int from) {
    if (sub.isEmpty()) {
      return 1; // Flink finds an empty string at 1, whatever the start
    }
    int count = s.codePointCount(0, s.length());
    int start = Math.max(from, 1) - 1;
    if (start > count) {
      return 0;
    }
    int at = s.indexOf(sub, s.offsetByCodePoints(0, start));
    return at < 0 ? 0 : s.codePointCount(0, at) + 1;
  }

  public static int instr(String s, String sub) {
    return locate(sub, s, 1);
  }

  public static String reverse(String s) {
    return new StringBuilder(s).reverse().toString();
  }

  /** The field {@code index} (from 0) of {@code s} split at every {@code sep}; NULL past them. */
  public static String splitIndex(String s, String sep, int index) {
    if (index < 0 || s.isEmpty()) { // an empty string has no fields in Flink
      return null;
    }
    if (sep.isEmpty()) {
      return index == 0 ? s : null;
    }
    int start = 0;
    for (int i = 0; i < index; i++) {
      int at = s.indexOf(sep, start);
      if (at < 0) {
        return null;
      }
      start = at + sep.length();
    }
    int end = s.indexOf(sep, start);
    return s.substring(start, end < 0 ? s.length() : end);
  }

  public static String toBase64(String s) {
    return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
  }

  public static String fromBase64(String s) {
    return new String(Base64.getDecoder().decode(s), StandardCharsets.UTF_8);
  }

  /** The character of code {@code n} modulo 256; {@code ''} below 0. */
  public static String chr(long n) {
    return n < 0 ? "" : String.valueOf((char) (n % 256));
  }

  public static String substr(String s, int pos) {
    return substr(s, pos, Integer.MAX_VALUE);
  }

  /**
   * Code points from {@code pos} (from 1; 0 is 1; below 0 counts from the end, and {@code ''} when
   * it counts past the first) on, {@code len} of them; NULL for a negative length.
   */
  public static String substr(String s, int pos, int len) {
    if (len < 0) {
      return null;
    }
    int n = s.codePointCount(0, s.length());
    long start = pos > 0 ? pos - 1L : pos < 0 ? (long) n + pos : 0L;
    if (start < 0) {
      return ""; // Flink: a start before the first code point gives ''
    }
    long end = len == Integer.MAX_VALUE ? n : start + len;
    start = Math.max(start, 0);
    end = Math.min(end, n);
    if (start >= end) {
      return "";
    }
    int from = s.offsetByCodePoints(0, (int) start);
    int to = s.offsetByCodePoints(from, (int) (end - start));
    return s.substring(from, to);
  }

  public static String replace(String s, String search, String replacement) {
    return s.replace(search, replacement);
  }

  /**
   * {@code format} filled in as Java's {@link String#format} does (a NULL value prints {@code
   * null}); NULL for a NULL format or one that does not fit the values.
   */
  public static String printf(String format, Object... values) {
    if (format == null) {
      return null;
    }
    try {
      return String.format(java.util.Locale.ROOT, format, values);
    } catch (java.util.IllegalFormatException e) {
      return null;
    }
  }

  /** The value at {@code index} (from 1); NULL outside them. */
  public static String elt(Integer index, String... values) {
    if (index == null || index < 1 || index > values.length) {
      return null;
    }
    return values[index - 1];
  }

  /**
   * {@code s} as a JSON string literal, as Flink writes it: {@code /} escaped, and every character
   * outside printable ASCII as {@code \\uXXXX}.
   */
  public static String jsonQuote(String s) {
    StringBuilder b = new StringBuilder("\"");
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"':
          b.append("\\\"");
          break;
        case '\\':
          b.append("\\\\");
          break;
        case '\b':
          b.append("\\b");
          break;
        case '\f':
          b.append("\\f");
          break;
        case '\n':
          b.append("\\n");
          break;
        case '\r':
          b.append("\\r");
          break;
        case '\t':
          b.append("\\t");
          break;
        case '/':
          b.append("\\/");
          break;
        default:
          if (c < 0x20 || c >= 0x7f) {
            b.append(String.format(java.util.Locale.ROOT, "\\u%04x", (int) c));
          } else {
            b.append(c);
          }
      }
    }
    return b.append('"').toString();
  }

  /** The string a JSON string literal holds; anything else as it is. */
  public static String jsonUnquote(String s) {
    if (s.length() < 2 || s.charAt(0) != '"' || s.charAt(s.length() - 1) != '"') {
      return s;
    }
    StringBuilder b = new StringBuilder();
    for (int i = 1; i < s.length() - 1; i++) {
      char c = s.charAt(i);
      if (c == '"') {
        return s; // an unescaped quote inside: not one literal
      }
      if (c != '\\') {
        b.append(c);
        continue;
      }
      if (++i >= s.length() - 1) {
        return s;
      }
      char e = s.charAt(i);
      switch (e) {
        case 'b':
          b.append('\b');
          break;
        case 'f':
          b.append('\f');
          break;
        case 'n':
          b.append('\n');
          break;
        case 'r':
          b.append('\r');
          break;
        case 't':
          b.append('\t');
          break;
        case 'u':
          if (i + 4 >= s.length()) {
            return s;
          }
          try {
            b.append((char) Integer.parseInt(s.substring(i + 1, i + 5), 16));
          } catch (NumberFormatException ex) {
            return s;
          }
          i += 4;
          break;
        default:
          b.append(e);
      }
    }
    return b.toString();
  }

  /**
   * The number of a dotted IPv4 address; NULL for anything else. Of fewer than four parts, as in
   * MySQL, the last is the lowest byte: {@code '1.2.3'} is {@code 1.2.0.3}.
   */
  public static Long inetAton(String s) {
    String[] parts = s.split("\\.", -1);
    if (parts.length < 2 || parts.length > 4) {
      return null;
    }
    long n = 0;
    for (int i = 0; i < parts.length; i++) {
      String p = parts[i];
      if (p.isEmpty() || p.length() > 3 || !p.chars().allMatch(ch -> ch >= '0' && ch <= '9')) {
        return null;
      }
      int v = Integer.parseInt(p);
      if (v > 255) {
        return null;
      }
      int shift = i == parts.length - 1 ? 0 : 8 * (3 - i);
      n |= (long) v << shift;
    }
    return n;
  }

  /** The dotted IPv4 address of a number; NULL outside 0 to 2^32 - 1. */
  public static String inetNtoa(long n) {
    if (n < 0 || n > 0xFFFFFFFFL) {
      return null;
    }
    return (n >> 24) + "." + ((n >> 16) & 255) + "." + ((n >> 8) & 255) + "." + (n & 255);
  }

  public static String urlEncode(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  public static String urlDecode(String s) {
    try {
      return URLDecoder.decode(s, StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }
}

package io.calcitebridge.connector;

import io.calcitebridge.catalog.FilterableStorage.Decision;
import io.calcitebridge.expr.Call;
import io.calcitebridge.expr.Expression;
import io.calcitebridge.expr.FieldReference;
import io.calcitebridge.expr.Literal;
import io.calcitebridge.expr.NestedFieldReference;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The answers of a source whose answer to an offer of filters depends only on the offer's shape (a
 * built-in Arrow table source, a {@code filesystem} table: {@link PythonSource#answersByShape}),
 * kept per shape so that an offer of the same filters with new values, as a statement with
 * parameters makes at every run, is answered here, without a call into Python.
 *
 * <p>A shape is kept only for comparisons ({@code =}, {@code <>}, {@code <}, {@code <=}, {@code >},
 * {@code >=}), {@code AND}, {@code OR} and {@code NOT} of columns, fields of ROW columns ({@code
 * user.age}) and literals, as the Python side keeps them ({@code sources.arrow.OfferAnswers}):
 * whether such a filter is accepted depends on its shape and on whether each literal makes an Arrow
 * scalar of its type. The second is checked here for each offer, for the types whose every value of
 * a range makes one (BOOLEAN, integers, FLOAT and DOUBLE, strings, DECIMAL, DATE, TIMESTAMP); a
 * literal of another type, or out of that range, sends the offer to the source, which answers it
 * itself.
 */
final class OfferShapes {
  private static final int LIMIT = 64;
  private static final Set<String> SHAPED =
      Set.of("=", "<>", "<", "<=", ">", ">=", "AND", "OR", "NOT");

  private final Map<List<Object>, Decision> answers = new ConcurrentHashMap<>();

  /** The answer kept for the shape of {@code filters}, when its literals allow it; else null. */
  @Nullable Decision known(List<Expression> filters) {
    List<Object> key = shape(filters, true);
    return key == null ? null : answers.get(key);
  }

  /** Keeps {@code answer}, the source's own to {@code filters}, for their shape. */
  void keep(List<Expression> filters, Decision answer) {
    List<Object> key = shape(filters, false);
    if (key == null) {
      return;
    }
    if (answers.size() >= LIMIT) {
      answers.clear();
    }
    answers.put(key, new Decision(List.copyOf(answer.accepted()), List.copyOf(answer.remaining())));
  }

  /**
   * The shape of {@code filters}: each literal's value left out, its type and whether it is NULL
   * kept; null when one is not of the shapes kept or (with {@code checked}) holds a literal whose
   * value this class cannot vouch for.
   */
  private static @Nullable List<Object> shape(List<Expression> filters, boolean checked) {
    List<Object> out = new ArrayList<>(filters.size());
    for (Expression e : filters) {
      Object s = shape(e, checked);
      if (s == null) {
        return null;
      }
      out.add(s);
    }
    return out;
  }

  private static @Nullable Object shape(Expression e, boolean checked) {
    if (e instanceof Literal lit) {
      if (checked && !makesScalar(lit)) {
        return null;
      }
      return List.of("literal", lit.dataType(), lit.value() == null);
    }
    if (e instanceof FieldReference f) {
      return List.of("field", f.name(), f.dataType(), f.inputIndex(), f.fieldIndex());
    }
    if (e instanceof NestedFieldReference f) {
      return List.of("nested", f.fieldNames(), f.fieldIndices(), f.dataType(), f.inputIndex());
    }
    if (e instanceof Call c && SHAPED.contains(c.function().toUpperCase(java.util.Locale.ROOT))) {
      List<Object> args = shape(c.args(), checked);
      return args == null ? null : List.of("call", c.function(), c.dataType(), args);
    }
    return null;
  }

  /** Whether Python makes an Arrow scalar of {@code lit}'s type from its value, whatever it is. */
  static boolean makesScalar(Literal lit) {
    Object v = lit.value();
    if (v == null) {
      return true;
    }
    String type = lit.dataType().replace(" NOT NULL", "");
    String base = type.contains("(") ? type.substring(0, type.indexOf('(')) : type;
    return switch (base) {
      case "BOOLEAN" -> v instanceof Boolean;
      case "TINYINT" -> inRange(v, Byte.MIN_VALUE, Byte.MAX_VALUE);
      case "SMALLINT" -> inRange(v, Short.MIN_VALUE, Short.MAX_VALUE);
      case "INT", "INTEGER" -> inRange(v, Integer.MIN_VALUE, Integer.MAX_VALUE);
      case "BIGINT" -> inRange(v, Long.MIN_VALUE, Long.MAX_VALUE);
      case "FLOAT", "REAL", "DOUBLE" -> v instanceof Double || v instanceof Long;
      case "CHAR", "VARCHAR", "STRING" -> v instanceof String s && noSurrogates(s);
      case "DECIMAL" -> v instanceof String s && fitsDecimal(s, type);
      case "DATE" -> v instanceof String s && s.length() == 10 && yearOf(s);
      case "TIMESTAMP", "TIMESTAMP_LTZ" ->
          v instanceof String s && precision(type) <= 6 && yearOf(s);
      default -> false;
    };
  }

  private static boolean inRange(Object v, long min, long max) {
    return v instanceof Long n && n >= min && n <= max;
  }

  private static boolean noSurrogates(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (Character.isSurrogate(s.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  /** Whether the text starts with a year of four digits from 0001 to 9999 and a dash. */
  private static boolean yearOf(String s) {
    if (s.length() < 10 || s.charAt(4) != '-') {
      return false;
    }
    int year = 0;
    for (int i = 0; i < 4; i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        return false;
      }
      year = year * 10 + (c - '0');
    }
    return year >= 1;
  }

  /** The precision in {@code TYPE(p)}, 6 (microseconds) without one. */
  private static int precision(String type) {
    int open = type.indexOf('(');
    if (open < 0) {
      return 6;
    }
    try {
      return Integer.parseInt(type.substring(open + 1, type.indexOf(')', open)).trim());
    } catch (NumberFormatException | IndexOutOfBoundsException e) {
      return Integer.MAX_VALUE;
    }
  }

  /** Whether {@code text} is a value of {@code DECIMAL(p, s)} with p at most 38, unrounded. */
  private static boolean fitsDecimal(String text, String type) {
    int open = type.indexOf('(');
    int comma = type.indexOf(',', open);
    int close = type.indexOf(')', open);
    if (open < 0 || comma < 0 || close < comma) {
      return false;
    }
    try {
      int p = Integer.parseInt(type.substring(open + 1, comma).trim());
      int s = Integer.parseInt(type.substring(comma + 1, close).trim());
      BigDecimal v = new BigDecimal(text).stripTrailingZeros();
      int scale = Math.max(v.scale(), 0);
      int digits = v.precision() - v.scale();
      return p <= 38 && scale <= s && digits <= p - s;
    } catch (NumberFormatException e) {
      return false;
    }
  }
}

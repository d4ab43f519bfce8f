package io.calcitebridge.translate;

import java.util.BitSet;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A Java regular expression ({@link java.util.regex.Pattern}, Flink's) written as an RE2 pattern
 * (DuckDB's) that matches the same text with the same groups, for the part of the syntax whose
 * meaning both share; anything else is refused ({@link #translate} answers null).
 *
 * <p>Taken: literal characters and escaped punctuation; {@code \t \n \r \f}; {@code \d \D \w \W}
 * (ASCII in both); classes {@code [...]} and {@code [^...]} of characters, ranges and those
 * escapes; {@code .}, written as the class of what Java's dot matches (all but {@code \n \r U+0085
 * U+2028 U+2029}; RE2's dot excludes only {@code \n}); {@code ^} (the start of the input in both);
 * groups {@code (...)} and {@code (?:...)}; alternation, leftmost first in both; the quantifiers
 * {@code * + ? {n} {n,} {n,m}} and their lazy forms, up to RE2's 1000 repetitions.
 *
 * <p>Refused: {@code $} (Java's also matches before a final line terminator), {@code \s} (Java's
 * includes the vertical tab, RE2's does not), {@code \b}, back references, look-around, possessive
 * quantifiers, flags, named groups, nested classes and intersections ({@code [a[b]]}, {@code
 * [a&&b]}, which RE2 reads as literal characters), other escapes, and a repetition of a part that
 * may match the empty string (the engines may leave its groups differently).
 *
 * <p>A group Java leaves unset (not taking part in the match) is NULL in Flink and {@code ''} in
 * DuckDB's {@code regexp_extract}: {@link #certain} tells the groups that take part in every match
 * (in no alternative and under no quantifier that allows none).
 */
final class JavaRegex {
  private final String p;
  private int i;
  private int groups;
  private final BitSet uncertain = new BitSet();
  private final StringBuilder out = new StringBuilder();

  private JavaRegex(String pattern) {
    this.p = pattern;
  }

  /** The RE2 pattern of {@code pattern}, or null when its meaning may differ. */
  static @Nullable JavaRegex translate(String pattern) {
    JavaRegex r = new JavaRegex(pattern);
    try {
      r.alternation();
      if (r.i != pattern.length()) {
        return null;
      }
      java.util.regex.Pattern.compile(pattern);
    } catch (Unsupported | java.util.regex.PatternSyntaxException e) {
      return null;
    }
    return r;
  }

  /** The RE2 pattern. It holds no braces around digits alone ({@code {n}} is {@code {n,n}}). */
  String re2() {
    return out.toString();
  }

  /** The number of capturing groups. */
  int groups() {
    return groups;
  }

  /** Whether group {@code g} (0 for the whole match) takes part in every match. */
  boolean certain(int g) {
    return g == 0 || !uncertain.get(g);
  }

  private static final class Unsupported extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Unsupported() {
      super(null, null, false, false);
    }
  }

  /** Whether the alternation just written may match the empty string. */
  private boolean alternation() {
    int first = groups + 1;
    boolean nullable = sequence();
    boolean several = false;
    while (i < p.length() && p.charAt(i) == '|') {
      i++;
      out.append('|');
      several = true;
      nullable |= sequence();
    }
    if (several) {
      uncertain.set(first, groups + 1);
    }
    return nullable;
  }

  private boolean sequence() {
    boolean nullable = true;
    while (i < p.length() && p.charAt(i) != '|' && p.charAt(i) != ')') {
      int first = groups + 1;
      int at = out.length();
      boolean atomNullable = atom();
      boolean anchor = out.length() - at == 1 && out.charAt(at) == '^';
      nullable &= quantifier(atomNullable, first, anchor);
    }
    return nullable;
  }

  /** Reads a quantifier after an atom, if any; whether the quantified atom may match nothing. */
  private boolean quantifier(boolean nullable, int first, boolean anchor) {
    if (i >= p.length()) {
      return nullable;
    }
    char c = p.charAt(i);
    int min;
    int max;
    if (c == '*' || c == '+' || c == '?') {
      i++;
      min = c == '+' ? 1 : 0;
      max = c == '?' ? 1 : Integer.MAX_VALUE;
      out.append(c);
    } else if (c == '{') {
      int close = p.indexOf('}', i);
      if (close < 0) {
        throw new Unsupported();
      }
      String body = p.substring(i + 1, close);
      if (!body.matches("[0-9]{1,4}(,[0-9]{0,4})?")) {
        throw new Unsupported();
      }
      String[] parts = body.split(",", -1);
      min = Integer.parseInt(parts[0]);
      max =
          parts.length == 1
              ? min
              : parts[1].isEmpty() ? Integer.MAX_VALUE : Integer.parseInt(parts[1]);
      if (min > 1000 || (max != Integer.MAX_VALUE && (max > 1000 || max < min))) {
        throw new Unsupported();
      }
      out.append('{')
          .append(min)
          .append(',')
          .append(max == Integer.MAX_VALUE ? "" : Integer.toString(max))
          .append('}');
      i = close + 1;
    } else {
      return nullable;
    }
    if (anchor || (nullable && max > 1)) {
      throw new Unsupported();
    }
    if (i < p.length() && p.charAt(i) == '?') {
      out.append('?');
      i++;
    } else if (i < p.length() && p.charAt(i) == '+') {
      throw new Unsupported(); // possessive
    }
    if (i < p.length() && "*+?{".indexOf(p.charAt(i)) >= 0) {
      throw new Unsupported();
    }
    if (min == 0) {
      uncertain.set(first, groups + 1);
    }
    return nullable || min == 0;
  }

  /** Writes one atom; whether it may match the empty string. */
  private boolean atom() {
    char c = p.charAt(i);
    switch (c) {
      case '(':
        i++;
        if (i < p.length() && p.charAt(i) == '?') {
          if (i + 1 < p.length() && p.charAt(i + 1) == ':') {
            i += 2;
            out.append("(?:");
          } else {
            throw new Unsupported();
          }
        } else {
          groups++;
          out.append('(');
        }
        boolean nullable = alternation();
        if (i >= p.length() || p.charAt(i) != ')') {
          throw new Unsupported();
        }
        i++;
        out.append(')');
        return nullable;
      case '[':
        charClass();
        return false;
      case '.':
        i++;
        out.append("[^\n\r\u0085\u2028\u2029]");
        return false;
      case '^':
        i++;
        out.append('^');
        return true;
      case '\\':
        escape(false);
        return false;
      case '$':
      case '*':
      case '+':
      case '?':
      case '{':
        throw new Unsupported();
      default:
        literal();
        return false;
    }
  }

  /** A literal character (a whole code point), escaped when it is punctuation. */
  private void literal() {
    int cp = p.codePointAt(i);
    i += Character.charCount(cp);
    if (cp < 128 && !Character.isLetterOrDigit(cp) && cp > ' ') {
      out.append('\\');
    }
    out.appendCodePoint(cp);
  }

  private void escape(boolean inClass) {
    if (i + 1 >= p.length()) {
      throw new Unsupported();
    }
    char e = p.charAt(i + 1);
    i += 2;
    if ("dDwWtnrf".indexOf(e) >= 0) {
      out.append('\\').append(e);
    } else if (e < 128 && !Character.isLetterOrDigit(e) && e > ' ') {
      out.append('\\').append(e);
    } else {
      throw new Unsupported();
    }
  }

  private void charClass() {
    i++;
    out.append('[');
    if (i < p.length() && p.charAt(i) == '^') {
      out.append('^');
      i++;
    }
    boolean empty = true;
    while (true) {
      if (i >= p.length()) {
        throw new Unsupported();
      }
      char c = p.charAt(i);
      if (c == ']') {
        if (empty) {
          throw new Unsupported();
        }
        i++;
        out.append(']');
        return;
      }
      if (c == '[' || (c == '&' && i + 1 < p.length() && p.charAt(i + 1) == '&')) {
        throw new Unsupported();
      }
      empty = false;
      if (c == '\\') {
        char e = i + 1 < p.length() ? p.charAt(i + 1) : 0;
        boolean single = !(e == 'd' || e == 'D' || e == 'w' || e == 'W');
        escape(true);
        if (single && i < p.length() && p.charAt(i) == '-') {
          throw new Unsupported(); // a range from an escape: keep to plain characters
        }
        continue;
      }
      int lo = p.codePointAt(i);
      int after = i + Character.charCount(lo);
      if (after + 1 < p.length() && p.charAt(after) == '-' && p.charAt(after + 1) != ']') {
        int hi = p.codePointAt(after + 1);
        if (hi == '\\' || hi == '[' || hi < lo) {
          throw new Unsupported();
        }
        classChar(lo);
        out.append('-');
        classChar(hi);
        i = after + 1 + Character.charCount(hi);
      } else {
        classChar(lo);
        i = after;
      }
    }
  }

  private void classChar(int cp) {
    if (cp < 128 && !Character.isLetterOrDigit(cp) && cp > ' ') {
      out.append('\\');
    }
    out.appendCodePoint(cp);
  }
}

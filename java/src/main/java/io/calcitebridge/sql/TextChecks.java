package io.calcitebridge.sql;

import io.calcitebridge.errors.ErrorKind;
import io.calcitebridge.errors.PositionedException;
import java.util.Locale;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * Checks of a statement's text that the parser does not make, with the position of the fault:
 *
 * <ul>
 *   <li>A quoted identifier holds no NUL character: a column named {@code `a\0b`} reached Arrow,
 *       whose C interface ends a name at its first NUL, as {@code a}.
 *   <li>A DATE or TIMESTAMP literal has a year of at most four digits: Calcite's parser read the
 *       year of {@code TIMESTAMP '99999-01-01 00:00:00'} modulo 10,000 (9999-01-01, silently), and
 *       failed on {@code DATE '99999-01-01'} with an internal error.
 * </ul>
 *
 * String literals and comments are skipped, as the parser skips them. The same scan counts the
 * statement's words ({@link Words}), which bound what its parsed tree can hold: {@link LongChains}
 * skips its walks of a tree too small for anything it looks for.
 */
public final class TextChecks {
  private TextChecks() {}

  /**
   * What the scan counted in a statement's text, outside string literals, quoted identifiers and
   * comments.
   *
   * @param words the words (keywords and unquoted identifiers): a parsed node of a query, a type or
   *     an operator comes from at least one of them
   * @param andOr the words {@code AND} and {@code OR}: an AND or OR chain of k terms has k - 1
   * @param types the words {@code ARRAY}, {@code MAP}, {@code MULTISET} and {@code ROW}: each level
   *     of a nested type is one of them
   */
  public record Words(int words, int andOr, int types) {}

  /** Throws a {@link PositionedException} at the first fault of {@code sql}. */
  public static Words check(String sql) {
    int n = sql.length();
    int i = 0;
    int words = 0;
    int andOr = 0;
    int types = 0;
    while (i < n) {
      char c = sql.charAt(i);
      if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
        int end = sql.indexOf('\n', i);
        i = end < 0 ? n : end + 1;
      } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
        int end = sql.indexOf("*/", i + 2);
        i = end < 0 ? n : end + 2;
      } else if (c == '\'') {
        i = endOfQuoted(sql, i, '\'');
      } else if (c == '`' || c == '"') {
        int end = endOfQuoted(sql, i, c);
        int nul = sql.indexOf('\0', i);
        if (nul >= 0 && nul < end) {
          throw at(
              sql,
              nul,
              nul,
              ErrorKind.PARSE,
              "An identifier may not hold a NUL character (U+0000)");
        }
        i = end;
      } else if (Character.isLetter(c) && (i == 0 || !continuesWord(sql.charAt(i - 1)))) {
        // After a digit the parser starts a new token (1AND is 1 then AND): such a word counts.
        int end = i;
        while (end < n && isWordChar(sql.charAt(end))) {
          end++;
        }
        words++;
        switch (end - i) {
          case 2, 3 -> {
            if (is(sql, i, end, "OR") || is(sql, i, end, "AND")) {
              andOr++;
            } else if (is(sql, i, end, "MAP") || is(sql, i, end, "ROW")) {
              types++;
            }
          }
          case 4, 9, 13 -> {
            if (is(sql, i, end, "DATE")
                || is(sql, i, end, "TIMESTAMP")
                || is(sql, i, end, "TIMESTAMP_LTZ")) {
              checkYear(sql, sql.substring(i, end).toUpperCase(Locale.ROOT), end);
            }
          }
          case 5, 8 -> {
            if (is(sql, i, end, "ARRAY") || is(sql, i, end, "MULTISET")) {
              types++;
            }
          }
          default -> {}
        }
        i = end;
      } else {
        i++;
      }
    }
    return new Words(words, andOr, types);
  }

  /** Whether {@code sql[from, to)} is {@code word}, in any case. */
  private static boolean is(String sql, int from, int to, String word) {
    return to - from == word.length() && sql.regionMatches(true, from, word, 0, word.length());
  }

  /** The index after the quoted text that starts at {@code start} (a doubled quote is inside). */
  private static int endOfQuoted(String sql, int start, char quote) {
    int i = start + 1;
    while (i < sql.length()) {
      if (sql.charAt(i) == quote) {
        if (i + 1 < sql.length() && sql.charAt(i + 1) == quote) {
          i += 2;
          continue;
        }
        return i + 1;
      }
      i++;
    }
    return sql.length();
  }

  /** Refuses a literal {@code <word> '<year>-...'} whose year has more than four digits. */
  private static void checkYear(String sql, String word, int after) {
    int i = after;
    while (i < sql.length() && Character.isWhitespace(sql.charAt(i))) {
      i++;
    }
    if (i >= sql.length() || sql.charAt(i) != '\'') {
      return;
    }
    int end = endOfQuoted(sql, i, '\'');
    String text = sql.substring(i + 1, Math.max(i + 1, end - 1)).trim();
    int digits = 0;
    while (digits < text.length() && Character.isDigit(text.charAt(digits))) {
      digits++;
    }
    if (digits > 4 && digits < text.length() && text.charAt(digits) == '-') {
      throw at(
          sql,
          after - word.length(),
          end - 1,
          ErrorKind.VALIDATION,
          word + " literal '" + text + "' out of range: the year is at most 9999");
    }
  }

  /** Whether a word that reached {@code c} goes on with a letter (a digit only inside a word). */
  private static boolean continuesWord(char c) {
    return Character.isLetter(c) || c == '_' || c == '$';
  }

  private static boolean isWordChar(char c) {
    return Character.isLetterOrDigit(c) || c == '_' || c == '$';
  }

  private static PositionedException at(
      String sql, int from, int to, ErrorKind kind, String message) {
    return new PositionedException(
        kind,
        message,
        new SqlParserPos(line(sql, from), column(sql, from), line(sql, to), column(sql, to)));
  }

  private static int line(String sql, int index) {
    int line = 1;
    for (int i = 0; i < index; i++) {
      if (sql.charAt(i) == '\n') {
        line++;
      }
    }
    return line;
  }

  private static int column(String sql, int index) {
    return index - sql.lastIndexOf('\n', index - 1);
  }
}

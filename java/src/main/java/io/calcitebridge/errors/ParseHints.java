package io.calcitebridge.errors;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Parse error messages a user can act on. Calcite's parser says "Non-query expression encountered
 * in illegal context" for {@code SELEC * FROM t} and lists its internal token names ({@code
 * <BIG_QUERY_BACK_QUOTED_IDENTIFIER>}) when a reserved word is used as a name. Here:
 *
 * <ul>
 *   <li>a statement that starts with a word close to a statement keyword gets "did you mean
 *       SELECT?";
 *   <li>a word next to the error that is close to a keyword the parser expected there gets "did you
 *       mean FROM?" ({@code SELECT 1 FORM t});
 *   <li>a reserved word where a name was expected gets "quote it with backticks: `dec`";
 *   <li>a name after {@code MODEL} (Flink's {@code ML_PREDICT(TABLE t, MODEL m, ...)}) gets "models
 *       are not supported here";
 *   <li>the expected tokens are keywords and symbols, with "an identifier" and "a literal" in place
 *       of the token classes.
 * </ul>
 */
final class ParseHints {
  private static final List<String> STATEMENTS =
      List.of(
          "SELECT",
          "INSERT",
          "UPDATE",
          "DELETE",
          "CREATE",
          "DROP",
          "WITH",
          "VALUES",
          "EXPLAIN",
          "DESCRIBE",
          "SHOW",
          "SET",
          "RESET");
  private static final Pattern ENCOUNTERED = Pattern.compile("^Encountered \"(.*?)\"");
  private static final Pattern WORD = Pattern.compile("[A-Za-z_][A-Za-z_0-9]*");
  private static final int SHOWN = 8;

  private ParseHints() {}

  /** The message for {@code e}; {@code sql} is the text parsed, when known. */
  static String message(SqlParseException e, @Nullable String sql) {
    String msg = e.getMessage() == null ? "Syntax error" : e.getMessage();
    String first = msg.split("\n", 2)[0].replaceAll(" at line \\d+, column \\d+\\.?$", "");
    Collection<String> expected = e.getExpectedTokenNames();
    String leading = sql == null ? null : firstWord(sql);
    if (leading != null
        && !STATEMENTS.contains(leading.toUpperCase(Locale.ROOT))
        && (first.startsWith("Non-query expression") || atStart(e.getPos(), sql))) {
      String match = closest(leading, STATEMENTS);
      if (match != null) {
        return "Unknown statement '" + leading + "'; did you mean " + match + "?";
      }
      if (first.startsWith("Non-query expression")) {
        return "Unknown statement '"
            + leading
            + "'; a statement starts with "
            + String.join(", ", STATEMENTS);
      }
    }
    if (expected == null || expected.isEmpty() || !first.startsWith("Encountered")) {
      return first;
    }
    List<String> keywords = new ArrayList<>();
    Set<String> shown = new LinkedHashSet<>();
    boolean identifier = false;
    for (String token : expected) {
      if (token.startsWith("<")) {
        if (token.endsWith("IDENTIFIER>")) {
          identifier = true;
          shown.add("an identifier");
        } else if (token.endsWith("LITERAL>")) {
          shown.add("a literal");
        }
      } else {
        shown.add(token);
        if (token.length() > 2 && token.startsWith("\"") && token.endsWith("\"")) {
          keywords.add(token.substring(1, token.length() - 1));
        }
      }
    }
    List<String> sorted = new ArrayList<>(shown);
    sorted.sort(
        (a, b) ->
            a.startsWith("\"") == b.startsWith("\"")
                ? a.compareTo(b)
                : a.startsWith("\"") ? 1 : -1);
    String list =
        String.join(", ", sorted.subList(0, Math.min(SHOWN, sorted.size())))
            + (sorted.size() > SHOWN ? ", ..." : "");
    Matcher m = ENCOUNTERED.matcher(first);
    String token = m.find() ? m.group(1) : "";
    if (identifier && WORD.matcher(token).matches()) {
      return first
          + "; "
          + token
          + " is a reserved word: quote it with backticks to use it as a name: `"
          + token
          + "`";
    }
    String previous = sql == null ? null : wordBefore(sql, e.getPos());
    if (previous != null && previous.equalsIgnoreCase("MODEL")) {
      // Flink's ML_PREDICT(TABLE t, MODEL m, ...) names a model of CREATE MODEL.
      return first
          + " after 'MODEL': models (CREATE MODEL, ML_PREDICT's MODEL argument) are not"
          + " supported here";
    }
    if (previous != null) {
      String match = closest(previous, keywords);
      if (match != null && !match.equalsIgnoreCase(previous)) {
        return first + " after '" + previous + "'; did you mean " + match + "?";
      }
    }
    return first + "; expected " + (sorted.size() == 1 ? "" : "one of ") + list;
  }

  private static boolean atStart(SqlParserPos pos, String sql) {
    if (pos == null || pos.getLineNum() == 0) {
      return false;
    }
    int offset = offset(sql, pos);
    return sql.substring(0, Math.min(offset, sql.length())).isBlank();
  }

  private static @Nullable String firstWord(String sql) {
    Matcher m = WORD.matcher(sql.stripLeading());
    return m.lookingAt() ? m.group() : null;
  }

  /** The word that ends right before the token at {@code pos}. */
  private static @Nullable String wordBefore(String sql, SqlParserPos pos) {
    if (pos == null || pos.getLineNum() == 0) {
      return null;
    }
    int end = Math.min(offset(sql, pos), sql.length());
    int i = end;
    while (i > 0 && Character.isWhitespace(sql.charAt(i - 1))) {
      i--;
    }
    int start = i;
    while (start > 0
        && (Character.isLetterOrDigit(sql.charAt(start - 1)) || sql.charAt(start - 1) == '_')) {
      start--;
    }
    return start < i && WORD.matcher(sql.substring(start, i)).matches()
        ? sql.substring(start, i)
        : null;
  }

  private static int offset(String sql, SqlParserPos pos) {
    int line = 1;
    int i = 0;
    while (line < pos.getLineNum() && i < sql.length()) {
      if (sql.charAt(i++) == '\n') {
        line++;
      }
    }
    return i + pos.getColumnNum() - 1;
  }

  /** The candidate within two edits of {@code word} (ignoring case), the nearest first. */
  private static @Nullable String closest(String word, List<String> candidates) {
    String upper = word.toUpperCase(Locale.ROOT);
    String best = null;
    int bestDistance = 3;
    for (String c : candidates) {
      int d = distance(upper, c.toUpperCase(Locale.ROOT));
      int limit = Math.min(2, Math.max(1, c.length() / 3));
      if (d <= limit && d < bestDistance) {
        best = c;
        bestDistance = d;
      }
    }
    return best;
  }

  /** Optimal string alignment distance: insertions, deletions, substitutions, transpositions. */
  static int distance(String a, String b) {
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= b.length(); j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1
            && j > 1
            && a.charAt(i - 1) == b.charAt(j - 2)
            && a.charAt(i - 2) == b.charAt(j - 1)) {
          d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
        }
      }
    }
    return d[a.length()][b.length()];
  }
}

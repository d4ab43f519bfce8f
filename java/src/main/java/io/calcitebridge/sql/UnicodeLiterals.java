package io.calcitebridge.sql;

import java.util.Locale;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.util.SqlShuttle;
import org.apache.calcite.util.NlsString;

/**
 * A string literal written {@code U&'\0041'} (or {@code _UTF16'...'}) is an ordinary string, as in
 * Flink, whose strings all have one character set. Calcite's parser gives such a literal the
 * character set UTF-16LE, which its validator then refused to compare or concatenate with any other
 * string ("CHAR(1) CHARACTER SET "UTF-16LE" NOT NULL is not comparable to CHAR(1) NOT NULL"), and
 * which the DuckDB translation wrote as {@code _UTF-16LE'A'}, a syntax error there.
 */
public final class UnicodeLiterals extends SqlShuttle {
  /** The parser names the set of a U&amp; literal UTF16; Calcite's types call it UTF-16LE. */
  private static final String UTF16 = "UTF16";

  private UnicodeLiterals() {}

  /** {@code node} parsed from {@code sql}, its UTF-16 string literals in the default set. */
  public static SqlNode apply(String sql, SqlNode node) {
    if (sql.indexOf("&'") < 0 && !mentionsUtf16(sql)) {
      return node; // no U&'...' and no _UTF16'...': no walk of the tree
    }
    SqlNode out = node.accept(new UnicodeLiterals());
    return out == null ? node : out;
  }

  private static boolean mentionsUtf16(String sql) {
    for (int i = sql.indexOf('_'); i >= 0; i = sql.indexOf('_', i + 1)) {
      if (sql.regionMatches(true, i, "_UTF16", 0, 6)) {
        return true;
      }
    }
    return false;
  }

  @Override
  public SqlNode visit(SqlLiteral literal) {
    if (literal instanceof SqlCharStringLiteral) {
      NlsString value = literal.getValueAs(NlsString.class);
      String charset = value.getCharsetName();
      if (charset != null && charset.replace("-", "").toUpperCase(Locale.ROOT).startsWith(UTF16)) {
        return SqlLiteral.createCharString(value.getValue(), literal.getParserPosition());
      }
    }
    return literal;
  }
}

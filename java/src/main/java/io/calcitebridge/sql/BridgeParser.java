package io.calcitebridge.sql;

import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.avatica.util.Quoting;
import org.apache.calcite.sql.SqlDialect;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;

/**
 * Entry point of the parser: Flink's lexical conventions (identifiers quoted with backticks,
 * case-sensitive, unquoted identifiers unchanged) over Calcite's grammar and our statements.
 *
 * <p>Errors are {@link SqlParseException}s whose {@code getPos()} gives the line and column
 * (1-based) of the offending token.
 */
public final class BridgeParser {
  private static final SqlParser.Config CONFIG =
      SqlParser.config()
          .withParserFactory(io.calcitebridge.sql.parser.impl.StoppableParsers.factory())
          .withQuoting(Quoting.BACK_TICK)
          .withUnquotedCasing(Casing.UNCHANGED)
          .withQuotedCasing(Casing.UNCHANGED)
          .withCaseSensitive(true)
          .withConformance(BridgeConformance.INSTANCE);

  private static final SqlDialect DIALECT =
      new SqlDialect(
          SqlDialect.EMPTY_CONTEXT
              .withIdentifierQuoteString("`")
              .withUnquotedCasing(Casing.UNCHANGED)
              .withQuotedCasing(Casing.UNCHANGED)
              .withCaseSensitive(true)) {
        /**
         * A table's hints (an {@code OPTIONS} hint) on a line after its name, as Flink writes them:
         * Calcite's dialect leaves them out, and a view's stored query lost them.
         */
        @Override
        public void unparseTableScanHints(
            SqlWriter writer, SqlNodeList hints, int leftPrec, int rightPrec) {
          writer.newlineAndIndent();
          writer.print("/*+ ");
          hints.unparse(writer, 0, 0);
          writer.print("*/");
        }
      };

  private BridgeParser() {}

  /** Returns the parser configuration of the dialect. */
  public static SqlParser.Config config() {
    return CONFIG;
  }

  /** Returns a dialect that unparses into SQL this parser reads back. */
  public static SqlDialect dialect() {
    return DIALECT;
  }

  /** Parses one statement (a trailing semicolon is not allowed). */
  public static SqlNode parseStatement(String sql) throws SqlParseException {
    try {
      return SqlParser.create(sql, CONFIG).parseStmt();
    } catch (SqlParseException e) {
      io.calcitebridge.errors.Stop.checkCurrent(); // the statement's stop ended the parse
      throw e;
    }
  }

  /**
   * Parses statements separated by semicolons, as in a catalog file; empty statements (";;", a
   * trailing ";") are skipped.
   */
  public static SqlNodeList parseStatements(String sql) throws SqlParseException {
    try {
      return SqlParser.create(sql, CONFIG).parseStmtList();
    } catch (SqlParseException e) {
      io.calcitebridge.errors.Stop.checkCurrent(); // the statement's stop ended the parse
      throw e;
    }
  }

  /** Parses a scalar expression, such as a filter or a computed column. */
  public static SqlNode parseExpression(String expr) throws SqlParseException {
    return SqlParser.create(expr, CONFIG).parseExpression();
  }

  /** Unparses a node into SQL of this dialect (identifiers in backticks). */
  public static String unparse(SqlNode node) {
    return node.toSqlString(
            c -> c.withDialect(DIALECT).withQuoteAllIdentifiers(true).withIndentation(2))
        .getSql();
  }
}

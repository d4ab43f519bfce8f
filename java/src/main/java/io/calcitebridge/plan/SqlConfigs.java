package io.calcitebridge.plan;

import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.avatica.util.Quoting;
import org.apache.calcite.sql.SqlDialect;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.validate.SqlConformanceEnum;

/** Parser settings shared by every statement. */
final class SqlConfigs {
  /** The dialect that unparses trees into our own SQL. */
  static final SqlDialect DIALECT =
      new SqlDialect(
          SqlDialect.EMPTY_CONTEXT
              .withDatabaseProduct(SqlDialect.DatabaseProduct.CALCITE)
              .withIdentifierQuoteString("`")
              .withUnquotedCasing(Casing.UNCHANGED)
              .withQuotedCasing(Casing.UNCHANGED)
              .withCaseSensitive(true));

  private SqlConfigs() {}

  static SqlParser.Config parserConfig() {
    return SqlParser.config()
        .withQuoting(Quoting.BACK_TICK)
        .withUnquotedCasing(Casing.UNCHANGED)
        .withQuotedCasing(Casing.UNCHANGED)
        .withCaseSensitive(true)
        .withConformance(SqlConformanceEnum.DEFAULT);
  }
}

package io.calcitebridge.sql;

import org.apache.calcite.sql.SqlDescribeTable;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * {@code DESCRIBE EXTENDED name}: every column of a table or view with its kind, metadata key,
 * virtual flag and expression (what {@code env.describe} and the Java API's {@code describe()}
 * read), where {@code DESCRIBE name} gives Flink's columns.
 */
public class SqlDescribeExtended extends SqlDescribeTable {
  public SqlDescribeExtended(
      SqlParserPos pos, SqlIdentifier table, @Nullable SqlIdentifier column) {
    super(pos, table, column);
  }

  @Override
  public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword("DESCRIBE");
    writer.keyword("EXTENDED");
    getTable().unparse(writer, leftPrec, rightPrec);
    if (getColumn() != null) {
      getColumn().unparse(writer, leftPrec, rightPrec);
    }
  }
}

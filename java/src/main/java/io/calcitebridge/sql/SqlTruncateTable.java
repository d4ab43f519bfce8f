package io.calcitebridge.sql;

import org.apache.calcite.sql.SqlDelete;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * Flink's {@code TRUNCATE TABLE name}: a DELETE of every row, which runs where the table's
 * connector can delete rows, and is refused with Flink's words of {@code SupportsTruncate}
 * elsewhere.
 */
public class SqlTruncateTable extends SqlDelete {
  public SqlTruncateTable(SqlParserPos pos, SqlIdentifier name) {
    super(pos, name, null, null, null);
  }

  @Override
  public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword("TRUNCATE TABLE");
    getTargetTable().unparse(writer, 0, 0);
  }
}

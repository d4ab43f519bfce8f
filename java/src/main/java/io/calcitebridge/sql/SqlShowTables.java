package io.calcitebridge.sql;

import java.util.List;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

/** {@code SHOW TABLES}: lists the tables and views of the catalog. */
public class SqlShowTables extends SqlCall {
  /** The operator of SHOW TABLES. */
  public static final SqlOperator OPERATOR =
      new BridgeOperator("SHOW TABLES", SqlKind.OTHER, (pos, ops) -> new SqlShowTables(pos));

  /** Creates a SHOW TABLES. */
  public SqlShowTables(SqlParserPos pos) {
    super(pos);
  }

  @Override
  public SqlOperator getOperator() {
    return OPERATOR;
  }

  @Override
  public List<SqlNode> getOperandList() {
    return List.of();
  }

  @Override
  public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword("SHOW TABLES");
  }
}

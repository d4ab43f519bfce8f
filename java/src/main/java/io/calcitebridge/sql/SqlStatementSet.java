package io.calcitebridge.sql;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.util.ImmutableNullableList;

/**
 * Flink's {@code EXECUTE STATEMENT SET BEGIN INSERT ...; INSERT ...; END}: its INSERTs run as one
 * statement.
 */
public class SqlStatementSet extends SqlCall {
  private static final SqlOperator OPERATOR =
      new BridgeOperator(
          "EXECUTE STATEMENT SET",
          SqlKind.OTHER,
          (pos, ops) -> new SqlStatementSet(pos, (SqlNodeList) ops.get(0)));

  private final SqlNodeList inserts;

  public SqlStatementSet(SqlParserPos pos, SqlNodeList inserts) {
    super(pos);
    this.inserts = inserts;
  }

  /** The INSERTs, in order. */
  public List<SqlInsert> inserts() {
    List<SqlInsert> out = new ArrayList<>();
    for (SqlNode n : inserts) {
      out.add((SqlInsert) n);
    }
    return out;
  }

  @Override
  public SqlOperator getOperator() {
    return OPERATOR;
  }

  @Override
  public List<SqlNode> getOperandList() {
    return ImmutableNullableList.of(inserts);
  }

  @Override
  public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword("EXECUTE STATEMENT SET BEGIN");
    for (SqlNode n : inserts) {
      writer.newlineAndIndent();
      n.unparse(writer, 0, 0);
      writer.print(";");
    }
    writer.newlineAndIndent();
    writer.keyword("END");
  }
}

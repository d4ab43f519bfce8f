package io.calcitebridge.sql;

import java.util.List;
import java.util.Objects;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.util.ImmutableNullableList;

/** {@code SHOW CREATE TABLE name} and {@code SHOW CREATE VIEW name}. */
public class SqlShowCreateTable extends SqlCall {
  /** The operator of SHOW CREATE TABLE. */
  public static final SqlOperator SHOW_CREATE_TABLE =
      new BridgeOperator(
          "SHOW CREATE TABLE",
          SqlKind.OTHER,
          (pos, ops) ->
              new SqlShowCreateTable(
                  pos, (SqlIdentifier) Objects.requireNonNull(ops.get(0)), false));

  /** The operator of SHOW CREATE VIEW. */
  public static final SqlOperator SHOW_CREATE_VIEW =
      new BridgeOperator(
          "SHOW CREATE VIEW",
          SqlKind.OTHER,
          (pos, ops) ->
              new SqlShowCreateTable(
                  pos, (SqlIdentifier) Objects.requireNonNull(ops.get(0)), true));

  private final SqlIdentifier name;
  private final boolean isView;

  /** Creates a SHOW CREATE TABLE (or VIEW when {@code isView}). */
  public SqlShowCreateTable(SqlParserPos pos, SqlIdentifier name, boolean isView) {
    super(pos);
    this.name = Objects.requireNonNull(name, "name");
    this.isView = isView;
  }

  /** Returns the name of the table or view. */
  public SqlIdentifier name() {
    return name;
  }

  /** Returns whether the statement said VIEW (else TABLE). */
  public boolean isView() {
    return isView;
  }

  @Override
  public SqlOperator getOperator() {
    return isView ? SHOW_CREATE_VIEW : SHOW_CREATE_TABLE;
  }

  @Override
  public List<SqlNode> getOperandList() {
    return ImmutableNullableList.of(name);
  }

  @Override
  public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword("SHOW CREATE");
    writer.keyword(isView ? "VIEW" : "TABLE");
    name.unparse(writer, leftPrec, rightPrec);
  }
}

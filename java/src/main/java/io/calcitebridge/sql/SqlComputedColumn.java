package io.calcitebridge.sql;

import java.util.List;
import java.util.Objects;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.util.ImmutableNullableList;

/** A computed column, never stored: {@code name AS expression}. */
public class SqlComputedColumn extends SqlTableColumn {
  /** The operator of computed column definitions. */
  public static final SqlOperator OPERATOR =
      new BridgeOperator(
          "COMPUTED COLUMN",
          SqlKind.COLUMN_DECL,
          (pos, ops) ->
              withComment(
                  new SqlComputedColumn(
                      pos,
                      (SqlIdentifier) Objects.requireNonNull(ops.get(0)),
                      Objects.requireNonNull(ops.get(1))),
                  ops.get(2)));

  private final SqlNode expression;

  /** Creates a computed column. */
  public SqlComputedColumn(SqlParserPos pos, SqlIdentifier name, SqlNode expression) {
    super(pos, name);
    this.expression = Objects.requireNonNull(expression, "expression");
  }

  /** Returns the expression after AS (not validated). */
  public SqlNode expression() {
    return expression;
  }

  @Override
  public SqlOperator getOperator() {
    return OPERATOR;
  }

  @Override
  public List<SqlNode> getOperandList() {
    return ImmutableNullableList.of(name, expression, commentLiteral());
  }

  @Override
  public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    name.unparse(writer, 0, 0);
    writer.keyword("AS");
    expression.unparse(writer, 0, 0);
    unparseComment(writer);
  }
}

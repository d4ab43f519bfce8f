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

/** {@code WATERMARK FOR column AS expression} in the column list of {@code CREATE TABLE}. */
public class SqlWatermark extends SqlCall {
  /** The operator of watermark definitions. */
  public static final SqlOperator OPERATOR =
      new BridgeOperator(
          "WATERMARK",
          SqlKind.OTHER,
          (pos, ops) ->
              new SqlWatermark(
                  pos,
                  (SqlIdentifier) Objects.requireNonNull(ops.get(0)),
                  Objects.requireNonNull(ops.get(1))));

  private final SqlIdentifier column;
  private final SqlNode expression;

  /** Creates a watermark definition. */
  public SqlWatermark(SqlParserPos pos, SqlIdentifier column, SqlNode expression) {
    super(pos);
    this.column = Objects.requireNonNull(column, "column");
    this.expression = Objects.requireNonNull(expression, "expression");
  }

  /** Returns the rowtime column, with its position. */
  public SqlIdentifier column() {
    return column;
  }

  /** Returns the watermark expression (not validated). */
  public SqlNode expression() {
    return expression;
  }

  @Override
  public SqlOperator getOperator() {
    return OPERATOR;
  }

  @Override
  public List<SqlNode> getOperandList() {
    return ImmutableNullableList.of(column, expression);
  }

  @Override
  public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword("WATERMARK FOR");
    column.unparse(writer, 0, 0);
    writer.keyword("AS");
    expression.unparse(writer, 0, 0);
  }
}

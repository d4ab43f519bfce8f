package io.calcitebridge.sql;

import io.calcitebridge.sql.type.BridgeTypeSpecs;
import java.util.List;
import java.util.Objects;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.util.ImmutableNullableList;

/** A stored column: {@code name type [NOT NULL]}. */
public class SqlPhysicalColumn extends SqlTableColumn {
  /** The operator of physical column definitions. */
  public static final SqlOperator OPERATOR =
      new BridgeOperator(
          "PHYSICAL COLUMN",
          SqlKind.COLUMN_DECL,
          (pos, ops) ->
              withComment(
                  new SqlPhysicalColumn(
                      pos,
                      (SqlIdentifier) Objects.requireNonNull(ops.get(0)),
                      (SqlDataTypeSpec) Objects.requireNonNull(ops.get(1))),
                  ops.get(2)));

  private final SqlDataTypeSpec type;

  /** Creates a physical column; {@code type} carries the nullability. */
  public SqlPhysicalColumn(SqlParserPos pos, SqlIdentifier name, SqlDataTypeSpec type) {
    super(pos, name);
    this.type = Objects.requireNonNull(type, "type");
  }

  /** Returns the type, with its nullability ({@code getNullable()}). */
  public SqlDataTypeSpec type() {
    return type;
  }

  @Override
  public SqlOperator getOperator() {
    return OPERATOR;
  }

  @Override
  public List<SqlNode> getOperandList() {
    return ImmutableNullableList.of(name, type, commentLiteral());
  }

  @Override
  public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    name.unparse(writer, 0, 0);
    BridgeTypeSpecs.unparse(writer, type);
    unparseComment(writer);
  }
}

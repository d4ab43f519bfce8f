package io.calcitebridge.sql;

import java.util.List;
import org.apache.calcite.sql.SqlAlter;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.util.ImmutableNullableList;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * {@code RESET 'key'} restores one configuration key to its default; {@code RESET} alone restores
 * all of them (key is null). Extends {@link SqlAlter} for the same reason as {@link SqlSetConfig}.
 */
public class SqlResetConfig extends SqlAlter {
  /** The operator of RESET. */
  public static final SqlOperator OPERATOR =
      new BridgeOperator(
          "RESET",
          SqlKind.SET_OPTION,
          (pos, ops) ->
              new SqlResetConfig(
                  pos, BridgeOperator.scopeOf(ops.get(1)), (SqlCharStringLiteral) ops.get(0)));

  private final @Nullable SqlCharStringLiteral key;

  /** Creates a RESET; {@code key} is null to reset every key. */
  public SqlResetConfig(
      SqlParserPos pos, @Nullable String scope, @Nullable SqlCharStringLiteral key) {
    super(pos, scope);
    this.key = key;
  }

  /** Returns the key, or null when every key is reset. */
  public @Nullable String key() {
    return key == null ? null : key.getValueAs(String.class);
  }

  @Override
  public SqlOperator getOperator() {
    return OPERATOR;
  }

  @Override
  public List<SqlNode> getOperandList() {
    return ImmutableNullableList.of(key, BridgeOperator.scopeOperand(getScope()));
  }

  @Override
  protected void unparseAlterOperation(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword("RESET");
    if (key != null) {
      key.unparse(writer, 0, 0);
    }
  }
}

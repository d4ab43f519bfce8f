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
 * {@code SET 'key' = 'value'} sets a configuration key of the environment; {@code SET} alone lists
 * the settings (key and value are null).
 *
 * <p>It extends {@link SqlAlter} because Calcite parses SET through one production that also serves
 * {@code ALTER SESSION SET}; the scope is null for a plain SET. Calcite's unquoted {@code SET name
 * = value} still gives {@link org.apache.calcite.sql.SqlSetOption}.
 */
public class SqlSetConfig extends SqlAlter {
  /** The operator of SET 'key' = 'value'. */
  public static final SqlOperator OPERATOR =
      new BridgeOperator(
          "SET",
          SqlKind.SET_OPTION,
          (pos, ops) ->
              new SqlSetConfig(
                  pos,
                  BridgeOperator.scopeOf(ops.get(2)),
                  (SqlCharStringLiteral) ops.get(0),
                  (SqlCharStringLiteral) ops.get(1)));

  private final @Nullable SqlCharStringLiteral key;
  private final @Nullable SqlCharStringLiteral value;

  /** Creates a SET; key and value are both null or both given. */
  public SqlSetConfig(
      SqlParserPos pos,
      @Nullable String scope,
      @Nullable SqlCharStringLiteral key,
      @Nullable SqlCharStringLiteral value) {
    super(pos, scope);
    if (key == null && value != null) {
      throw new IllegalArgumentException("a value needs its key");
    }
    this.key = key;
    this.value = value;
  }

  /** Returns the key, or null for a SET that lists the settings. */
  public @Nullable String key() {
    return key == null ? null : key.getValueAs(String.class);
  }

  /** Returns the value, or null for a SET that lists the settings. */
  public @Nullable String value() {
    return value == null ? null : value.getValueAs(String.class);
  }

  /** Returns whether this SET lists the settings (no key). */
  public boolean isList() {
    return key == null;
  }

  @Override
  public SqlOperator getOperator() {
    return OPERATOR;
  }

  @Override
  public List<SqlNode> getOperandList() {
    return ImmutableNullableList.of(key, value, BridgeOperator.scopeOperand(getScope()));
  }

  @Override
  protected void unparseAlterOperation(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword("SET");
    if (key != null && value != null) {
      key.unparse(writer, 0, 0);
      writer.keyword("=");
      value.unparse(writer, 0, 0);
    }
  }
}

package io.calcitebridge.sql;

import io.calcitebridge.sql.type.BridgeTypeSpecs;
import java.util.List;
import java.util.Objects;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.util.ImmutableNullableList;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A metadata column: {@code name type [NOT NULL] METADATA [FROM 'key'] [VIRTUAL]}. Without {@code
 * FROM} it reads the key equal to its name.
 */
public class SqlMetadataColumn extends SqlTableColumn {
  /** The operator of metadata column definitions. */
  public static final SqlOperator OPERATOR =
      new BridgeOperator(
          "METADATA COLUMN",
          SqlKind.COLUMN_DECL,
          (pos, ops) ->
              withComment(
                  new SqlMetadataColumn(
                      pos,
                      (SqlIdentifier) Objects.requireNonNull(ops.get(0)),
                      (SqlDataTypeSpec) Objects.requireNonNull(ops.get(1)),
                      (SqlCharStringLiteral) ops.get(2),
                      BridgeOperator.isTrue(ops.get(3))),
                  ops.get(4)));

  private final SqlDataTypeSpec type;
  private final @Nullable SqlCharStringLiteral key;
  private final boolean isVirtual;

  /** Creates a metadata column; {@code key} is null when there is no FROM. */
  public SqlMetadataColumn(
      SqlParserPos pos,
      SqlIdentifier name,
      SqlDataTypeSpec type,
      @Nullable SqlCharStringLiteral key,
      boolean isVirtual) {
    super(pos, name);
    this.type = Objects.requireNonNull(type, "type");
    this.key = key;
    this.isVirtual = isVirtual;
  }

  /** Returns the type, with its nullability. */
  public SqlDataTypeSpec type() {
    return type;
  }

  /** Returns the key after FROM, or null when the column has no FROM. */
  public @Nullable String metadataKey() {
    return key == null ? null : key.getValueAs(String.class);
  }

  /** Returns the key literal after FROM, or null. */
  public @Nullable SqlCharStringLiteral metadataKeyLiteral() {
    return key;
  }

  /** Returns the key this column reads: the FROM key, else its name. */
  public String effectiveKey() {
    final String k = metadataKey();
    return k == null ? name() : k;
  }

  /** Returns whether the column is VIRTUAL (read-only). */
  public boolean isVirtual() {
    return isVirtual;
  }

  @Override
  public SqlOperator getOperator() {
    return OPERATOR;
  }

  @Override
  public List<SqlNode> getOperandList() {
    return ImmutableNullableList.of(
        name, type, key, BridgeOperator.flag(isVirtual), commentLiteral());
  }

  @Override
  public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    name.unparse(writer, 0, 0);
    BridgeTypeSpecs.unparse(writer, type);
    writer.keyword("METADATA");
    if (key != null) {
      writer.keyword("FROM");
      key.unparse(writer, 0, 0);
    }
    if (isVirtual) {
      writer.keyword("VIRTUAL");
    }
    unparseComment(writer);
  }
}

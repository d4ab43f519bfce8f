package io.calcitebridge.sql;

import java.util.List;
import java.util.Objects;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.util.ImmutableNullableList;
import org.checkerframework.checker.nullness.qual.Nullable;

/** {@code SHOW COLUMNS FROM|IN name [[NOT] LIKE 'pattern']}: Flink's column listing of a table. */
public class SqlShowColumns extends SqlCall {
  /** The operator of SHOW COLUMNS. */
  public static final SqlOperator OPERATOR =
      new BridgeOperator(
          "SHOW COLUMNS",
          SqlKind.OTHER,
          (pos, ops) ->
              new SqlShowColumns(
                  pos,
                  (SqlIdentifier) Objects.requireNonNull(ops.get(0)),
                  BridgeOperator.isTrue(ops.get(1)),
                  (SqlCharStringLiteral) ops.get(2)));

  private final SqlIdentifier name;
  private final boolean notLike;
  private final @Nullable SqlCharStringLiteral pattern;

  /** Creates a SHOW COLUMNS; {@code pattern} is null without LIKE. */
  public SqlShowColumns(
      SqlParserPos pos,
      SqlIdentifier name,
      boolean notLike,
      @Nullable SqlCharStringLiteral pattern) {
    super(pos);
    this.name = Objects.requireNonNull(name, "name");
    this.notLike = notLike;
    this.pattern = pattern;
  }

  /** Returns the table or view name. */
  public SqlIdentifier name() {
    return name;
  }

  /** Returns whether the pattern is negated ({@code NOT LIKE}). */
  public boolean isNotLike() {
    return notLike;
  }

  /** Returns the LIKE pattern, or null. */
  public @Nullable String pattern() {
    return pattern == null ? null : pattern.getValueAs(String.class);
  }

  @Override
  public SqlOperator getOperator() {
    return OPERATOR;
  }

  @Override
  public List<SqlNode> getOperandList() {
    return ImmutableNullableList.of(name, BridgeOperator.flag(notLike), pattern);
  }

  @Override
  public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword("SHOW COLUMNS FROM");
    name.unparse(writer, 0, 0);
    if (pattern != null) {
      if (notLike) {
        writer.keyword("NOT");
      }
      writer.keyword("LIKE");
      pattern.unparse(writer, 0, 0);
    }
  }
}

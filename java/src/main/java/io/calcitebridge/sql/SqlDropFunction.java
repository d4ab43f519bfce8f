package io.calcitebridge.sql;

import java.util.List;
import java.util.Objects;
import org.apache.calcite.sql.SqlDrop;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.util.ImmutableNullableList;

/** Flink's {@code DROP [TEMPORARY [SYSTEM]] FUNCTION [IF EXISTS] [c.db.]name}. */
public class SqlDropFunction extends SqlDrop {
  /** The operator of DROP FUNCTION. */
  public static final SqlOperator OPERATOR =
      new BridgeOperator(
          "DROP FUNCTION",
          SqlKind.DROP_FUNCTION,
          (pos, ops) ->
              new SqlDropFunction(
                  pos,
                  BridgeOperator.isTrue(ops.get(0)),
                  BridgeOperator.isTrue(ops.get(1)),
                  BridgeOperator.isTrue(ops.get(2)),
                  (SqlIdentifier) Objects.requireNonNull(ops.get(3))));

  private final boolean temporary;
  private final boolean system;
  private final SqlIdentifier name;

  /** Creates a DROP FUNCTION. */
  public SqlDropFunction(
      SqlParserPos pos, boolean temporary, boolean system, boolean ifExists, SqlIdentifier name) {
    super(OPERATOR, pos, ifExists);
    this.temporary = temporary;
    this.system = system;
    this.name = name;
  }

  public SqlIdentifier name() {
    return name;
  }

  public boolean isTemporary() {
    return temporary;
  }

  public boolean isSystem() {
    return system;
  }

  public boolean ifExists() {
    return ifExists;
  }

  @Override
  public SqlOperator getOperator() {
    return OPERATOR;
  }

  @Override
  public List<SqlNode> getOperandList() {
    return ImmutableNullableList.of(
        BridgeOperator.flag(temporary),
        BridgeOperator.flag(system),
        BridgeOperator.flag(ifExists),
        name);
  }

  @Override
  public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword("DROP");
    if (temporary) {
      writer.keyword("TEMPORARY");
    }
    if (system) {
      writer.keyword("SYSTEM");
    }
    writer.keyword("FUNCTION");
    if (ifExists) {
      writer.keyword("IF EXISTS");
    }
    name.unparse(writer, 0, 0);
  }
}

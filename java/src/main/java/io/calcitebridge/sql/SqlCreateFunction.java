package io.calcitebridge.sql;

import java.util.List;
import java.util.Objects;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlCreate;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.util.ImmutableNullableList;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Flink's {@code CREATE [TEMPORARY [SYSTEM]] FUNCTION [IF NOT EXISTS] [c.db.]name AS 'target'
 * [LANGUAGE JAVA|PYTHON|...] [USING JAR 'path' [, JAR 'path']*]}.
 */
public class SqlCreateFunction extends SqlCreate {
  /** The operator of CREATE FUNCTION. */
  public static final SqlOperator OPERATOR =
      new BridgeOperator(
          "CREATE FUNCTION",
          SqlKind.CREATE_FUNCTION,
          (pos, ops) ->
              new SqlCreateFunction(
                  pos,
                  BridgeOperator.isTrue(ops.get(0)),
                  BridgeOperator.isTrue(ops.get(1)),
                  BridgeOperator.isTrue(ops.get(2)),
                  BridgeOperator.isTrue(ops.get(3)),
                  (SqlIdentifier) Objects.requireNonNull(ops.get(4)),
                  (SqlCharStringLiteral) Objects.requireNonNull(ops.get(5)),
                  ops.get(6) == null ? null : ((SqlIdentifier) ops.get(6)).getSimple(),
                  (SqlNodeList) Objects.requireNonNull(ops.get(7))));

  private final boolean temporary;
  private final boolean system;
  private final SqlIdentifier name;
  private final SqlCharStringLiteral target;
  private final @Nullable String language;
  private final SqlNodeList jars;

  /** Creates a CREATE FUNCTION; {@code language} upper case, or null when not given. */
  public SqlCreateFunction(
      SqlParserPos pos,
      boolean replace,
      boolean temporary,
      boolean system,
      boolean ifNotExists,
      SqlIdentifier name,
      SqlCharStringLiteral target,
      @Nullable String language,
      SqlNodeList jars) {
    super(OPERATOR, pos, replace, ifNotExists);
    this.temporary = temporary;
    this.system = system;
    this.name = name;
    this.target = target;
    this.language = language;
    this.jars = jars;
  }

  public SqlIdentifier name() {
    return name;
  }

  public boolean isTemporary() {
    return temporary;
  }

  /** Whether this is a TEMPORARY SYSTEM function. */
  public boolean isSystem() {
    return system;
  }

  public boolean ifNotExists() {
    return ifNotExists;
  }

  /** The class or {@code package.module.attr} named after AS. */
  public String target() {
    return Objects.requireNonNull(target.getValueAs(String.class));
  }

  /** The literal after AS, for positions. */
  public SqlCharStringLiteral targetLiteral() {
    return target;
  }

  /** The language (upper case), or null when the statement names none (JAVA, as in Flink). */
  public @Nullable String language() {
    return language;
  }

  /** The literals of USING JAR. */
  public SqlNodeList jars() {
    return jars;
  }

  @Override
  public SqlOperator getOperator() {
    return OPERATOR;
  }

  @Override
  public List<@Nullable SqlNode> getOperandList() {
    return ImmutableNullableList.of(
        BridgeOperator.flag(getReplace()),
        BridgeOperator.flag(temporary),
        BridgeOperator.flag(system),
        BridgeOperator.flag(ifNotExists),
        name,
        target,
        language == null ? null : new SqlIdentifier(language, SqlParserPos.ZERO),
        jars);
  }

  @Override
  public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword("CREATE");
    if (temporary) {
      writer.keyword("TEMPORARY");
    }
    if (system) {
      writer.keyword("SYSTEM");
    }
    writer.keyword("FUNCTION");
    if (ifNotExists) {
      writer.keyword("IF NOT EXISTS");
    }
    name.unparse(writer, 0, 0);
    writer.keyword("AS");
    target.unparse(writer, 0, 0);
    if (language != null) {
      writer.keyword("LANGUAGE");
      writer.keyword(language);
    }
    for (int i = 0; i < jars.size(); i++) {
      writer.keyword(i == 0 ? "USING JAR" : ", JAR");
      ((SqlLiteral) jars.get(i)).unparse(writer, 0, 0);
    }
  }
}

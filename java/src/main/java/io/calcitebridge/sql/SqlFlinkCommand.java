package io.calcitebridge.sql;

import java.util.List;
import java.util.Locale;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.util.ImmutableNullableList;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Flink's statements on compiled plans and materialized tables, and the SQL client's HELP: {@code
 * COMPILE [AND EXECUTE] PLAN 'file' [IF NOT EXISTS] FOR stmt}, {@code EXECUTE PLAN 'file'}, {@code
 * SHOW CREATE MATERIALIZED TABLE name}, {@code ALTER MATERIALIZED TABLE name REFRESH | SUSPEND |
 * RESUME [WITH (...)]}.
 */
public class SqlFlinkCommand extends SqlCall {
  /** Which statement. */
  public enum Kind {
    HELP("HELP"),
    COMPILE_PLAN("COMPILE PLAN"),
    COMPILE_AND_EXECUTE_PLAN("COMPILE AND EXECUTE PLAN"),
    EXECUTE_PLAN("EXECUTE PLAN"),
    SHOW_CREATE_MATERIALIZED_TABLE("SHOW CREATE MATERIALIZED TABLE"),
    REFRESH_MATERIALIZED_TABLE("ALTER MATERIALIZED TABLE REFRESH"),
    SUSPEND_MATERIALIZED_TABLE("ALTER MATERIALIZED TABLE SUSPEND"),
    RESUME_MATERIALIZED_TABLE("ALTER MATERIALIZED TABLE RESUME");

    private final String words;

    Kind(String words) {
      this.words = words;
    }

    /** The statement's words, as written. */
    public String words() {
      return words;
    }
  }

  private static final SqlOperator OPERATOR =
      new BridgeOperator(
          "FLINK COMMAND",
          SqlKind.OTHER,
          (pos, ops) ->
              new SqlFlinkCommand(
                  pos,
                  Kind.valueOf(
                      ((SqlIdentifier) java.util.Objects.requireNonNull(ops.get(0))).getSimple()),
                  (SqlIdentifier) ops.get(1),
                  (SqlCharStringLiteral) ops.get(2),
                  BridgeOperator.isTrue(ops.get(3)),
                  ops.get(4),
                  (SqlNodeList) ops.get(5)));

  private final Kind kind;
  private final @Nullable SqlIdentifier name;
  private final @Nullable SqlCharStringLiteral file;
  private final boolean ifNotExists;
  private final @Nullable SqlNode statement;
  private final @Nullable SqlNodeList options;

  public SqlFlinkCommand(
      SqlParserPos pos,
      Kind kind,
      @Nullable SqlIdentifier name,
      @Nullable SqlCharStringLiteral file,
      boolean ifNotExists,
      @Nullable SqlNode statement,
      @Nullable SqlNodeList options) {
    super(pos);
    this.kind = kind;
    this.name = name;
    this.file = file;
    this.ifNotExists = ifNotExists;
    this.statement = statement;
    this.options = options;
  }

  public Kind kind() {
    return kind;
  }

  /** The materialized table's name, or null. */
  public @Nullable SqlIdentifier name() {
    return name;
  }

  /** The plan file's literal, or null. */
  public @Nullable SqlCharStringLiteral file() {
    return file;
  }

  /** The plan file's path as written, or null. */
  public @Nullable String filePath() {
    return file == null ? null : file.getValueAs(String.class);
  }

  public boolean ifNotExists() {
    return ifNotExists;
  }

  /** The INSERT or statement set a plan is compiled for, or null. */
  public @Nullable SqlNode statement() {
    return statement;
  }

  /** WITH (...) of RESUME, as key = value pairs, or null. */
  public @Nullable SqlNodeList options() {
    return options;
  }

  @Override
  public SqlOperator getOperator() {
    return OPERATOR;
  }

  @Override
  public List<SqlNode> getOperandList() {
    return ImmutableNullableList.of(
        new SqlIdentifier(kind.name(), SqlParserPos.ZERO),
        name,
        file,
        BridgeOperator.flag(ifNotExists),
        statement,
        options);
  }

  @Override
  public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    switch (kind) {
      case HELP -> writer.keyword("HELP");
      case COMPILE_PLAN, COMPILE_AND_EXECUTE_PLAN -> {
        writer.keyword(kind.words());
        java.util.Objects.requireNonNull(file).unparse(writer, 0, 0);
        if (ifNotExists) {
          writer.keyword("IF NOT EXISTS");
        }
        writer.keyword("FOR");
        java.util.Objects.requireNonNull(statement).unparse(writer, 0, 0);
      }
      case EXECUTE_PLAN -> {
        writer.keyword("EXECUTE PLAN");
        java.util.Objects.requireNonNull(file).unparse(writer, 0, 0);
      }
      case SHOW_CREATE_MATERIALIZED_TABLE -> {
        writer.keyword("SHOW CREATE MATERIALIZED TABLE");
        java.util.Objects.requireNonNull(name).unparse(writer, 0, 0);
      }
      default -> {
        writer.keyword("ALTER MATERIALIZED TABLE");
        java.util.Objects.requireNonNull(name).unparse(writer, 0, 0);
        writer.keyword(kind.name().substring(0, kind.name().indexOf('_')).toUpperCase(Locale.ROOT));
        if (options != null) {
          writer.keyword("WITH");
          SqlWriter.Frame frame = writer.startList("(", ")");
          for (SqlNode o : options) {
            writer.sep(",");
            o.unparse(writer, 0, 0);
          }
          writer.endList(frame);
        }
      }
    }
  }
}

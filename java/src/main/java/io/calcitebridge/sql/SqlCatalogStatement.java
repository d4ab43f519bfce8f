package io.calcitebridge.sql;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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
 * Flink's statements on catalogs and databases: CREATE, DROP and ALTER of a CATALOG or DATABASE,
 * USE CATALOG, USE, SHOW CATALOGS, DATABASES, CURRENT CATALOG|DATABASE, SHOW CREATE CATALOG,
 * DESCRIBE CATALOG and DESCRIBE DATABASE. One class for all of them: {@link #statement} says which.
 */
public class SqlCatalogStatement extends SqlCall {
  /** Which statement. */
  public enum Statement {
    CREATE_CATALOG("CREATE CATALOG"),
    DROP_CATALOG("DROP CATALOG"),
    ALTER_CATALOG_SET("ALTER CATALOG"),
    ALTER_CATALOG_RESET("ALTER CATALOG"),
    ALTER_CATALOG_COMMENT("ALTER CATALOG"),
    CREATE_DATABASE("CREATE DATABASE"),
    DROP_DATABASE("DROP DATABASE"),
    ALTER_DATABASE_SET("ALTER DATABASE"),
    USE_CATALOG("USE CATALOG"),
    USE_DATABASE("USE"),
    SHOW_CATALOGS("SHOW CATALOGS"),
    SHOW_DATABASES("SHOW DATABASES"),
    SHOW_CURRENT_CATALOG("SHOW CURRENT CATALOG"),
    SHOW_CURRENT_DATABASE("SHOW CURRENT DATABASE"),
    SHOW_CREATE_CATALOG("SHOW CREATE CATALOG"),
    DESCRIBE_CATALOG("DESCRIBE CATALOG"),
    DESCRIBE_DATABASE("DESCRIBE DATABASE"),
    LOAD_MODULE("LOAD MODULE"),
    UNLOAD_MODULE("UNLOAD MODULE"),
    USE_MODULES("USE MODULES"),
    SHOW_MODULES("SHOW MODULES"),
    SHOW_JARS("SHOW JARS");

    private final String words;

    Statement(String words) {
      this.words = words;
    }

    /** The statement's leading words. */
    public String words() {
      return words;
    }
  }

  private static final Map<Statement, SqlOperator> OPERATORS = new EnumMap<>(Statement.class);

  static {
    for (Statement st : Statement.values()) {
      OPERATORS.put(
          st,
          new BridgeOperator(
              st.name().toLowerCase(Locale.ROOT).replace('_', ' '),
              SqlKind.OTHER,
              (pos, ops) ->
                  new SqlCatalogStatement(
                      pos,
                      st,
                      (SqlIdentifier) ops.get(0),
                      BridgeOperator.isTrue(ops.get(1)),
                      BridgeOperator.isTrue(ops.get(2)),
                      BridgeOperator.isTrue(ops.get(3)),
                      (SqlCharStringLiteral) ops.get(4),
                      (SqlCharStringLiteral) ops.get(5),
                      (SqlNodeList) ops.get(6))));
    }
  }

  private final Statement statement;
  private final @Nullable SqlIdentifier name;
  private final boolean ifExists;
  private final boolean flag;
  private final boolean ilike;
  private final @Nullable SqlCharStringLiteral pattern;
  private final @Nullable SqlCharStringLiteral comment;
  private final @Nullable SqlNodeList options;

  /**
   * Creates a statement. {@code ifExists} is IF [NOT] EXISTS; {@code flag} is EXTENDED of DESCRIBE,
   * CASCADE of DROP DATABASE, or NOT of [NOT] LIKE; {@code ilike} makes the pattern ILIKE; {@code
   * options} holds WITH's or SET's keys and values alternating, or RESET's keys.
   */
  public SqlCatalogStatement(
      SqlParserPos pos,
      Statement statement,
      @Nullable SqlIdentifier name,
      boolean ifExists,
      boolean flag,
      boolean ilike,
      @Nullable SqlCharStringLiteral pattern,
      @Nullable SqlCharStringLiteral comment,
      @Nullable SqlNodeList options) {
    super(pos);
    this.statement = statement;
    this.name = name;
    this.ifExists = ifExists;
    this.flag = flag;
    this.ilike = ilike;
    this.pattern = pattern;
    this.comment = comment;
    this.options = options;
  }

  public Statement statement() {
    return statement;
  }

  /** The catalog or database named, or null (SHOW DATABASES without FROM, ...). */
  public @Nullable SqlIdentifier name() {
    return name;
  }

  /** IF EXISTS or IF NOT EXISTS. */
  public boolean ifExists() {
    return ifExists;
  }

  /** EXTENDED of DESCRIBE CATALOG or DESCRIBE DATABASE. */
  public boolean isExtended() {
    return flag;
  }

  /** CASCADE of DROP DATABASE. */
  public boolean isCascade() {
    return flag;
  }

  /** NOT of [NOT] LIKE. */
  public boolean isNotLike() {
    return flag;
  }

  /** Whether the pattern is ILIKE (case-insensitive). */
  public boolean isIlike() {
    return ilike;
  }

  /** The LIKE pattern, or null. */
  public @Nullable String pattern() {
    return pattern == null ? null : pattern.getValueAs(String.class);
  }

  /** The COMMENT, or null. */
  public @Nullable String comment() {
    return comment == null ? null : comment.getValueAs(String.class);
  }

  /** The position of the options, or of the statement. */
  public SqlParserPos optionsPosition() {
    return options == null ? getParserPosition() : options.getParserPosition();
  }

  /** WITH's or SET's options in order, or an empty map. */
  public Map<String, String> options() {
    Map<String, String> map = new LinkedHashMap<>();
    if (options != null) {
      for (int i = 0; i + 1 < options.size(); i += 2) {
        map.put(text(options.get(i)), text(options.get(i + 1)));
      }
    }
    return map;
  }

  /** RESET's keys. */
  public List<String> keys() {
    List<String> keys = new ArrayList<>();
    if (options != null) {
      options.forEach(n -> keys.add(text(n)));
    }
    return keys;
  }

  private static String text(SqlNode node) {
    if (node instanceof SqlIdentifier id) {
      return id.getSimple(); // a module of USE MODULES
    }
    return ((SqlCharStringLiteral) node).getValueAs(String.class);
  }

  @Override
  public SqlOperator getOperator() {
    return OPERATORS.get(statement);
  }

  @Override
  public List<SqlNode> getOperandList() {
    return ImmutableNullableList.of(
        name,
        BridgeOperator.flag(ifExists),
        BridgeOperator.flag(flag),
        BridgeOperator.flag(ilike),
        pattern,
        comment,
        options);
  }

  @Override
  public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    String words = statement.words();
    switch (statement) {
      case DESCRIBE_CATALOG:
        writer.keyword(flag ? "DESCRIBE CATALOG EXTENDED" : "DESCRIBE CATALOG");
        break;
      case SHOW_MODULES:
        writer.keyword(flag ? "SHOW FULL MODULES" : "SHOW MODULES");
        break;
      case DESCRIBE_DATABASE:
        writer.keyword(flag ? "DESCRIBE DATABASE EXTENDED" : "DESCRIBE DATABASE");
        break;
      case CREATE_CATALOG:
      case CREATE_DATABASE:
        writer.keyword(ifExists ? words + " IF NOT EXISTS" : words);
        break;
      case DROP_CATALOG:
      case DROP_DATABASE:
        writer.keyword(ifExists ? words + " IF EXISTS" : words);
        break;
      case SHOW_DATABASES:
        writer.keyword(name != null ? words + " FROM" : words);
        break;
      default:
        writer.keyword(words);
    }
    if (name != null) {
      name.unparse(writer, 0, 0);
    }
    if (statement == Statement.DROP_DATABASE && flag) {
      writer.keyword("CASCADE");
    }
    if (comment != null) {
      writer.keyword("COMMENT");
      comment.unparse(writer, 0, 0);
    }
    if (pattern != null) {
      if (flag) {
        writer.keyword("NOT");
      }
      writer.keyword(ilike ? "ILIKE" : "LIKE");
      pattern.unparse(writer, 0, 0);
    }
    if (options != null && statement == Statement.USE_MODULES) {
      for (int i = 0; i < options.size(); i++) {
        if (i > 0) {
          writer.print(",");
        }
        options.get(i).unparse(writer, 0, 0);
      }
    } else if (options != null) {
      boolean pairs = statement != Statement.ALTER_CATALOG_RESET;
      writer.keyword(!pairs ? "RESET" : statement.name().startsWith("ALTER") ? "SET" : "WITH");
      SqlWriter.Frame frame = writer.startList("(", ")");
      for (int i = 0; i < options.size(); i++) {
        if (!pairs || i % 2 == 0) {
          writer.sep(",");
        } else {
          writer.keyword("=");
        }
        options.get(i).unparse(writer, 0, 0);
      }
      writer.endList(frame);
    }
  }
}

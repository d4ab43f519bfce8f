package io.calcitebridge.sql;

import java.util.List;
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

/**
 * {@code SHOW TABLES|VIEWS [FROM|IN [catalog.]database] [[NOT] LIKE|ILIKE 'pattern']}: lists the
 * tables and views (or the views) of a database, the current one by default.
 */
public class SqlShowTables extends SqlCall {
  /** The operator of SHOW TABLES. */
  public static final SqlOperator OPERATOR =
      new BridgeOperator(
          "SHOW TABLES",
          SqlKind.OTHER,
          (pos, ops) ->
              new SqlShowTables(
                  pos,
                  BridgeOperator.isTrue(ops.get(0)),
                  (SqlIdentifier) ops.get(1),
                  BridgeOperator.isTrue(ops.get(2)),
                  BridgeOperator.isTrue(ops.get(3)),
                  (SqlCharStringLiteral) ops.get(4)));

  private final boolean views;
  private final @Nullable SqlIdentifier database;
  private final boolean notLike;
  private final boolean ilike;
  private final @Nullable SqlCharStringLiteral pattern;

  /** Creates a SHOW TABLES of the current database. */
  public SqlShowTables(SqlParserPos pos) {
    this(pos, false, null, false, false, null);
  }

  /** Creates a SHOW TABLES, or SHOW VIEWS when {@code views}. */
  public SqlShowTables(
      SqlParserPos pos,
      boolean views,
      @Nullable SqlIdentifier database,
      boolean notLike,
      boolean ilike,
      @Nullable SqlCharStringLiteral pattern) {
    super(pos);
    this.views = views;
    this.database = database;
    this.notLike = notLike;
    this.ilike = ilike;
    this.pattern = pattern;
  }

  /** Whether this is SHOW VIEWS. */
  public boolean isViews() {
    return views;
  }

  /** The database of FROM|IN, or null for the current one. */
  public @Nullable SqlIdentifier database() {
    return database;
  }

  public boolean isNotLike() {
    return notLike;
  }

  public boolean isIlike() {
    return ilike;
  }

  /** The LIKE pattern, or null. */
  public @Nullable String pattern() {
    return pattern == null ? null : pattern.getValueAs(String.class);
  }

  @Override
  public SqlOperator getOperator() {
    return OPERATOR;
  }

  @Override
  public List<SqlNode> getOperandList() {
    return ImmutableNullableList.of(
        BridgeOperator.flag(views),
        database,
        BridgeOperator.flag(notLike),
        BridgeOperator.flag(ilike),
        pattern);
  }

  @Override
  public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword(views ? "SHOW VIEWS" : "SHOW TABLES");
    if (database != null) {
      writer.keyword("FROM");
      database.unparse(writer, 0, 0);
    }
    if (pattern != null) {
      if (notLike) {
        writer.keyword("NOT");
      }
      writer.keyword(ilike ? "ILIKE" : "LIKE");
      pattern.unparse(writer, 0, 0);
    }
  }
}

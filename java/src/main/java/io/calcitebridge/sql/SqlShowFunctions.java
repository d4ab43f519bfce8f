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
 * {@code SHOW [USER] FUNCTIONS [FROM|IN [catalog.]db] [[NOT] LIKE|ILIKE 'pattern']}, and {@code
 * DESCRIBE FUNCTION [EXTENDED] name} when {@link #described} is set.
 */
public class SqlShowFunctions extends SqlCall {
  /** The operator of SHOW FUNCTIONS and DESCRIBE FUNCTION. */
  public static final SqlOperator OPERATOR =
      new BridgeOperator(
          "SHOW FUNCTIONS",
          SqlKind.OTHER,
          (pos, ops) ->
              new SqlShowFunctions(
                  pos,
                  BridgeOperator.isTrue(ops.get(0)),
                  BridgeOperator.isTrue(ops.get(1)),
                  BridgeOperator.isTrue(ops.get(2)),
                  (SqlCharStringLiteral) ops.get(3),
                  (SqlIdentifier) ops.get(4),
                  BridgeOperator.isTrue(ops.get(5)),
                  (SqlIdentifier) ops.get(6)));

  private final boolean user;
  private final boolean notLike;
  private final boolean ilike;
  private final @Nullable SqlCharStringLiteral pattern;
  private final @Nullable SqlIdentifier described;
  private final boolean extended;
  private final @Nullable SqlIdentifier database;

  /** Creates a SHOW FUNCTIONS, or a DESCRIBE FUNCTION of {@code described}. */
  public SqlShowFunctions(
      SqlParserPos pos,
      boolean user,
      boolean notLike,
      boolean ilike,
      @Nullable SqlCharStringLiteral pattern,
      @Nullable SqlIdentifier described,
      boolean extended) {
    this(pos, user, notLike, ilike, pattern, described, extended, null);
  }

  /** Creates a SHOW FUNCTIONS FROM|IN {@code database} ({@code db} or {@code catalog.db}). */
  public SqlShowFunctions(
      SqlParserPos pos,
      boolean user,
      boolean notLike,
      boolean ilike,
      @Nullable SqlCharStringLiteral pattern,
      @Nullable SqlIdentifier described,
      boolean extended,
      @Nullable SqlIdentifier database) {
    super(pos);
    this.database = database;
    this.user = user;
    this.notLike = notLike;
    this.ilike = ilike;
    this.pattern = pattern;
    this.described = described;
    this.extended = extended;
  }

  /** Whether this is SHOW USER FUNCTIONS. */
  public boolean isUser() {
    return user;
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

  /** The function of DESCRIBE FUNCTION, or null for SHOW FUNCTIONS. */
  public @Nullable SqlIdentifier described() {
    return described;
  }

  /** The database of SHOW FUNCTIONS FROM|IN, or null for the current one. */
  public @Nullable SqlIdentifier database() {
    return database;
  }

  /** Whether DESCRIBE FUNCTION EXTENDED. */
  public boolean isExtended() {
    return extended;
  }

  @Override
  public SqlOperator getOperator() {
    return OPERATOR;
  }

  @Override
  public List<@Nullable SqlNode> getOperandList() {
    return ImmutableNullableList.of(
        BridgeOperator.flag(user),
        BridgeOperator.flag(notLike),
        BridgeOperator.flag(ilike),
        pattern,
        described,
        BridgeOperator.flag(extended),
        database);
  }

  @Override
  public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    if (described != null) {
      writer.keyword(extended ? "DESCRIBE FUNCTION EXTENDED" : "DESCRIBE FUNCTION");
      described.unparse(writer, 0, 0);
      return;
    }
    writer.keyword(user ? "SHOW USER FUNCTIONS" : "SHOW FUNCTIONS");
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

package io.calcitebridge.functions;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A table function the user added: a Python function that yields rows. Before validation {@code
 * [LATERAL] TABLE(f(a, b))} becomes {@code UNNEST(f$finish(a, b))}, where the scalar {@link
 * UserFunction} {@link #finisher} returns the rows as an {@code ARRAY<ROW<...>>} of the declared
 * columns; so {@code LATERAL TABLE(f(x)) AS t(a, b)} and {@code LEFT JOIN LATERAL TABLE(f(x)) ON
 * TRUE} are Calcite's correlated {@code UNNEST}.
 */
public final class UserTableFunction extends SqlFunction {
  private final SqlFunction finisher;

  /** A table function {@code name} computed by {@code finisher}. */
  public UserTableFunction(String name, UserFunction finisher) {
    this(name, finisher, finisher.result());
  }

  /**
   * A table function {@code name} computed by {@code finisher} (a Python {@link UserFunction} or a
   * {@link JavaFunction}), which returns the rows as {@code rows}, an {@code ARRAY<ROW<...>>}.
   */
  public UserTableFunction(String name, SqlFunction finisher, RelDataType rows) {
    super(
        name,
        SqlKind.OTHER_FUNCTION,
        ReturnTypes.explicit(rows),
        null,
        OperandTypes.VARIADIC,
        SqlFunctionCategory.USER_DEFINED_TABLE_FUNCTION);
    this.finisher = finisher;
  }

  /** The scalar function that returns the rows as an array. */
  public SqlFunction finisher() {
    return finisher;
  }

  /**
   * {@code node} as the {@code UNNEST} of the finisher when it is {@code TABLE(f(...))} or {@code
   * LATERAL TABLE(f(...))} of a user table function; else {@code node}.
   */
  public static @Nullable SqlNode rewrite(@Nullable SqlNode node) {
    if (node instanceof SqlCall lateral
        && lateral.getKind() == SqlKind.LATERAL
        && lateral.operand(0) instanceof SqlCall inner
        && inner.getKind() == SqlKind.UNNEST) {
      return inner;
    }
    if (node instanceof SqlCall table
        && table.getKind() == SqlKind.COLLECTION_TABLE
        && table.operandCount() == 1
        && table.operand(0) instanceof SqlCall call
        && call.getOperator() instanceof UserTableFunction f) {
      SqlNode rows = f.finisher().createCall(call.getParserPosition(), call.getOperandList());
      return SqlStdOperatorTable.UNNEST.createCall(table.getParserPosition(), rows);
    }
    return node;
  }
}

package io.calcitebridge.functions;

import java.util.List;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlAggFunction;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.SqlOperandCountRanges;
import org.apache.calcite.util.Optionality;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * An aggregate function the user added (PyFlink's shape: {@code create_accumulator}, {@code
 * accumulate}, {@code get_value}). Before validation a call {@code f([DISTINCT] a, b)} becomes
 * {@code f$finish(ARRAY_AGG([DISTINCT] ROW(a, b)))}: Flink's {@code ARRAY_AGG} gathers each group's
 * argument rows, and the scalar {@link UserFunction} {@link #finisher} runs the accumulator over
 * them in Python, computed as any user function is (on Calcite's engine a batch of groups at a
 * time). {@code FILTER} and {@code OVER} apply to the {@code ARRAY_AGG}.
 */
public final class UserAggregateFunction extends SqlAggFunction {
  /** The suffix of the finisher's name. */
  public static final String FINISH = "$finish";

  private static final SqlAggFunction ARRAY_AGG = new ArrayAgg();

  private final SqlFunction finisher;
  private final RelDataType result;
  private final int arity;
  private final @Nullable List<RelDataType> parameters;

  /**
   * An aggregate {@code name} of {@code arity} arguments computed by {@code finisher}; {@code
   * parameters} (null for any) are the types its arguments are cast to.
   */
  public UserAggregateFunction(
      String name, UserFunction finisher, int arity, @Nullable List<RelDataType> parameters) {
    this(name, finisher, finisher.result(), arity, parameters);
  }

  /**
   * An aggregate {@code name} of {@code arity} arguments computed by {@code finisher} (a Python
   * {@link UserFunction} or a {@link JavaAggregate}), of result {@code result}.
   */
  public UserAggregateFunction(
      String name,
      SqlFunction finisher,
      RelDataType result,
      int arity,
      @Nullable List<RelDataType> parameters) {
    super(
        name,
        new SqlIdentifier(name, SqlParserPos.ZERO),
        SqlKind.OTHER_FUNCTION,
        b -> b.getTypeFactory().createTypeWithNullability(result, true),
        null,
        OperandTypes.variadic(SqlOperandCountRanges.of(arity)),
        SqlFunctionCategory.USER_DEFINED_FUNCTION,
        false,
        false,
        Optionality.FORBIDDEN);
    this.finisher = finisher;
    this.result = result;
    this.arity = arity;
    this.parameters = parameters == null ? null : List.copyOf(parameters);
  }

  /** The declared argument types, or null. */
  public @Nullable List<RelDataType> parameters() {
    return parameters;
  }

  /** The scalar function that runs the accumulator over a group's rows. */
  public SqlFunction finisher() {
    return finisher;
  }

  /** The declared result type. */
  public RelDataType result() {
    return result;
  }

  public int arity() {
    return arity;
  }

  /** {@code call}, a call of this aggregate, as the finisher over {@code ARRAY_AGG}. */
  public SqlNode rewrite(SqlCall call) {
    SqlParserPos pos = call.getParserPosition();
    List<SqlNode> args = call.getOperandList();
    if (args.size() != arity) {
      throw new io.calcitebridge.errors.PositionedException(
          io.calcitebridge.errors.ErrorKind.VALIDATION,
          "Invalid number of arguments to function '"
              + getName()
              + "'. Was expecting "
              + arity
              + " arguments",
          pos);
    }
    List<SqlNode> cast = new java.util.ArrayList<>();
    for (int i = 0; i < args.size(); i++) {
      SqlNode a = args.get(i);
      cast.add(
          parameters == null
              ? a
              : SqlStdOperatorTable.CAST.createCall(
                  a.getParserPosition(),
                  a,
                  org.apache.calcite.sql.type.SqlTypeUtil.convertTypeToSpec(parameters.get(i))));
    }
    SqlNode row =
        SqlStdOperatorTable.ROW.createCall(
            pos, cast.isEmpty() ? List.of(SqlLiteral.createBoolean(true, pos)) : cast);
    SqlNode gathered = ARRAY_AGG.createCall(call.getFunctionQuantifier(), pos, row);
    return finisher.createCall(pos, gathered);
  }

  /**
   * {@code node} with a finisher that stands under {@code FILTER} or {@code OVER} moved above it,
   * so that they apply to the {@code ARRAY_AGG}; else {@code node}.
   */
  public static @Nullable SqlNode lift(@Nullable SqlNode node) {
    if (node instanceof SqlCall wrapper
        && (wrapper.getKind() == SqlKind.FILTER
            || wrapper.getKind() == SqlKind.OVER
            || wrapper.getKind() == SqlKind.WITHIN_GROUP)
        && wrapper.operand(0) instanceof SqlCall inner
        && (inner.getOperator() instanceof UserFunction
            || inner.getOperator() instanceof JavaAggregate)
        && inner.getOperator() instanceof SqlFunction f
        && f.getName().endsWith(FINISH)) {
      wrapper.setOperand(0, inner.operand(0));
      return f.createCall(inner.getParserPosition(), wrapper);
    }
    return node;
  }
}

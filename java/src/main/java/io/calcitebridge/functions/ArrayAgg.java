package io.calcitebridge.functions;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.adapter.enumerable.AggAddContext;
import org.apache.calcite.adapter.enumerable.AggContext;
import org.apache.calcite.adapter.enumerable.AggResultContext;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperandCountRange;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlOperandTypeChecker;
import org.apache.calcite.sql.validate.SqlUserDefinedAggFunction;
import org.apache.calcite.util.BuiltInMethod;
import org.apache.calcite.util.Optionality;

/**
 * Flink's {@code ARRAY_AGG(x)}: the values of a group in an array, NULLs kept (Calcite's {@code
 * ARRAY_AGG} leaves them out whatever {@code RESPECT NULLS} says: its implementation skips NULL
 * arguments); an empty group gives an empty array.
 */
final class ArrayAgg extends SqlUserDefinedAggFunction {
  private static final SqlOperandTypeChecker OPERANDS = OperandTypes.ANY;

  ArrayAgg() {
    super(
        new SqlIdentifier("ARRAY_AGG", SqlParserPos.ZERO),
        SqlKind.OTHER_FUNCTION,
        ReturnTypes.TO_ARRAY_NULLABLE,
        null,
        null,
        new Impl(),
        false,
        false,
        Optionality.FORBIDDEN);
  }

  @Override
  public SqlOperandCountRange getOperandCountRange() {
    return OPERANDS.getOperandCountRange();
  }

  @Override
  public boolean checkOperandTypes(SqlCallBinding callBinding, boolean throwOnFailure) {
    return OPERANDS.checkOperandTypes(callBinding, throwOnFailure);
  }

  @Override
  public String getAllowedSignatures(String opNameToUse) {
    return "ARRAY_AGG(<ANY>)";
  }

  /** Found as Calcite's built-in aggregates are: the parser has ARRAY_AGG as a keyword. */
  @Override
  public org.apache.calcite.sql.SqlFunctionCategory getFunctionType() {
    return org.apache.calcite.sql.SqlFunctionCategory.SYSTEM;
  }

  @Override
  public Optionality getDistinctOptionality() {
    return Optionality.OPTIONAL;
  }

  /** Collects every value, NULL or not, into an {@link ArrayList}. */
  private static final class Impl extends AccumulatorAgg {
    Impl() {
      super(List.class);
    }

    @Override
    Expression newAccumulator() {
      return Expressions.new_(ArrayList.class);
    }

    @Override
    void add(AggContext info, AggAddContext add) {
      Expression value = add.arguments().get(0);
      add.currentBlock()
          .add(
              Expressions.statement(
                  Expressions.call(
                      add.accumulator().get(0),
                      BuiltInMethod.COLLECTION_ADD.method,
                      Expressions.box(value))));
    }

    /**
     * A copy of the values: over a window the accumulator goes on taking the next rows of the frame
     * after a row's result is read, and that row must keep the values of its own frame.
     */
    @Override
    public Expression implementResult(AggContext info, AggResultContext result) {
      return Expressions.new_(ArrayList.class, result.accumulator().get(0));
    }
  }
}

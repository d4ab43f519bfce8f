package io.calcitebridge.functions;

import java.lang.reflect.Type;
import java.util.List;
import org.apache.calcite.adapter.enumerable.AggAddContext;
import org.apache.calcite.adapter.enumerable.AggContext;
import org.apache.calcite.adapter.enumerable.AggImplementor;
import org.apache.calcite.adapter.enumerable.AggResetContext;
import org.apache.calcite.adapter.enumerable.RexImpTable;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.schema.FunctionParameter;
import org.apache.calcite.schema.ImplementableAggFunction;

/**
 * The generated code of an aggregate function whose state is one Java object (an accumulator made
 * fresh for each group): subclasses say how a row is added and how the result is read. The SQL type
 * comes from the aggregate's return type inference, never from here.
 */
abstract class AccumulatorAgg implements ImplementableAggFunction, AggImplementor {
  private final Class<?> stateClass;

  /** An aggregate whose state is an object of {@code stateClass}. */
  AccumulatorAgg(Class<?> stateClass) {
    this.stateClass = stateClass;
  }

  /** The expression that makes a group's empty accumulator. */
  abstract Expression newAccumulator();

  /** Adds a row's arguments to the accumulator (the rows the aggregate's FILTER keeps only). */
  abstract void add(AggContext info, AggAddContext add);

  /**
   * {@link #add} under the aggregate's FILTER, when it has one: Calcite's engine leaves the FILTER
   * to the implementor, and {@code ARRAY_AGG(x) FILTER (WHERE ...)} added every row.
   */
  @Override
  public final void implementAdd(AggContext info, AggAddContext add) {
    RexNode filter = add.rexFilterArgument();
    if (filter == null) {
      add(info, add);
      return;
    }
    Expression keep =
        add.rowTranslator().translateList(List.of(filter), RexImpTable.NullAs.FALSE).get(0);
    BlockBuilder kept = add.nestBlock();
    add(info, add);
    add.exitBlock();
    add.currentBlock().add(Expressions.ifThen(keep, kept.toBlock()));
  }

  @Override
  public AggImplementor getImplementor(boolean windowContext) {
    return this;
  }

  @Override
  public RelDataType getReturnType(RelDataTypeFactory typeFactory) {
    throw new UnsupportedOperationException("typed by the aggregate's return type inference");
  }

  @Override
  public List<FunctionParameter> getParameters() {
    return List.of();
  }

  @Override
  public List<Type> getStateType(AggContext info) {
    return List.of(stateClass);
  }

  @Override
  public void implementReset(AggContext info, AggResetContext reset) {
    reset
        .currentBlock()
        .add(
            Expressions.statement(
                Expressions.assign(reset.accumulator().get(0), newAccumulator())));
  }
}

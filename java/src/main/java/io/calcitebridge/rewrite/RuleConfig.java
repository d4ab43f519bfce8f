package io.calcitebridge.rewrite;

import java.util.function.Function;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.tools.RelBuilderFactory;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The configuration of one of our rules, as Calcite's {@link RelRule.Config} asks: the operands,
 * the description and the builder factory, immutable (every {@code with...} makes a new value). One
 * record serves every rule; {@code factory} makes the rule.
 *
 * @param <R> the rule
 */
public record RuleConfig<R extends RelOptRule>(
    RelBuilderFactory relBuilderFactory,
    @Nullable String description,
    RelRule.OperandTransform operandSupplier,
    Function<RuleConfig<R>, R> factory)
    implements RelRule.Config {

  /** A configuration with Calcite's logical builder. */
  public static <R extends RelOptRule> RuleConfig<R> of(
      String description, RelRule.OperandTransform operands, Function<RuleConfig<R>, R> factory) {
    return new RuleConfig<>(RelFactories.LOGICAL_BUILDER, description, operands, factory);
  }

  @Override
  public R toRule() {
    return factory.apply(this);
  }

  @Override
  public RuleConfig<R> withRelBuilderFactory(RelBuilderFactory builderFactory) {
    return new RuleConfig<>(builderFactory, description, operandSupplier, factory);
  }

  @Override
  public RuleConfig<R> withDescription(@Nullable String newDescription) {
    return new RuleConfig<>(relBuilderFactory, newDescription, operandSupplier, factory);
  }

  @Override
  public RuleConfig<R> withOperandSupplier(RelRule.OperandTransform transform) {
    return new RuleConfig<>(relBuilderFactory, description, transform, factory);
  }
}

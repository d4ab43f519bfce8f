package io.calcitebridge.vector;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.apache.calcite.plan.RelOptRuleOperandChildPolicy;
import org.apache.calcite.rel.core.Aggregate;
import org.junit.jupiter.api.Test;

/** The rule's description (it appears in plans) and operand, from its config. */
class ArrowAggregateRuleTest {
  @Test
  void configKeepsDescriptionAndOperand() {
    assertEquals("ArrowAggregate", ArrowAggregateRule.INSTANCE.toString());
    assertEquals(Aggregate.class, ArrowAggregateRule.INSTANCE.getOperand().getMatchedClass());
    assertEquals(
        RelOptRuleOperandChildPolicy.ANY, ArrowAggregateRule.INSTANCE.getOperand().childPolicy);
    assertEquals("Other", ArrowAggregateRule.CONFIG.withDescription("Other").toRule().toString());
  }
}

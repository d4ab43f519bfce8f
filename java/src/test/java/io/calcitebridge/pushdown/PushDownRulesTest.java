package io.calcitebridge.pushdown;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.calcitebridge.rewrite.RuleConfig;
import java.util.List;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleOperand;
import org.apache.calcite.plan.RelOptRuleOperandChildPolicy;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.logical.LogicalSort;
import org.junit.jupiter.api.Test;

/** The pushdown rules' descriptions (they appear in plans) and operands, from their configs. */
class PushDownRulesTest {
  @Test
  void descriptionsStayTheSame() {
    assertEquals("FilterPushDown", FilterPushDownRule.INSTANCE.toString());
    assertEquals("LimitPushDown", LimitPushDownRule.INSTANCE.toString());
    assertEquals("NestedProjection", NestedProjectionRule.INSTANCE.toString());
  }

  @Test
  void operandsMatchOverAScan() {
    assertOverScan(FilterPushDownRule.INSTANCE, LogicalFilter.class);
    assertOverScan(NestedProjectionRule.INSTANCE, LogicalProject.class);
    RelOptRuleOperand sort = LimitPushDownRule.INSTANCE.getOperand();
    assertEquals(LogicalSort.class, sort.getMatchedClass());
    assertEquals(RelOptRuleOperandChildPolicy.ANY, sort.childPolicy);
  }

  @Test
  void configsAreImmutableValues() {
    RuleConfig<FilterPushDownRule> other = FilterPushDownRule.CONFIG.withDescription("Other");
    assertEquals("FilterPushDown", FilterPushDownRule.CONFIG.description());
    assertEquals("Other", other.toRule().toString());
    assertSame(other, other.as(RuleConfig.class));
    assertEquals(
        "Renamed", LimitPushDownRule.CONFIG.withDescription("Renamed").toRule().toString());
    assertEquals(
        NestedProjectionRule.CONFIG,
        NestedProjectionRule.CONFIG.withDescription("NestedProjection"));
  }

  private static void assertOverScan(RelOptRule rule, Class<?> top) {
    RelOptRuleOperand operand = rule.getOperand();
    assertEquals(top, operand.getMatchedClass());
    assertEquals(RelOptRuleOperandChildPolicy.SOME, operand.childPolicy);
    List<RelOptRuleOperand> children = operand.getChildOperands();
    assertEquals(1, children.size());
    assertEquals(BridgeTableScan.class, children.get(0).getMatchedClass());
    assertEquals(RelOptRuleOperandChildPolicy.LEAF, children.get(0).childPolicy);
  }
}

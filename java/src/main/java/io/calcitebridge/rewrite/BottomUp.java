package io.calcitebridge.rewrite;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.apache.calcite.rel.RelNode;

/**
 * Rewrites a plan bottom-up: each node gets its rewritten inputs (copied only when one changed),
 * then {@code step}. A node that several parents share is rewritten once and stays shared.
 */
public final class BottomUp {
  private BottomUp() {}

  public static RelNode rewrite(RelNode rel, UnaryOperator<RelNode> step) {
    return rewrite(rel, step, new IdentityHashMap<>());
  }

  private static RelNode rewrite(
      RelNode rel, UnaryOperator<RelNode> step, Map<RelNode, RelNode> done) {
    RelNode seen = done.get(rel);
    if (seen != null) {
      return seen;
    }
    List<RelNode> inputs = new ArrayList<>(rel.getInputs().size());
    boolean changed = false;
    for (RelNode input : rel.getInputs()) {
      RelNode out = rewrite(input, step, done);
      changed |= out != input;
      inputs.add(out);
    }
    RelNode node = step.apply(changed ? rel.copy(rel.getTraitSet(), inputs) : rel);
    done.put(rel, node);
    return node;
  }
}

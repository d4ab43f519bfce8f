package io.calcitebridge.rewrite;

import java.util.function.Function;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;

/**
 * The one walk of a plan's expressions: every node of a plan, inputs first, and every expression in
 * it. The passes that rewrite calls ({@code RowCasts}, the casts of collections and JSON_QUERY
 * RETURNING ARRAY of {@code functions}, {@code FlinkConstants}) say only what they do to one call,
 * or which shuttle a node's expressions go through.
 */
public final class CallRewrites {
  private CallRewrites() {}

  /** What a pass does to one call, whose operands it has already rewritten. */
  @FunctionalInterface
  public interface CallRewrite {
    RexNode rewrite(RexBuilder rex, RexCall call);
  }

  /** {@code rel} with each call rewritten by {@code rewrite}, innermost first. */
  public static RelNode everyCall(RelNode rel, CallRewrite rewrite) {
    return everyExpression(rel, node -> new Calls(node.getCluster().getRexBuilder(), rewrite));
  }

  /**
   * {@code rel} with the expressions of each node rewritten by the shuttle {@code shuttleFor} makes
   * for that node (after its inputs). The shuttle sees sub-queries as they are.
   */
  public static RelNode everyExpression(RelNode rel, Function<RelNode, RexShuttle> shuttleFor) {
    return rel.accept(
        new RelHomogeneousShuttle() {
          @Override
          public RelNode visit(RelNode other) {
            RelNode visited = super.visit(other);
            return visited.accept(shuttleFor.apply(visited));
          }
        });
  }

  private static final class Calls extends RexShuttle {
    private final RexBuilder rex;
    private final CallRewrite rewrite;

    Calls(RexBuilder rex, CallRewrite rewrite) {
      this.rex = rex;
      this.rewrite = rewrite;
    }

    @Override
    public RexNode visitSubQuery(RexSubQuery subQuery) {
      RexSubQuery visited = (RexSubQuery) super.visitSubQuery(subQuery);
      RelNode rel = everyCall(visited.rel, rewrite);
      return rel == visited.rel ? visited : visited.clone(rel);
    }

    @Override
    public RexNode visitCall(RexCall call) {
      RexNode visited = super.visitCall(call);
      return visited instanceof RexCall c ? rewrite.rewrite(rex, c) : visited;
    }
  }
}

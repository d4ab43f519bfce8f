package io.calcitebridge.flink;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeUtil;

/**
 * Removes the casts that only declare a nullable value NOT NULL, from the operands of calls.
 *
 * <p>Calcite's validator types {@code x} in {@code CASE WHEN x IS NOT NULL THEN x ...} (and so in
 * {@code COALESCE(x, ...)}, which it rewrites into that CASE) as NOT NULL, and the conversion adds
 * {@code CAST(x AS ... NOT NULL)} inside the branch. The cast is only true under its branch's
 * condition, but the simplifier moves it out: {@code COALESCE(b, b) <> 3} became {@code CAST(b AS
 * BIGINT NOT NULL) <> 3}, which the Enumerable engine evaluated as TRUE where {@code b} is NULL.
 * The value is the same without the cast; only calls keep their declared types. No upstream JIRA
 * covers the CASE narrowing (CALCITE-7619 fixes a like cast made by the simplifier).
 */
public final class NarrowingCasts {
  private NarrowingCasts() {}

  /** {@code rel} (sub-queries included) without casts that only drop nullability. */
  public static RelNode strip(RelNode rel) {
    return rel.accept(
        new RelHomogeneousShuttle() {
          @Override
          public RelNode visit(RelNode other) {
            return super.visit(other).accept(REX);
          }
        });
  }

  private static final RexShuttle REX =
      new RexShuttle() {
        @Override
        public RexNode visitCall(RexCall call) {
          List<RexNode> operands = new ArrayList<>(call.getOperands().size());
          boolean changed = false;
          for (RexNode operand : call.getOperands()) {
            RexNode out = operand.accept(this);
            RexNode bare = narrowed(out);
            changed |= bare != operand;
            operands.add(bare);
          }
          return changed ? call.clone(call.getType(), operands) : call;
        }

        @Override
        public RexNode visitSubQuery(RexSubQuery subQuery) {
          RexSubQuery visited = (RexSubQuery) super.visitSubQuery(subQuery);
          RelNode rel = strip(visited.rel);
          return rel == visited.rel ? visited : visited.clone(rel);
        }
      };

  /** The operand of {@code node} when it is a cast that only makes a nullable value NOT NULL. */
  private static RexNode narrowed(RexNode node) {
    if (node.getKind() != SqlKind.CAST || !(node instanceof RexCall cast)) {
      return node;
    }
    RexNode operand = cast.getOperands().get(0);
    RelDataType from = operand.getType();
    RelDataType to = cast.getType();
    if (from.isNullable() && !to.isNullable() && SqlTypeUtil.equalSansNullability(from, to)) {
      return operand;
    }
    return node;
  }
}

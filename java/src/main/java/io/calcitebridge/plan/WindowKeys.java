package io.calcitebridge.plan;

import java.util.Comparator;
import java.util.List;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.EnumerableWindow;
import org.apache.calcite.linq4j.function.Functions;
import org.apache.calcite.linq4j.tree.BlockStatement;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.linq4j.tree.MethodCallExpression;
import org.apache.calcite.linq4j.tree.Shuttle;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.SingleRel;
import org.apache.calcite.rel.core.Window;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.util.BuiltInMethod;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Windows ordered by a DOUBLE or FLOAT key on Calcite's engine compare the key as {@code ORDER BY}
 * does: NaN above every number and a peer of NaN; their MIN and MAX of a DOUBLE or FLOAT order NaN
 * above every number too.
 *
 * <p>Calcite's code (1.42) finds a row's peers with {@code Functions.nullsComparator}, which
 * compares numbers as {@code BigDecimal}s: {@code RANK() OVER (ORDER BY x)} failed over a NaN
 * ("Infinite or NaN"). The code compiled for such a window calls {@link #nullsComparator} instead,
 * the same order but for DOUBLE and FLOAT values, compared without conversion. The plan is changed
 * only for the code it compiles to ({@link #apply}, as {@link DeferredConstants}): EXPLAIN and the
 * other backends see it unchanged.
 *
 * <p>The code of a window's {@code MIN} and {@code MAX} of a DOUBLE or FLOAT is rewritten as the
 * aggregates' is ({@link FloatMinMax}): it kept or skipped a NaN by where it stood among the rows
 * ({@code MAX} over NaN and 2 was 2.0).
 */
public final class WindowKeys {
  private WindowKeys() {}

  /** {@code rel} with each window ordered by a DOUBLE or FLOAT key under a {@link Fixed}. */
  public static RelNode apply(RelNode rel) {
    return BottomUp.rewrite(rel, WindowKeys::step);
  }

  private static RelNode step(RelNode rel) {
    return rel instanceof EnumerableWindow window && (floatKeys(window) || floatMinMax(window))
        ? new Fixed(window)
        : rel;
  }

  /** Whether {@code window} computes a MIN or MAX of a DOUBLE or FLOAT. */
  private static boolean floatMinMax(Window window) {
    for (Window.Group group : window.groups) {
      for (Window.RexWinAggCall call : group.aggCalls) {
        SqlKind kind = call.getOperator().getKind();
        if ((kind == SqlKind.MIN || kind == SqlKind.MAX)
            && SqlTypeFamily.APPROXIMATE_NUMERIC.contains(call.getType())) {
          return true;
        }
      }
    }
    return false;
  }

  private static boolean floatKeys(Window window) {
    for (Window.Group group : window.groups) {
      for (RelFieldCollation key : group.orderKeys.getFieldCollations()) {
        if (SqlTypeFamily.APPROXIMATE_NUMERIC.contains(
            window.getInput().getRowType().getFieldList().get(key.getFieldIndex()).getType())) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * {@code Functions.nullsComparator(nullsFirst, reverse)}, but that two DOUBLE or FLOAT values
   * compare as {@code ORDER BY} has them: NaN above every number and equal to NaN, -0.0 equal to
   * 0.0.
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  public static Comparator<@Nullable Object> nullsComparator(boolean nullsFirst, boolean reverse) {
    Comparator<@Nullable Object> calcite =
        (Comparator) Functions.nullsComparator(nullsFirst, reverse);
    return (a, b) -> {
      if (floating(a) && floating(b)) {
        double x = ((Number) a).doubleValue();
        double y = ((Number) b).doubleValue();
        int c = x < y ? -1 : x > y ? 1 : Boolean.compare(Double.isNaN(x), Double.isNaN(y));
        return reverse ? -c : c;
      }
      return calcite.compare(a, b);
    };
  }

  private static boolean floating(@Nullable Object value) {
    return value instanceof Double || value instanceof Float;
  }

  private static final Shuttle COMPARATORS =
      new Shuttle() {
        @Override
        public Expression visit(
            MethodCallExpression call, @Nullable Expression target, List<Expression> arguments) {
          if (call.method.equals(BuiltInMethod.NULLS_COMPARATOR.method)) {
            return Expressions.call(WindowKeys.class, "nullsComparator", arguments);
          }
          return super.visit(call, target, arguments);
        }
      };

  /** A window whose generated code compares its keys with {@link #nullsComparator}. */
  static final class Fixed extends SingleRel implements EnumerableRel {
    Fixed(RelNode window) {
      super(window.getCluster(), window.getTraitSet(), window);
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
      return new Fixed(sole(inputs));
    }

    @Override
    public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
      Result result = implementor.visitChild(this, 0, (EnumerableRel) getInput(), pref);
      BlockStatement block = (BlockStatement) result.block.accept(COMPARATORS);
      return new Result(FloatMinMax.rewrite(block), result.physType, result.format);
    }
  }
}

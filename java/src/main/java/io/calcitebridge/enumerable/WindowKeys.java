package io.calcitebridge.enumerable;

import io.calcitebridge.flink.FloatMinMax;
import io.calcitebridge.rewrite.BottomUp;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.EnumerableWindow;
import org.apache.calcite.linq4j.function.Functions;
import org.apache.calcite.linq4j.tree.BinaryExpression;
import org.apache.calcite.linq4j.tree.BlockStatement;
import org.apache.calcite.linq4j.tree.ConstantExpression;
import org.apache.calcite.linq4j.tree.DeclarationStatement;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.ExpressionType;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.linq4j.tree.MethodCallExpression;
import org.apache.calcite.linq4j.tree.ParameterExpression;
import org.apache.calcite.linq4j.tree.Primitive;
import org.apache.calcite.linq4j.tree.Shuttle;
import org.apache.calcite.linq4j.tree.UnaryExpression;
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
    return rel instanceof EnumerableWindow window
            && (floatKeys(window) || floatMinMax(window) || rangeOffsets(window))
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

  /** Whether {@code window} has a RANGE frame bounded by an offset from the current row. */
  private static boolean rangeOffsets(Window window) {
    for (Window.Group group : window.groups) {
      if (!group.isRows
          && (group.lowerBound.getOffset() != null || group.upperBound.getOffset() != null)) {
        return true;
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

  /**
   * The bound of a RANGE frame {@code key + offset} (or {@code -}) that Calcite's code computes for
   * each row, NULL when the row's key is NULL: the search for a NULL finds the row's NULL peers,
   * where it failed unboxing the key. Null when {@code bound} is no such sum.
   */
  private static @Nullable Expression nullKeyBound(Expression bound, boolean desc) {
    if (!(bound instanceof BinaryExpression sum)
        || (sum.getNodeType() != ExpressionType.Add
            && sum.getNodeType() != ExpressionType.Subtract)) {
      return null;
    }
    if (desc) {
      // Calcite's code subtracts a PRECEDING offset and adds a FOLLOWING one whatever the order:
      // over a DESC key the rows before the current one hold greater values.
      bound =
          sum.getNodeType() == ExpressionType.Add
              ? Expressions.subtract(sum.expression0, sum.expression1)
              : Expressions.add(sum.expression0, sum.expression1);
    }
    Expression key = sum.expression0;
    while (Primitive.is(key.getType())) {
      if (key instanceof UnaryExpression convert
          && convert.getNodeType() == ExpressionType.Convert) {
        key = convert.expression;
      } else if (key instanceof MethodCallExpression unbox
          && unbox.expressions.isEmpty()
          && unbox.targetExpression != null
          && unbox.method.getName().endsWith("Value")) {
        key = unbox.targetExpression;
      } else {
        return desc ? bound : null; // a key that cannot be NULL
      }
    }
    Expression boxed = Expressions.box(bound);
    return Expressions.condition(
        Expressions.equal(key, Expressions.constant(null)),
        Expressions.constant(null, boxed.getType()),
        boxed);
  }

  private static boolean floating(@Nullable Object value) {
    return value instanceof Double || value instanceof Float;
  }

  /**
   * Rewrites a window's code: its comparators become {@link #nullsComparator}, and the bounds of
   * its RANGE frames {@link #nullKeyBound}, on the side of the row that the key's direction says.
   */
  private static final class Rewriter extends Shuttle {
    /** The key comparators declared so far, by variable: whether each orders DESC. */
    private final Map<ParameterExpression, Boolean> descending = new HashMap<>();

    @Override
    public DeclarationStatement visit(
        DeclarationStatement declaration, @Nullable Expression initializer) {
      if (initializer instanceof MethodCallExpression call
          && call.method.getName().equals("nullsComparator")
          && call.expressions.size() == 2
          && call.expressions.get(1) instanceof ConstantExpression reverse
          && reverse.value instanceof Boolean b) {
        descending.put(declaration.parameter, b);
      }
      return super.visit(declaration, initializer);
    }

    @Override
    public Expression visit(
        MethodCallExpression call, @Nullable Expression target, List<Expression> arguments) {
      if (call.method.equals(BuiltInMethod.NULLS_COMPARATOR.method)) {
        return Expressions.call(WindowKeys.class, "nullsComparator", arguments);
      }
      if (call.method.equals(BuiltInMethod.BINARY_SEARCH6_LOWER.method)
          || call.method.equals(BuiltInMethod.BINARY_SEARCH6_UPPER.method)) {
        boolean desc =
            arguments.get(5) instanceof ParameterExpression comparator
                && Boolean.TRUE.equals(descending.get(comparator));
        Expression bound = nullKeyBound(arguments.get(1), desc);
        if (bound != null) {
          List<Expression> args = new ArrayList<>(arguments);
          args.set(1, bound);
          return Expressions.call(call.method, args);
        }
      }
      return super.visit(call, target, arguments);
    }
  }

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
      BlockStatement block = (BlockStatement) result.block.accept(new Rewriter());
      return new Result(FloatMinMax.rewrite(block), result.physType, result.format);
    }
  }
}

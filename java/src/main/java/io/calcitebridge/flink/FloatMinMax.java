package io.calcitebridge.flink;

import java.lang.reflect.Method;
import java.util.List;
import org.apache.calcite.linq4j.tree.BinaryExpression;
import org.apache.calcite.linq4j.tree.BlockStatement;
import org.apache.calcite.linq4j.tree.ConstantExpression;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.ExpressionType;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.linq4j.tree.MethodCallExpression;
import org.apache.calcite.linq4j.tree.ParameterExpression;
import org.apache.calcite.linq4j.tree.Shuttle;
import org.apache.calcite.runtime.SqlFunctions;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * {@code MIN} and {@code MAX} of a DOUBLE or FLOAT on Calcite's engine order NaN above every
 * number, as {@code ORDER BY}, DuckDB, Spark and the Arrow aggregates do, whatever the order of the
 * rows.
 *
 * <p>Calcite's generated code (1.42) keeps the smallest value with {@code SqlFunctions.lesser(acc,
 * x)} ({@code acc > x ? x : acc}) from {@code Double.MAX_VALUE} and the greatest with {@code
 * greater} from {@code -Double.MAX_VALUE}: a comparison with NaN is false, so the answer depended
 * on where the NaN stood ({@code MAX} of 1, NaN, -1 was -1), {@code MIN} of NaNs alone was
 * 1.7976931348623157E308, {@code MIN} of Infinity the same and {@code MAX} of -Infinity its
 * negation. {@link #rewrite} rewrites an aggregate's code: the two calls over {@code double}s or
 * {@code float}s become {@link #lesser} and {@link #greater}, and the accumulators start from NaN
 * (for {@code MIN}: every value is below it) and -Infinity (for {@code MAX}). Each accumulator has
 * a flag of its own for whether a value came, so a group of NULLs stays NULL.
 */
public final class FloatMinMax {
  private FloatMinMax() {}

  /** The smaller of two, NaN above every number; {@code a} when they are equal. */
  public static double lesser(double a, double b) {
    if (Double.isNaN(a)) {
      return b;
    }
    return Double.isNaN(b) || !(a > b) ? a : b;
  }

  /** The greater of two, NaN above every number; {@code a} when they are equal. */
  public static double greater(double a, double b) {
    if (Double.isNaN(a)) {
      return a;
    }
    return Double.isNaN(b) || a < b ? b : a;
  }

  public static float lesser(float a, float b) {
    if (Float.isNaN(a)) {
      return b;
    }
    return Float.isNaN(b) || !(a > b) ? a : b;
  }

  public static float greater(float a, float b) {
    if (Float.isNaN(a)) {
      return a;
    }
    return Float.isNaN(b) || a < b ? b : a;
  }

  // The accumulators' starts, which the rewritten code calls.
  public static double nan() {
    return Double.NaN;
  }

  public static double negativeInfinity() {
    return Double.NEGATIVE_INFINITY;
  }

  public static float nanFloat() {
    return Float.NaN;
  }

  public static float negativeInfinityFloat() {
    return Float.NEGATIVE_INFINITY;
  }

  /**
   * {@code block}, an aggregate's code, rewritten as described above. A start is an assignment of
   * {@code Double.MAX_VALUE} (of {@code MIN}) or its negation (of {@code MAX}) to a {@code double}
   * variable, as Calcite's {@code MinMaxImplementor} writes it (the same for {@code float}); no
   * other aggregate starts from them. The code of an aggregate below, already rewritten, is left as
   * it is.
   */
  public static BlockStatement rewrite(BlockStatement block) {
    boolean[] found = {false};
    BlockStatement calls =
        (BlockStatement)
            block.accept(
                new Shuttle() {
                  @Override
                  public Expression visit(
                      MethodCallExpression call,
                      @Nullable Expression target,
                      List<Expression> args) {
                    Method m = call.method;
                    if (target == null
                        && m.getDeclaringClass() == SqlFunctions.class
                        && (m.getName().equals("lesser") || m.getName().equals("greater"))
                        && args.size() == 2
                        && floating(m.getParameterTypes()[0])
                        && m.getParameterTypes()[0] == m.getParameterTypes()[1]) {
                      found[0] = true;
                      return Expressions.call(FloatMinMax.class, m.getName(), args);
                    }
                    return super.visit(call, target, args);
                  }
                });
    if (!found[0]) {
      return block;
    }
    return (BlockStatement)
        calls.accept(
            new Shuttle() {
              @Override
              public Expression visit(BinaryExpression binary, Expression left, Expression right) {
                if (binary.getNodeType() == ExpressionType.Assign
                    && left instanceof ParameterExpression variable
                    && right instanceof ConstantExpression constant) {
                  String start = start(variable.getType(), constant.value);
                  if (start != null) {
                    return Expressions.assign(variable, Expressions.call(FloatMinMax.class, start));
                  }
                }
                return super.visit(binary, left, right);
              }
            });
  }

  /** The method whose value replaces a start of {@code MIN} or {@code MAX}; null for another. */
  private static @Nullable String start(java.lang.reflect.Type type, @Nullable Object value) {
    if (type == double.class && value instanceof Double d) {
      return d == Double.MAX_VALUE ? "nan" : d == -Double.MAX_VALUE ? "negativeInfinity" : null;
    }
    if (type == float.class && value instanceof Float f) {
      return f == Float.MAX_VALUE
          ? "nanFloat"
          : f == -Float.MAX_VALUE ? "negativeInfinityFloat" : null;
    }
    return null;
  }

  private static boolean floating(java.lang.reflect.Type type) {
    return type == double.class || type == float.class;
  }
}

package io.calcitebridge.enumerable;

import io.calcitebridge.rewrite.BottomUp;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.enumerable.EnumerableHashJoin;
import org.apache.calcite.adapter.enumerable.EnumerableNestedLoopJoin;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.linq4j.function.Predicate2;
import org.apache.calcite.linq4j.tree.BlockStatement;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.linq4j.tree.FunctionExpression;
import org.apache.calcite.linq4j.tree.GotoExpressionKind;
import org.apache.calcite.linq4j.tree.GotoStatement;
import org.apache.calcite.linq4j.tree.MethodCallExpression;
import org.apache.calcite.linq4j.tree.Shuttle;
import org.apache.calcite.linq4j.tree.Statement;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.util.BuiltInMethod;

/**
 * Runs after cost-based planning: every nested-loop and hash join of the plan becomes a copy whose
 * generated code is Calcite's with two fixes. The operators and their names in EXPLAIN stay
 * Calcite's.
 *
 * <ul>
 *   <li>A nested-loop join calls {@link JoinRuntime#nestedLoopJoin}, which stops when the statement
 *       is cancelled (its inner rows are a list it loops over, read from no scan that would stop
 *       it), and, for a RIGHT or FULL join, keeps duplicate unmatched right rows (Calcite's drops
 *       those that are the same object).
 *   <li>A join condition whose generated value is a boxed {@code Boolean} (as {@code (x IN (NULL,
 *       y)) IS NULL} gives) is read with {@link JoinRuntime#isTrue}: Calcite declared the
 *       condition's method as returning {@code Object}, and the statement failed to compile ("must
 *       implement Predicate2.apply").
 *   <li>A hash join on a DOUBLE or FLOAT key matches no NaN ({@link JoinRuntime#nanKeys}): Calcite
 *       looks keys up by {@code Double.equals}, under which NaN equals NaN, so a LEFT or FULL join
 *       on {@code =}, a join on {@code IS NOT DISTINCT FROM} and the semi-join of an {@code IN} or
 *       {@code EXISTS} sub-query matched NaN with NaN, where {@code NaN = NaN} is FALSE (Java's
 *       {@code ==}, as Flink compares).
 *   <li>In the condition of a nested-loop join, {@code a IS [NOT] DISTINCT FROM b} over DOUBLE or
 *       FLOAT is computed with {@code =} where neither is NULL ({@link DistinctFrom}): Calcite's
 *       code compares the two with {@code Objects.equals}, under which NaN equals NaN.
 * </ul>
 */
public final class JoinRewrite {
  private JoinRewrite() {}

  /** {@code rel} with its joins replaced; shared inputs stay shared. */
  public static RelNode apply(RelNode rel) {
    return BottomUp.rewrite(rel, JoinRewrite::step);
  }

  private static RelNode step(RelNode rel) {
    RelNode node = rel;
    if (node instanceof EnumerableNestedLoopJoin j
        && !(node instanceof NestedLoopJoin)
        && j.getJoinType() != JoinRelType.LEFT_MARK) {
      node =
          new NestedLoopJoin(
              j.getCluster(),
              j.getTraitSet(),
              j.getLeft(),
              j.getRight(),
              j.getCondition().accept(new DistinctFrom(j.getCluster().getRexBuilder())),
              j.getVariablesSet(),
              j.getJoinType());
    } else if (node instanceof EnumerableHashJoin j && !(node instanceof HashJoin)) {
      node =
          new HashJoin(
              j.getCluster(),
              j.getTraitSet(),
              j.getLeft(),
              j.getRight(),
              j.getCondition(),
              j.getVariablesSet(),
              j.getJoinType());
    }
    return node;
  }

  /** The generated code of a join, fixed as the class comment says. */
  private static EnumerableRel.Result fix(EnumerableRel.Result result) {
    BlockStatement block = (BlockStatement) result.block.accept(FIX);
    return new EnumerableRel.Result(block, result.physType, result.format);
  }

  private static final Shuttle FIX =
      new Shuttle() {
        @Override
        public Expression visit(
            MethodCallExpression call, Expression target, List<Expression> arguments) {
          if (call.method.equals(BuiltInMethod.NESTED_LOOP_JOIN.method)) {
            List<Expression> withRoot = new ArrayList<>(arguments);
            withRoot.add(DataContext.ROOT);
            return Expressions.call(JoinRuntime.class, "nestedLoopJoin", withRoot);
          }
          return super.visit(call, target, arguments);
        }

        @Override
        public Expression visit(FunctionExpression function, BlockStatement body) {
          Expression visited = super.visit(function, body);
          if (!(visited instanceof FunctionExpression f) || f.getType() != Predicate2.class) {
            return visited;
          }
          List<Statement> statements = new ArrayList<>(f.body.statements);
          boolean changed = false;
          for (int i = 0; i < statements.size(); i++) {
            if (statements.get(i) instanceof GotoStatement g
                && g.kind == GotoExpressionKind.Return
                && g.expression != null
                && g.expression.getType() != boolean.class) {
              statements.set(
                  i,
                  Expressions.return_(
                      null, Expressions.call(JoinRuntime.class, "isTrue", g.expression)));
              changed = true;
            }
          }
          return changed
              ? Expressions.lambda(Predicate2.class, Expressions.block(statements), f.parameterList)
              : visited;
        }
      };

  /** Calcite's nested-loop join, fixed. */
  static final class NestedLoopJoin extends EnumerableNestedLoopJoin {
    NestedLoopJoin(
        RelOptCluster cluster,
        RelTraitSet traits,
        RelNode left,
        RelNode right,
        RexNode condition,
        Set<CorrelationId> variablesSet,
        JoinRelType joinType) {
      super(cluster, traits, left, right, condition, variablesSet, joinType);
    }

    @Override
    public EnumerableNestedLoopJoin copy(
        RelTraitSet traitSet,
        RexNode condition,
        RelNode left,
        RelNode right,
        JoinRelType joinType,
        boolean semiJoinDone) {
      return new NestedLoopJoin(
          getCluster(), traitSet, left, right, condition, variablesSet, joinType);
    }

    @Override
    public String getRelTypeName() {
      return EnumerableNestedLoopJoin.class.getSimpleName();
    }

    @Override
    public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
      return fix(super.implement(implementor, pref));
    }
  }

  /** Calcite's hash join, fixed. */
  static final class HashJoin extends EnumerableHashJoin {
    HashJoin(
        RelOptCluster cluster,
        RelTraitSet traits,
        RelNode left,
        RelNode right,
        RexNode condition,
        Set<CorrelationId> variablesSet,
        JoinRelType joinType) {
      super(cluster, traits, left, right, condition, variablesSet, joinType);
    }

    @Override
    public EnumerableHashJoin copy(
        RelTraitSet traitSet,
        RexNode condition,
        RelNode left,
        RelNode right,
        JoinRelType joinType,
        boolean semiJoinDone) {
      return new HashJoin(getCluster(), traitSet, left, right, condition, variablesSet, joinType);
    }

    @Override
    public String getRelTypeName() {
      return EnumerableHashJoin.class.getSimpleName();
    }

    @Override
    public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
      Result result = fix(super.implement(implementor, pref));
      if (!floatKeys(this)) {
        return result;
      }
      BlockStatement block = (BlockStatement) result.block.accept(NAN_KEYS);
      return new EnumerableRel.Result(block, result.physType, result.format);
    }
  }

  /**
   * {@code a IS NOT DISTINCT FROM b} over DOUBLE or FLOAT as {@code CASE WHEN a IS NULL THEN b IS
   * NULL WHEN b IS NULL THEN FALSE ELSE a = b END}, and {@code IS DISTINCT FROM} as its negation.
   */
  private static final class DistinctFrom extends RexShuttle {
    private final RexBuilder rex;

    DistinctFrom(RexBuilder rex) {
      this.rex = rex;
    }

    @Override
    public RexNode visitCall(RexCall call) {
      RexCall visited = (RexCall) super.visitCall(call);
      SqlKind kind = visited.getKind();
      if ((kind != SqlKind.IS_NOT_DISTINCT_FROM && kind != SqlKind.IS_DISTINCT_FROM)
          || visited.operands.stream()
              .noneMatch(o -> SqlTypeFamily.APPROXIMATE_NUMERIC.contains(o.getType()))) {
        return visited;
      }
      RexNode a = visited.operands.get(0);
      RexNode b = visited.operands.get(1);
      RexNode same =
          rex.makeCall(
              SqlStdOperatorTable.CASE,
              rex.makeCall(SqlStdOperatorTable.IS_NULL, a),
              rex.makeCall(SqlStdOperatorTable.IS_NULL, b),
              rex.makeCall(SqlStdOperatorTable.IS_NULL, b),
              rex.makeLiteral(false),
              rex.makeCall(SqlStdOperatorTable.EQUALS, a, b));
      return kind == SqlKind.IS_NOT_DISTINCT_FROM
          ? same
          : rex.makeCall(SqlStdOperatorTable.NOT, same);
    }
  }

  /** Whether a key of {@code join} is a DOUBLE or FLOAT. */
  private static boolean floatKeys(EnumerableHashJoin join) {
    JoinInfo info = join.analyzeCondition();
    for (int key : info.leftKeys) {
      if (SqlTypeFamily.APPROXIMATE_NUMERIC.contains(
          join.getLeft().getRowType().getFieldList().get(key).getType())) {
        return true;
      }
    }
    for (int key : info.rightKeys) {
      if (SqlTypeFamily.APPROXIMATE_NUMERIC.contains(
          join.getRight().getRowType().getFieldList().get(key).getType())) {
        return true;
      }
    }
    return false;
  }

  /**
   * The key selectors of hash joins, semi-joins and anti-joins wrapped in {@link
   * JoinRuntime#nanKeys}. The block holds the code of the join's inputs too: a join there gets its
   * selectors wrapped as well, which changes no key but one holding NaN.
   */
  private static final Shuttle NAN_KEYS =
      new Shuttle() {
        @Override
        public Expression visit(
            MethodCallExpression call, Expression target, List<Expression> arguments) {
          int first;
          if (call.method.equals(BuiltInMethod.HASH_JOIN.method)) {
            first = 1;
          } else if (call.method.equals(BuiltInMethod.SEMI_JOIN.method)
              || call.method.equals(BuiltInMethod.ANTI_JOIN.method)) {
            first = 2;
          } else {
            return super.visit(call, target, arguments);
          }
          List<Expression> wrapped = new ArrayList<>(arguments);
          for (int i = first; i < first + 2; i++) {
            wrapped.set(i, Expressions.call(JoinRuntime.class, "nanKeys", arguments.get(i)));
          }
          return target == null
              ? Expressions.call(call.method, wrapped)
              : Expressions.call(target, call.method, wrapped);
        }
      };
}

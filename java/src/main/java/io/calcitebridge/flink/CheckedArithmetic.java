package io.calcitebridge.flink;

import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.adapter.enumerable.EnumerableAggregate;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.linq4j.tree.BinaryExpression;
import org.apache.calcite.linq4j.tree.BlockStatement;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.ExpressionType;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.linq4j.tree.Shuttle;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.InvalidRelException;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexOver;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.rex.RexWindow;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.ImmutableBitSet;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Integer overflow is an error on the Enumerable engine, as it is on DuckDB and in the SQL standard
 * (Flink wraps around; we differ on purpose: a wrapped sum is a wrong answer nobody sees).
 *
 * <ul>
 *   <li>{@code +}, {@code -}, {@code *}, {@code /} (the minimum divided by -1) and the sign {@code
 *       -} over TINYINT, SMALLINT, INTEGER and BIGINT become Calcite's checked operators ({@code
 *       CHECKED_PLUS}, ..., whose code calls {@code Math.addExact} and the like), as Calcite's
 *       {@code ConvertToChecked} does for a conformance with {@code checkedArithmetic()}
 *       (CALCITE-6685); that pass runs in Calcite's own {@code Prepare} only, and it also wraps
 *       DECIMAL arithmetic in casts, which we leave as it is.
 *   <li>{@code SUM} (and {@code $SUM0}) of an integer column adds with {@code Math.addExact}
 *       ({@link CheckedAggregate}), where Calcite's adds with Java's {@code +}; a SMALLINT or
 *       TINYINT sum, added in an {@code int}, already fails when it is cast back to its type. A
 *       windowed {@code SUM} adds in a wider type (BIGINT for the narrower integers, {@code
 *       DECIMAL(38, 0)} for BIGINT, as DuckDB sums into HUGEINT) and is cast back to its type,
 *       which fails when the sum does not fit.
 * </ul>
 *
 * <p>Casts to a narrower integer already fail out of range in Calcite (CALCITE-5990). Runs on the
 * plans of the Enumerable engine only ({@link #apply} before the cost-based pass, {@link
 * #checkedSums} after it); DuckDB checks its arithmetic itself.
 */
public final class CheckedArithmetic {
  private CheckedArithmetic() {}

  /**
   * {@code rel} (logical) with checked integer operators, and its integer averages summed in a
   * wider type ({@link WideAverages}).
   */
  public static RelNode apply(RelNode rel) {
    return WideAverages.apply(rel)
        .accept(
            new RelHomogeneousShuttle() {
              @Override
              public RelNode visit(RelNode other) {
                RelNode visited = super.visit(other);
                return visited.accept(new Operators(visited.getCluster().getRexBuilder()));
              }
            });
  }

  /** {@code e} with checked integer operators, as the engine computes it ({@link Constants}). */
  static RexNode checked(RexBuilder rex, RexNode e) {
    return e.accept(new Operators(rex));
  }

  private static boolean integer(RelDataType type) {
    return switch (type.getSqlTypeName()) {
      case TINYINT, SMALLINT, INTEGER, BIGINT -> true;
      default -> false;
    };
  }

  /**
   * {@code rel} (an Enumerable plan) with its {@link EnumerableAggregate}s checked ({@link
   * CheckedAggregate}). Runs last, so aggregates that another operator took over (the Arrow
   * aggregates of the {@code vector} package) keep their own sums.
   */
  public static RelNode checkedSums(RelNode rel) {
    return checkedSums(rel, new IdentityHashMap<>());
  }

  private static RelNode checkedSums(RelNode rel, Map<RelNode, RelNode> done) {
    RelNode seen = done.get(rel);
    if (seen != null) {
      return seen;
    }
    List<RelNode> inputs = new ArrayList<>(rel.getInputs().size());
    boolean changed = false;
    for (RelNode input : rel.getInputs()) {
      RelNode out = checkedSums(input, done);
      changed |= out != input;
      inputs.add(out);
    }
    RelNode node = changed ? rel.copy(rel.getTraitSet(), inputs) : rel;
    if (node instanceof EnumerableAggregate aggregate && !(node instanceof CheckedAggregate)) {
      try {
        node = new CheckedAggregate(aggregate);
      } catch (InvalidRelException e) {
        throw new IllegalStateException(e);
      }
    }
    done.put(rel, node);
    return node;
  }

  /**
   * Calcite's aggregate, whose generated code adds integers with {@code Math.addExact}: the
   * accumulators of {@code SUM} and {@code $SUM0} (Calcite's add with Java's {@code +}) fail on
   * overflow, and the sum keeps its type and its speed. Its {@code MIN} and {@code MAX} of a DOUBLE
   * or FLOAT order NaN above every number ({@link FloatMinMax}).
   */
  static final class CheckedAggregate extends EnumerableAggregate {
    CheckedAggregate(EnumerableAggregate a) throws InvalidRelException {
      super(
          a.getCluster(),
          a.getTraitSet(),
          a.getInput(),
          a.getGroupSet(),
          a.getGroupSets(),
          a.getAggCallList());
    }

    private CheckedAggregate(
        RelOptCluster cluster,
        RelTraitSet traits,
        RelNode input,
        ImmutableBitSet groupSet,
        @Nullable List<ImmutableBitSet> groupSets,
        List<AggregateCall> calls)
        throws InvalidRelException {
      super(cluster, traits, input, groupSet, groupSets, calls);
    }

    @Override
    public EnumerableAggregate copy(
        RelTraitSet traitSet,
        RelNode input,
        ImmutableBitSet groupSet,
        @Nullable List<ImmutableBitSet> groupSets,
        List<AggregateCall> calls) {
      try {
        return new CheckedAggregate(getCluster(), traitSet, input, groupSet, groupSets, calls);
      } catch (InvalidRelException e) {
        throw new IllegalStateException(e);
      }
    }

    @Override
    public String getRelTypeName() {
      return EnumerableAggregate.class.getSimpleName();
    }

    @Override
    public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
      Result result = super.implement(implementor, pref);
      BlockStatement block = FloatMinMax.rewrite((BlockStatement) result.block.accept(ADD_EXACT));
      return new Result(block, result.physType, result.format);
    }
  }

  /** Replaces {@code a + b} over two {@code int}s or two {@code long}s by {@code Math.addExact}. */
  private static final Shuttle ADD_EXACT =
      new Shuttle() {
        @Override
        public Expression visit(BinaryExpression binary, Expression left, Expression right) {
          Type type = binary.getType();
          if (binary.getNodeType() == ExpressionType.Add
              && (type == int.class || type == long.class)
              && left.getType() == type
              && right.getType() == type) {
            return Expressions.call(Math.class, "addExact", left, right);
          }
          return super.visit(binary, left, right);
        }
      };

  /**
   * Replaces integer {@code +}, {@code -}, {@code *}, {@code /} and sign {@code -} by checked ones.
   */
  private static final class Operators extends RexShuttle {
    private final RexBuilder rex;

    Operators(RexBuilder rex) {
      this.rex = rex;
    }

    @Override
    public RexNode visitSubQuery(RexSubQuery subQuery) {
      RexSubQuery visited = (RexSubQuery) super.visitSubQuery(subQuery);
      RelNode rel = CheckedArithmetic.apply(visited.rel);
      return rel == visited.rel ? visited : visited.clone(rel);
    }

    /**
     * A windowed integer {@code SUM} adds in a wider type (BIGINT, or {@code DECIMAL(38, 0)} for a
     * BIGINT sum) and is cast back to its type, which fails when the sum does not fit.
     */
    @Override
    public RexNode visitOver(RexOver over) {
      RexOver visited = (RexOver) super.visitOver(over);
      SqlKind kind = visited.getAggOperator().getKind();
      if ((kind != SqlKind.SUM && kind != SqlKind.SUM0)
          || visited.operands.size() != 1
          || !integer(visited.getType())) {
        return visited;
      }
      RelDataTypeFactory types = rex.getTypeFactory();
      RelDataType wide =
          visited.getType().getSqlTypeName() == SqlTypeName.BIGINT
              ? types.createSqlType(SqlTypeName.DECIMAL, 38, 0)
              : types.createSqlType(SqlTypeName.BIGINT);
      RexNode arg = visited.operands.get(0);
      RexNode wideArg =
          rex.makeCast(types.createTypeWithNullability(wide, arg.getType().isNullable()), arg);
      RexWindow window = visited.getWindow();
      RexNode sum =
          rex.makeOver(
              types.createTypeWithNullability(wide, visited.getType().isNullable()),
              visited.getAggOperator(),
              List.of(wideArg),
              window.partitionKeys,
              window.orderKeys,
              window.getLowerBound(),
              window.getUpperBound(),
              window.getExclude(),
              window.isRows(),
              true,
              false,
              visited.isDistinct(),
              visited.ignoreNulls());
      return rex.makeCast(visited.getType(), sum);
    }

    @Override
    public RexNode visitCall(RexCall call) {
      RexCall visited = (RexCall) super.visitCall(call);
      if (!integer(visited.getType())) {
        return visited;
      }
      if (visited.getOperator().getName().equals("ABS") && visited.operands.size() == 1) {
        // ABS(x) as CASE WHEN x < 0 THEN -x ELSE x END with a checked minus: Calcite's ABS wraps
        // ABS(-2147483648) to itself.
        RexNode x = visited.operands.get(0);
        return rex.makeCall(
            visited.getParserPosition(),
            visited.getType(),
            SqlStdOperatorTable.CASE,
            List.of(
                rex.makeCall(SqlStdOperatorTable.LESS_THAN, x, rex.makeZeroLiteral(x.getType())),
                rex.makeCall(
                    visited.getParserPosition(),
                    visited.getType(),
                    SqlStdOperatorTable.CHECKED_UNARY_MINUS,
                    List.of(x)),
                x));
      }
      SqlOperator checked =
          switch (visited.getKind()) {
            case PLUS -> SqlStdOperatorTable.CHECKED_PLUS;
            case MINUS -> SqlStdOperatorTable.CHECKED_MINUS;
            case TIMES -> SqlStdOperatorTable.CHECKED_MULTIPLY;
            case DIVIDE -> SqlStdOperatorTable.CHECKED_DIVIDE;
            case MINUS_PREFIX -> SqlStdOperatorTable.CHECKED_UNARY_MINUS;
            default -> null;
          };
      if (checked == null) {
        return visited;
      }
      return rex.makeCall(
          visited.getParserPosition(), visited.getType(), checked, visited.operands);
    }
  }
}

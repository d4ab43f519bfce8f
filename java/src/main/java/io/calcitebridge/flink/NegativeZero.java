package io.calcitebridge.flink;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.SetOp;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * Makes {@code -0.0} and {@code 0.0} one value wherever the Enumerable engine compares values as
 * objects: join keys, GROUP BY keys, the arguments of DISTINCT aggregates and the rows of UNION,
 * INTERSECT and EXCEPT. {@code Double.equals} and {@code Double.hashCode} tell {@code -0.0} from
 * {@code 0.0}, while SQL (and DuckDB) take them as equal: {@code -c IN (SELECT 0 ...)} with {@code
 * c = 0.0} was FALSE, and {@code GROUP BY} made two groups. Each such floating-point value {@code
 * x} is replaced by {@code CASE WHEN x = 0 THEN 0.0 ELSE x END} (a comparison of numbers, where the
 * two zeros are equal), so the keys hold {@code 0.0}.
 *
 * <p>Runs on the plan given to the Enumerable engine only: DuckDB already takes the two zeros as
 * one value.
 */
public final class NegativeZero {
  private NegativeZero() {}

  /** {@code rel} with floating-point keys normalised. */
  public static RelNode normalise(RelNode rel) {
    return rel.accept(
        new RelHomogeneousShuttle() {
          @Override
          public RelNode visit(RelNode other) {
            return rewrite(super.visit(other));
          }
        });
  }

  private static RelNode rewrite(RelNode rel) {
    if (rel instanceof Join join) {
      RexBuilder rex = join.getCluster().getRexBuilder();
      RexNode condition = join.getCondition().accept(new EqualityOperands(rex));
      return condition.equals(join.getCondition())
          ? join
          : join.copy(
              join.getTraitSet(),
              condition,
              join.getLeft(),
              join.getRight(),
              join.getJoinType(),
              join.isSemiJoinDone());
    }
    if (rel instanceof Aggregate aggregate) {
      ImmutableBitSet.Builder keys = ImmutableBitSet.builder().addAll(aggregate.getGroupSet());
      for (AggregateCall call : aggregate.getAggCallList()) {
        if (call.isDistinct()) {
          keys.addAll(call.getArgList());
        }
      }
      RelNode input = normaliseColumns(aggregate.getInput(), keys.build());
      return input == aggregate.getInput()
          ? aggregate
          : aggregate.copy(aggregate.getTraitSet(), List.of(input));
    }
    if (rel instanceof SetOp setOp && !setOp.all) {
      List<RelNode> inputs = new ArrayList<>();
      boolean changed = false;
      for (RelNode input : setOp.getInputs()) {
        RelNode out =
            normaliseColumns(input, ImmutableBitSet.range(input.getRowType().getFieldCount()));
        changed |= out != input;
        inputs.add(out);
      }
      return changed ? setOp.copy(setOp.getTraitSet(), inputs) : setOp;
    }
    return rel;
  }

  /**
   * {@code input} under a projection that normalises its floating-point columns in {@code keys}.
   */
  private static RelNode normaliseColumns(RelNode input, ImmutableBitSet keys) {
    RexBuilder rex = input.getCluster().getRexBuilder();
    List<RexNode> projects = new ArrayList<>();
    boolean changed = false;
    for (int i = 0; i < input.getRowType().getFieldCount(); i++) {
      RexNode field = rex.makeInputRef(input, i);
      if (keys.get(i) && floating(field.getType())) {
        projects.add(zero(rex, field));
        changed = true;
      } else {
        projects.add(field);
      }
    }
    return changed ? LogicalProject.create(input, List.of(), projects, input.getRowType()) : input;
  }

  /** Whether {@code type} is DOUBLE, FLOAT or REAL, whose zero has a sign. */
  static boolean floating(RelDataType type) {
    SqlTypeName name = type.getSqlTypeName();
    return name == SqlTypeName.DOUBLE || name == SqlTypeName.FLOAT || name == SqlTypeName.REAL;
  }

  /** {@code CASE WHEN x = 0 THEN 0.0 ELSE x END}, typed as {@code x}: its zero is unsigned. */
  static RexNode zero(RexBuilder rex, RexNode x) {
    RelDataType type = x.getType();
    RelDataType notNull = rex.getTypeFactory().createTypeWithNullability(type, false);
    RexNode zero = rex.makeApproxLiteral(BigDecimal.ZERO, notNull);
    return rex.makeCall(
        type,
        SqlStdOperatorTable.CASE,
        List.of(rex.makeCall(SqlStdOperatorTable.EQUALS, x, zero), zero, x));
  }

  /** Normalises the floating-point operands of the equalities of a join condition. */
  private static final class EqualityOperands extends RexShuttle {
    private final RexBuilder rex;

    EqualityOperands(RexBuilder rex) {
      this.rex = rex;
    }

    @Override
    public RexNode visitCall(RexCall call) {
      SqlKind kind = call.getKind();
      if ((kind == SqlKind.EQUALS || kind == SqlKind.IS_NOT_DISTINCT_FROM)
          && call.getOperands().stream().allMatch(o -> floating(o.getType()))) {
        List<RexNode> operands = new ArrayList<>();
        for (RexNode operand : call.getOperands()) {
          operands.add(zero(rex, operand));
        }
        return call.clone(call.getType(), operands);
      }
      return super.visitCall(call);
    }
  }
}

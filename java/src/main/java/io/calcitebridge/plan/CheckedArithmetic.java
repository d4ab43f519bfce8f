package io.calcitebridge.plan;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.adapter.enumerable.EnumerableAggregate;
import org.apache.calcite.adapter.enumerable.EnumerableCalc;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexOver;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.rex.RexWindow;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;

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
 *   <li>{@code SUM} (and {@code $SUM0}) of an integer column adds in a wider type (BIGINT for the
 *       narrower integers, {@code DECIMAL(38, 0)} for BIGINT, as DuckDB sums into HUGEINT), and the
 *       sum is cast back to the column's type; that cast fails when the sum does not fit. Calcite's
 *       {@code SUM} adds with Java's {@code +}.
 * </ul>
 *
 * <p>Casts to a narrower integer already fail out of range in Calcite (CALCITE-5990). Runs on the
 * plans of the Enumerable engine only ({@link #apply} before the cost-based pass, {@link
 * #checkedSums} after it); DuckDB checks its arithmetic itself.
 */
final class CheckedArithmetic {
  private CheckedArithmetic() {}

  /** {@code rel} (logical) with checked integer operators. */
  static RelNode apply(RelNode rel) {
    return rel.accept(
        new RelHomogeneousShuttle() {
          @Override
          public RelNode visit(RelNode other) {
            RelNode visited = super.visit(other);
            return visited.accept(new Operators(visited.getCluster().getRexBuilder()));
          }
        });
  }

  private static boolean integer(RelDataType type) {
    return switch (type.getSqlTypeName()) {
      case TINYINT, SMALLINT, INTEGER, BIGINT -> true;
      default -> false;
    };
  }

  /**
   * {@code rel} (an Enumerable plan) with the integer sums of its {@link EnumerableAggregate}s
   * computed in a wider type and cast back. Runs last, so aggregates that another operator took
   * over (the Arrow aggregates of the {@code vector} package) keep their own sums.
   */
  static RelNode checkedSums(RelNode rel) {
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
    if (node instanceof EnumerableAggregate aggregate) {
      node = widenSums(aggregate);
    }
    done.put(rel, node);
    return node;
  }

  /** {@code exprs} over {@code input}, as an Enumerable calculation, with row type {@code type}. */
  private static RelNode calc(RelNode input, List<RexNode> exprs, RelDataType type) {
    RexProgram program =
        RexProgram.create(
            input.getRowType(), exprs, null, type, input.getCluster().getRexBuilder());
    return EnumerableCalc.create(input, program);
  }

  /** {@code aggregate} with its integer sums computed in a wider type and cast back. */
  private static RelNode widenSums(Aggregate aggregate) {
    RelNode input = aggregate.getInput();
    RexBuilder rex = aggregate.getCluster().getRexBuilder();
    RelDataTypeFactory types = rex.getTypeFactory();
    int inputCount = input.getRowType().getFieldCount();
    List<RexNode> projects = new ArrayList<>();
    for (int i = 0; i < inputCount; i++) {
      projects.add(rex.makeInputRef(input, i));
    }
    List<AggregateCall> calls = new ArrayList<>();
    boolean changed = false;
    for (AggregateCall call : aggregate.getAggCallList()) {
      SqlKind kind = call.getAggregation().getKind();
      if ((kind == SqlKind.SUM || kind == SqlKind.SUM0)
          && call.getArgList().size() == 1
          && integer(call.getType())) {
        RexNode arg = rex.makeInputRef(input, call.getArgList().get(0));
        SqlTypeName wide =
            call.getType().getSqlTypeName() == SqlTypeName.BIGINT
                ? SqlTypeName.DECIMAL
                : SqlTypeName.BIGINT;
        RelDataType wideType =
            wide == SqlTypeName.DECIMAL
                ? types.createSqlType(SqlTypeName.DECIMAL, 38, 0)
                : types.createSqlType(SqlTypeName.BIGINT);
        RelDataType argType = types.createTypeWithNullability(wideType, arg.getType().isNullable());
        projects.add(rex.makeCast(argType, arg));
        calls.add(
            AggregateCall.create(
                call.getParserPosition(),
                call.getAggregation(),
                call.isDistinct(),
                call.isApproximate(),
                call.ignoreNulls(),
                call.rexList,
                List.of(projects.size() - 1),
                call.filterArg,
                call.distinctKeys,
                call.collation,
                types.createTypeWithNullability(wideType, call.getType().isNullable()),
                call.getName()));
        changed = true;
      } else {
        calls.add(call);
      }
    }
    if (!changed) {
      return aggregate;
    }
    RelDataTypeFactory.Builder wideRow = types.builder();
    for (int i = 0; i < projects.size(); i++) {
      wideRow.add(
          i < inputCount ? input.getRowType().getFieldNames().get(i) : "$w" + i,
          projects.get(i).getType());
    }
    RelNode wideInput = calc(input, projects, wideRow.build());
    Aggregate wide =
        aggregate.copy(
            aggregate.getTraitSet(),
            wideInput,
            aggregate.getGroupSet(),
            aggregate.getGroupSets(),
            calls);
    List<RexNode> out = new ArrayList<>();
    List<RelDataType> want = new ArrayList<>();
    aggregate.getRowType().getFieldList().forEach(f -> want.add(f.getType()));
    for (int i = 0; i < want.size(); i++) {
      RexNode field = rex.makeInputRef(wide, i);
      out.add(field.getType().equals(want.get(i)) ? field : rex.makeCast(want.get(i), field));
    }
    return calc(wide, out, aggregate.getRowType());
  }

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
     * A windowed integer {@code SUM} adds in the wider type of {@link #widenSums} and is cast back,
     * as an aggregate's is.
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

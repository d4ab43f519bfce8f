package io.calcitebridge.plan;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Integer overflow is an error on the Enumerable engine, as it is on DuckDB and in the SQL
 * standard (Flink wraps around; we differ on purpose: a wrapped sum is a wrong answer nobody sees).
 *
 * <ul>
 *   <li>{@code +}, {@code -}, {@code *} and the sign {@code -} over TINYINT, SMALLINT, INTEGER and
 *       BIGINT become Calcite's checked operators ({@code CHECKED_PLUS}, ..., whose code calls
 *       {@code Math.addExact} and the like), as Calcite's {@code ConvertToChecked} does for a
 *       conformance with {@code checkedArithmetic()} (CALCITE-6685); that pass runs in Calcite's
 *       own {@code Prepare} only, and it also wraps DECIMAL arithmetic in casts, which we leave
 *       as it is.
 *   <li>{@code SUM} (and {@code $SUM0}) of an integer column adds in a wider type (BIGINT for the
 *       narrower integers, {@code DECIMAL(38, 0)} for BIGINT, as DuckDB sums into HUGEINT), and
 *       the sum is cast back to the column's type; that cast fails when the sum does not fit.
 *       Calcite's {@code SUM} adds with Java's {@code +}.
 * </ul>
 *
 * <p>Casts to a narrower integer already fail out of range in Calcite (CALCITE-5990). Runs on the
 * plan given to the Enumerable engine only; DuckDB checks its arithmetic itself.
 */
final class CheckedArithmetic {
  private CheckedArithmetic() {}

  /** {@code rel} with checked integer arithmetic. */
  static RelNode apply(RelNode rel) {
    return rel.accept(
        new RelHomogeneousShuttle() {
          @Override
          public RelNode visit(RelNode other) {
            RelNode visited = super.visit(other);
            RelNode checked = visited.accept(new Operators(visited.getCluster().getRexBuilder()));
            return checked instanceof Aggregate aggregate ? widenSums(aggregate) : checked;
          }
        });
  }

  private static boolean integer(RelDataType type) {
    return switch (type.getSqlTypeName()) {
      case TINYINT, SMALLINT, INTEGER, BIGINT -> true;
      default -> false;
    };
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
        RelDataType argType =
            types.createTypeWithNullability(wideType, arg.getType().isNullable());
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
    RelNode wideInput = LogicalProject.create(input, List.of(), projects, (List<String>) null);
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
    return LogicalProject.create(wide, List.of(), out, aggregate.getRowType());
  }

  /** Replaces integer {@code +}, {@code -}, {@code *} and sign {@code -} by the checked ones. */
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
            case MINUS_PREFIX -> SqlStdOperatorTable.CHECKED_UNARY_MINUS;
            default -> null;
          };
      if (checked == null) {
        return visited;
      }
      return rex.makeCall(visited.getParserPosition(), visited.getType(), checked, visited.operands);
    }
  }
}

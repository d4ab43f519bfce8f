package io.calcitebridge.translate;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * The average of an integer column on Spark: {@code AVG(x)} becomes {@code CAST(SUM(CAST(x AS
 * DECIMAL(38, 0))) div COUNT(x) AS <type>)}.
 *
 * <p>Calcite's reduction of {@code AVG} to {@code SUM / COUNT} sums in the argument's type, and
 * Spark, in ANSI mode, fails with ARITHMETIC_OVERFLOW where the sum of a BIGINT column leaves
 * BIGINT though the average fits. The reference sums wider and divides exactly, rounding toward
 * zero ({@code WideAverages}); here the sum is a DECIMAL(38, 0), which holds the sum of any number
 * of rows Spark can count, and Spark's {@code div} truncates toward zero. A {@code /} of the
 * DECIMAL sum would round its quotient at a scale first, and a quotient just below an integer would
 * come out as that integer.
 */
final class SparkAverages {
  private SparkAverages() {}

  /** {@code plan} with each integer average of a simple grouping computed as above. */
  static RelNode widen(RelNode plan) {
    return plan.accept(
        new RelHomogeneousShuttle() {
          @Override
          public RelNode visit(RelNode other) {
            RelNode visited = super.visit(other);
            return visited instanceof Aggregate aggregate ? widen(aggregate) : visited;
          }
        });
  }

  private static boolean integerAverage(AggregateCall call, RelNode input) {
    if (call.getAggregation().getKind() != SqlKind.AVG || call.getArgList().size() != 1) {
      return false;
    }
    SqlTypeName type =
        input.getRowType().getFieldList().get(call.getArgList().get(0)).getType().getSqlTypeName();
    return type == SqlTypeName.TINYINT
        || type == SqlTypeName.SMALLINT
        || type == SqlTypeName.INTEGER
        || type == SqlTypeName.BIGINT;
  }

  private static RelNode widen(Aggregate aggregate) {
    RelNode input = aggregate.getInput();
    if (aggregate.getGroupType() != Aggregate.Group.SIMPLE
        || aggregate.getAggCallList().stream().noneMatch(c -> integerAverage(c, input))) {
      return aggregate;
    }
    RexBuilder rex = aggregate.getCluster().getRexBuilder();
    RelDataTypeFactory types = rex.getTypeFactory();
    RelDataType decimal = types.createSqlType(SqlTypeName.DECIMAL, 38, 0);

    // The input, with a DECIMAL(38, 0) copy of each averaged column after its columns.
    List<RexNode> projects = new ArrayList<>();
    for (int i = 0; i < input.getRowType().getFieldCount(); i++) {
      projects.add(rex.makeInputRef(input, i));
    }
    Map<Integer, Integer> wide = new HashMap<>();
    for (AggregateCall call : aggregate.getAggCallList()) {
      if (integerAverage(call, input)) {
        int arg = call.getArgList().get(0);
        wide.computeIfAbsent(
            arg,
            a -> {
              RexNode column = rex.makeInputRef(input, a);
              projects.add(
                  rex.makeCast(
                      types.createTypeWithNullability(decimal, column.getType().isNullable()),
                      column));
              return projects.size() - 1;
            });
      }
    }
    RelNode projected =
        LogicalProject.create(input, List.of(), projects, (List<String>) null, java.util.Set.of());

    int groups = aggregate.getGroupCount();
    List<AggregateCall> calls = new ArrayList<>();
    List<int[]> sumAndCount = new ArrayList<>();
    for (AggregateCall call : aggregate.getAggCallList()) {
      if (!integerAverage(call, input)) {
        calls.add(call);
        sumAndCount.add(null);
        continue;
      }
      int arg = call.getArgList().get(0);
      calls.add(copy(call, SqlStdOperatorTable.SUM, wide.get(arg), groups, projected));
      calls.add(copy(call, SqlStdOperatorTable.COUNT, arg, groups, projected));
      sumAndCount.add(new int[] {groups + calls.size() - 2, groups + calls.size() - 1});
    }
    RelNode grouped =
        LogicalAggregate.create(
            projected, aggregate.getHints(), aggregate.getGroupSet(), null, calls);

    List<RexNode> out = new ArrayList<>();
    for (int i = 0; i < groups; i++) {
      out.add(rex.makeInputRef(grouped, i));
    }
    int next = groups;
    for (int k = 0; k < aggregate.getAggCallList().size(); k++) {
      int[] pair = sumAndCount.get(k);
      if (pair == null) {
        out.add(rex.makeInputRef(grouped, next++));
        continue;
      }
      RexNode quotient =
          rex.makeCall(
              SparkOperators.DIV,
              rex.makeInputRef(grouped, pair[0]),
              rex.makeInputRef(grouped, pair[1]));
      out.add(rex.makeAbstractCast(aggregate.getAggCallList().get(k).getType(), quotient, false));
      next += 2;
    }
    return LogicalProject.create(
        grouped, List.of(), out, aggregate.getRowType().getFieldNames(), java.util.Set.of());
  }

  private static AggregateCall copy(
      AggregateCall call,
      org.apache.calcite.sql.SqlAggFunction function,
      int arg,
      int groups,
      RelNode input) {
    return AggregateCall.create(
        function,
        call.isDistinct(),
        call.isApproximate(),
        call.ignoreNulls(),
        call.rexList,
        List.of(arg),
        call.filterArg,
        call.distinctKeys,
        call.collation,
        groups,
        input,
        null,
        null);
  }
}

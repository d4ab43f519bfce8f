package io.calcitebridge.translate;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.RelCollations;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlAggFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.util.Optionality;

/**
 * Flink's aggregate functions DuckDB spells otherwise: {@code PERCENTILE(value, fraction)} of an
 * integer or floating-point value with a literal fraction is DuckDB's {@code quantile_cont}, which
 * interpolates between the two nearest values as Flink does and leaves NULLs out. A DECIMAL value
 * is cast to DOUBLE first, as Flink reads each value as a double (DuckDB's quantile of a DECIMAL
 * answers a DECIMAL). An array of fractions, a frequency or a fraction that is not a literal stay
 * refused.
 *
 * <p>Flink's {@code FIRST_VALUE(x)} and {@code LAST_VALUE(x)} without {@code OVER} ({@code
 * functions/AggregateFunctions}: the first and the last non-NULL value in the order the rows
 * arrive) are DuckDB's {@code any_value(x)} (its first non-NULL value) and {@code last(x) FILTER
 * (WHERE x IS NOT NULL)}, in the order DuckDB reads the rows: one thread's order, as Calcite's
 * engine reads them, up to a row group; over several threads the order is DuckDB's, as it is
 * Flink's over parallel tasks.
 */
final class DuckDbAggregates {
  private DuckDbAggregates() {}

  /** DuckDB's {@code quantile_cont}, typed as the PERCENTILE call it replaces. */
  static final SqlAggFunction QUANTILE_CONT =
      new SqlAggFunction(
          "quantile_cont",
          null,
          SqlKind.OTHER_FUNCTION,
          ReturnTypes.DOUBLE_NULLABLE,
          null,
          OperandTypes.ANY_ANY,
          SqlFunctionCategory.NUMERIC,
          false,
          false,
          Optionality.FORBIDDEN) {};

  /** DuckDB's {@code any_value}: the first non-NULL value, for Flink's FIRST_VALUE aggregate. */
  static final SqlAggFunction ANY_VALUE = kept("any_value");

  /** DuckDB's {@code last}, filtered to non-NULL values: Flink's LAST_VALUE aggregate. */
  static final SqlAggFunction LAST = kept("last");

  private static SqlAggFunction kept(String name) {
    return new SqlAggFunction(
        name,
        null,
        SqlKind.OTHER_FUNCTION,
        ReturnTypes.ARG0_FORCE_NULLABLE,
        null,
        OperandTypes.ANY,
        SqlFunctionCategory.SYSTEM,
        false,
        false,
        Optionality.FORBIDDEN) {};
  }

  /**
   * DuckDB's {@code first_value(x IGNORE NULLS)} and {@code last_value(x IGNORE NULLS)}: Flink's
   * {@code FIRST_VALUE} and {@code LAST_VALUE} over a window, which skip NULLs ({@code
   * functions/AggregateFunctions}).
   */
  static final SqlAggFunction FIRST_VALUE_OVER = ignoringNulls("first_value", SqlKind.FIRST_VALUE);

  static final SqlAggFunction LAST_VALUE_OVER = ignoringNulls("last_value", SqlKind.LAST_VALUE);

  private static SqlAggFunction ignoringNulls(String name, SqlKind kind) {
    return new SqlAggFunction(
        name,
        null,
        kind,
        ReturnTypes.ARG0_FORCE_NULLABLE,
        null,
        OperandTypes.ANY,
        SqlFunctionCategory.NUMERIC,
        false,
        true,
        Optionality.FORBIDDEN) {
      @Override
      public void unparse(
          org.apache.calcite.sql.SqlWriter writer,
          org.apache.calcite.sql.SqlCall call,
          int leftPrec,
          int rightPrec) {
        // DuckDB reads IGNORE NULLS inside the call's parentheses only.
        org.apache.calcite.sql.SqlWriter.Frame frame = writer.startFunCall(getName());
        call.operand(0).unparse(writer, 0, 0);
        writer.keyword("IGNORE NULLS");
        writer.endFunCall(frame);
      }
    };
  }

  static RelNode rewrite(RelNode plan) {
    return plan.accept(
        new RelHomogeneousShuttle() {
          @Override
          public RelNode visit(RelNode other) {
            RelNode visited = super.visit(other);
            if (visited instanceof LogicalProject project) {
              return project.accept(windowedFirstAndLast(project.getCluster().getRexBuilder()));
            }
            if (!(visited instanceof LogicalAggregate agg)) {
              return visited;
            }
            // Variances and LISTAGG first: a LISTAGG's separator is read off the input as planned.
            RelNode statistics = DuckDbStatistics.rewrite(agg);
            if (statistics instanceof LogicalProject above
                && above.getInput() instanceof LogicalAggregate below) {
              return above.copy(
                  above.getTraitSet(),
                  List.of(firstAndLast((LogicalAggregate) percentiles(below))));
            }
            return firstAndLast((LogicalAggregate) percentiles(agg));
          }
        });
  }

  /** Flink's FIRST_VALUE and LAST_VALUE over a window in DuckDB's spelling. */
  private static org.apache.calcite.rex.RexShuttle windowedFirstAndLast(
      org.apache.calcite.rex.RexBuilder rex) {
    return new org.apache.calcite.rex.RexShuttle() {
      @Override
      public RexNode visitOver(org.apache.calcite.rex.RexOver over) {
        SqlAggFunction op = over.getAggOperator();
        SqlAggFunction duck =
            op == io.calcitebridge.functions.AggregateFunctions.FIRST_VALUE
                ? FIRST_VALUE_OVER
                : op == io.calcitebridge.functions.AggregateFunctions.LAST_VALUE
                    ? LAST_VALUE_OVER
                    : null;
        if (duck == null) {
          return super.visitOver(over);
        }
        org.apache.calcite.rex.RexWindow w = over.getWindow();
        return rex.makeOver(
            over.getType(),
            duck,
            over.getOperands(),
            w.partitionKeys,
            w.orderKeys,
            w.getLowerBound(),
            w.getUpperBound(),
            w.getExclude(),
            w.isRows(),
            true,
            false,
            over.isDistinct(),
            false);
      }
    };
  }

  private static RelNode percentiles(LogicalAggregate agg) {
    if (!(agg.getInput() instanceof LogicalProject project)) {
      return agg;
    }
    List<AggregateCall> calls = new ArrayList<>();
    List<RexNode> projects = new ArrayList<>(project.getProjects());
    List<String> names = new ArrayList<>(project.getRowType().getFieldNames());
    org.apache.calcite.rex.RexBuilder rex = project.getCluster().getRexBuilder();
    List<AggregateCall> found = new ArrayList<>();
    for (AggregateCall call : agg.getAggCallList()) {
      if (percentile(call, project)) {
        RexNode value = projects.get(call.getArgList().get(0));
        if (value.getType().getSqlTypeName() == org.apache.calcite.sql.type.SqlTypeName.DECIMAL) {
          org.apache.calcite.rel.type.RelDataType type =
              rex.getTypeFactory()
                  .createTypeWithNullability(
                      rex.getTypeFactory()
                          .createSqlType(org.apache.calcite.sql.type.SqlTypeName.DOUBLE),
                      value.getType().isNullable());
          projects.add(rex.makeCast(type, value));
          names.add("$percentile_" + projects.size());
          call = call.withArgList(List.of(projects.size() - 1, call.getArgList().get(1)));
        }
      }
      found.add(call);
    }
    if (projects.size() > project.getProjects().size()) {
      project =
          LogicalProject.create(
              project.getInput(), project.getHints(), projects, names, project.getVariablesSet());
    }
    boolean changed = projects.size() > agg.getInput().getRowType().getFieldCount();
    for (AggregateCall call : found) {
      if (percentile(call, project)) {
        calls.add(
            AggregateCall.create(
                QUANTILE_CONT,
                false,
                false,
                false,
                List.of(),
                call.getArgList(),
                -1,
                null,
                RelCollations.EMPTY,
                agg.getGroupCount(),
                project,
                call.getType(),
                call.getName()));
        changed = true;
      } else {
        calls.add(call);
      }
    }
    return changed
        ? agg.copy(agg.getTraitSet(), project, agg.getGroupSet(), agg.getGroupSets(), calls)
        : agg;
  }

  /** {@code agg} with Flink's FIRST_VALUE and LAST_VALUE aggregates in DuckDB's spelling. */
  private static RelNode firstAndLast(LogicalAggregate agg) {
    boolean any = false;
    for (AggregateCall call : agg.getAggCallList()) {
      any |= firstOrLast(call) != null;
    }
    if (!any) {
      return agg;
    }
    RelNode input = agg.getInput();
    if (RowOrder.unordered(input)) {
      // Calcite writes a VALUES list as a UNION ALL, whose branches DuckDB reads in any order.
      AggregateCall first =
          agg.getAggCallList().stream().filter(c -> firstOrLast(c) != null).findFirst().get();
      throw new Refusal(
          DuckDbTranslator.BACKEND,
          Refusal.aggregate(first.getAggregation())
              + " over a VALUES list or a UNION, whose rows DuckDB reads in no set order");
    }
    org.apache.calcite.rex.RexBuilder rex = agg.getCluster().getRexBuilder();
    List<RexNode> projects = new ArrayList<>();
    List<String> names = new ArrayList<>(input.getRowType().getFieldNames());
    for (int i = 0; i < input.getRowType().getFieldCount(); i++) {
      projects.add(rex.makeInputRef(input, i));
    }
    List<AggregateCall> calls = new ArrayList<>();
    for (AggregateCall call : agg.getAggCallList()) {
      SqlAggFunction duck = firstOrLast(call);
      if (duck == null) {
        calls.add(call);
        continue;
      }
      int filter = -1;
      if (duck == LAST) {
        projects.add(
            rex.makeCall(
                org.apache.calcite.sql.fun.SqlStdOperatorTable.IS_NOT_NULL,
                rex.makeInputRef(input, call.getArgList().get(0))));
        names.add("$last_" + projects.size());
        filter = projects.size() - 1;
      }
      calls.add(
          AggregateCall.create(
              duck,
              false,
              false,
              false,
              List.of(),
              call.getArgList(),
              filter,
              null,
              RelCollations.EMPTY,
              call.getType(),
              call.getName()));
    }
    RelNode project =
        projects.size() > input.getRowType().getFieldCount()
            ? LogicalProject.create(input, List.of(), projects, names, java.util.Set.of())
            : input;
    return agg.copy(agg.getTraitSet(), project, agg.getGroupSet(), agg.getGroupSets(), calls);
  }

  /** DuckDB's aggregate for Flink's FIRST_VALUE or LAST_VALUE aggregate {@code call}, or null. */
  private static @org.checkerframework.checker.nullness.qual.Nullable SqlAggFunction firstOrLast(
      AggregateCall call) {
    if (call.getArgList().size() != 1
        || call.isDistinct()
        || call.hasFilter()
        || !call.collation.getFieldCollations().isEmpty()) {
      return null;
    }
    if (call.getAggregation() == io.calcitebridge.functions.AggregateFunctions.FIRST_VALUE) {
      return ANY_VALUE;
    }
    if (call.getAggregation() == io.calcitebridge.functions.AggregateFunctions.LAST_VALUE) {
      return LAST;
    }
    return null;
  }

  private static boolean percentile(AggregateCall call, LogicalProject project) {
    if (!call.getAggregation().getName().equals("PERCENTILE")
        || call.getArgList().size() != 2
        || call.isDistinct()
        || call.hasFilter()) {
      return false;
    }
    RexNode value = project.getProjects().get(call.getArgList().get(0));
    RexNode fraction = project.getProjects().get(call.getArgList().get(1));
    if (!(SqlTypeFamily.INTEGER.contains(value.getType())
            || SqlTypeFamily.APPROXIMATE_NUMERIC.contains(value.getType())
            || value.getType().getSqlTypeName() == org.apache.calcite.sql.type.SqlTypeName.DECIMAL)
        || !(fraction instanceof RexLiteral literal)
        || literal.isNull()) {
      return false;
    }
    BigDecimal p = literal.getValueAs(BigDecimal.class);
    return p != null && p.signum() >= 0 && p.compareTo(BigDecimal.ONE) <= 0;
  }
}

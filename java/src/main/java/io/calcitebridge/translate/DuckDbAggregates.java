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

  static RelNode rewrite(RelNode plan) {
    return plan.accept(
        new RelHomogeneousShuttle() {
          @Override
          public RelNode visit(RelNode other) {
            RelNode visited = super.visit(other);
            return visited instanceof LogicalAggregate agg ? percentiles(agg) : visited;
          }
        });
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

package io.calcitebridge.translate;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.RelCollations;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlAggFunction;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.Optionality;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Flink's variances, standard deviations and {@code LISTAGG} as DuckDB's aggregates.
 *
 * <p>{@code VAR_POP}, {@code VAR_SAMP} ({@code VARIANCE}), {@code STDDEV_POP} and {@code
 * STDDEV_SAMP} ({@code STDDEV}): Flink sums the squared distances from the running mean with
 * Welford's algorithm in DOUBLE ({@code functions/Welford}), and so does DuckDB, step for step
 * ({@code mean += (x - mean) / n; m2 += (x - mean') * (x - mean)}), so that one thread's answer is
 * Flink's to the last bit; DuckDB's {@code sqrt} is Java's {@code pow(v, 0.5)}. DuckDB answers 0
 * for the population variance of one value where Flink's {@code x * (x - x)} is NaN for a NaN or an
 * infinity: that case is written apart. The DOUBLE is then cast as Flink casts it to the result's
 * type: a DECIMAL rounded half up from the number's shortest text, an integer truncated, NaN as 0
 * and saturated at the range of INT or BIGINT, then wrapped to TINYINT or SMALLINT as Java's {@code
 * (byte) (int) v}. Values are read as DOUBLE by both: a DECIMAL of more than 15 digits, which
 * DuckDB's cast to DOUBLE may round twice, a FLOAT or REAL (held as the DOUBLE of its text on
 * Calcite's engine), DISTINCT (DuckDB keeps no order of the distinct values) and FILTER stay
 * refused.
 *
 * <p>{@code LISTAGG(x[, separator])} with a literal separator is DuckDB's {@code string_agg}: the
 * non-NULL values in the order the rows arrive, {@code ','} by default, NULL for none; as {@code
 * FIRST_VALUE} (see {@link DuckDbAggregates}) it is refused over a VALUES list or a UNION, whose
 * rows DuckDB reads in no set order.
 */
final class DuckDbStatistics {
  private DuckDbStatistics() {}

  /** DuckDB's aggregate of the same name, a DOUBLE. */
  private static SqlAggFunction moment(String name) {
    return new SqlAggFunction(
        name,
        null,
        SqlKind.OTHER_FUNCTION,
        ReturnTypes.DOUBLE_NULLABLE,
        null,
        OperandTypes.NUMERIC,
        SqlFunctionCategory.NUMERIC,
        false,
        false,
        Optionality.FORBIDDEN) {};
  }

  static final SqlAggFunction VAR_POP = moment("var_pop");
  static final SqlAggFunction VAR_SAMP = moment("var_samp");
  static final SqlAggFunction STDDEV_POP = moment("stddev_pop");
  static final SqlAggFunction STDDEV_SAMP = moment("stddev_samp");

  /** DuckDB's {@code min}, for the one value of a group of one. */
  private static final SqlAggFunction MIN = moment("min");

  /** Whether {@code f} is one of the aggregates this class writes. */
  static boolean isOurs(SqlAggFunction f) {
    return f == VAR_POP
        || f == VAR_SAMP
        || f == STDDEV_POP
        || f == STDDEV_SAMP
        || f == MIN
        || f instanceof StringAgg;
  }

  /**
   * DuckDB's {@code string_agg(x, 'separator')}: the separator is a constant of the call (DuckDB
   * takes no column there), written into the SQL as a string literal.
   */
  static final class StringAgg extends SqlAggFunction {
    private final String separator;

    StringAgg(String separator) {
      super(
          "string_agg",
          null,
          SqlKind.OTHER_FUNCTION,
          ReturnTypes.ARG0_FORCE_NULLABLE,
          null,
          OperandTypes.ANY,
          SqlFunctionCategory.STRING,
          false,
          false,
          Optionality.FORBIDDEN);
      this.separator = separator;
    }

    @Override
    public void unparse(SqlWriter writer, SqlCall call, int leftPrec, int rightPrec) {
      SqlWriter.Frame frame = writer.startFunCall(getName());
      call.operand(0).unparse(writer, 0, 0);
      writer.sep(",");
      writer.literal("'" + separator.replace("'", "''") + "'");
      writer.endFunCall(frame);
    }
  }

  /** {@code agg} with its variances, deviations and LISTAGGs in DuckDB's spelling, or itself. */
  static RelNode rewrite(LogicalAggregate agg) {
    boolean any = false;
    for (AggregateCall call : agg.getAggCallList()) {
      any |= moment(call, agg) != null || listagg(call, agg) != null;
    }
    if (!any) {
      return agg;
    }
    RexBuilder rex = agg.getCluster().getRexBuilder();
    RelDataType doubleType =
        rex.getTypeFactory()
            .createTypeWithNullability(
                rex.getTypeFactory().createSqlType(SqlTypeName.DOUBLE), true);
    RelDataType bigint = rex.getTypeFactory().createSqlType(SqlTypeName.BIGINT);
    int groups = agg.getGroupCount();
    List<AggregateCall> calls = new ArrayList<>();
    // For each original call: the index of its value among the new calls, and for a population
    // variance or deviation those of its COUNT and MIN (-1 otherwise).
    int n = agg.getAggCallList().size();
    int[][] at = new int[n][];
    List<AggregateCall> extra = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      AggregateCall call = agg.getAggCallList().get(i);
      SqlAggFunction duck = moment(call, agg);
      String separator = listagg(call, agg);
      if (separator != null) {
        if (RowOrder.unordered(agg.getInput())) {
          throw new Refusal(
              DuckDbTranslator.BACKEND,
              "LISTAGG over a VALUES list or a UNION, whose rows DuckDB reads in no set order");
        }
        calls.add(create(new StringAgg(separator), call.getArgList().get(0), call.getType()));
        at[i] = new int[] {calls.size() - 1, -1, -1};
      } else if (duck != null) {
        if (RowOrder.unordered(agg.getInput())) {
          // Each step of the running mean rounds: the last digit depends on the rows' order.
          throw new Refusal(
              DuckDbTranslator.BACKEND,
              Refusal.aggregate(call.getAggregation())
                  + " over a VALUES list or a UNION, whose rows DuckDB reads in no set order");
        }
        int arg = call.getArgList().get(0);
        calls.add(create(duck, arg, doubleType));
        int[] where = {calls.size() - 1, -1, -1};
        if (duck == VAR_POP || duck == STDDEV_POP) {
          extra.add(
              AggregateCall.create(
                  org.apache.calcite.sql.fun.SqlStdOperatorTable.COUNT,
                  false,
                  false,
                  false,
                  List.of(),
                  List.of(arg),
                  -1,
                  null,
                  RelCollations.EMPTY,
                  bigint,
                  null));
          where[1] = n + extra.size() - 1;
          extra.add(create(MIN, arg, doubleType));
          where[2] = n + extra.size() - 1;
        }
        at[i] = where;
      } else {
        calls.add(call);
        at[i] = new int[] {calls.size() - 1, -1, -1};
      }
    }
    calls.addAll(extra);
    LogicalAggregate duckAgg =
        agg.copy(agg.getTraitSet(), agg.getInput(), agg.getGroupSet(), agg.getGroupSets(), calls);
    List<RexNode> projects = new ArrayList<>();
    for (int g = 0; g < groups; g++) {
      projects.add(rex.makeInputRef(duckAgg, g));
    }
    for (int i = 0; i < n; i++) {
      AggregateCall call = agg.getAggCallList().get(i);
      RexNode value = rex.makeInputRef(duckAgg, groups + at[i][0]);
      SqlAggFunction duck = moment(call, agg);
      if (duck == null || listagg(call, agg) != null) {
        projects.add(value);
        continue;
      }
      List<RexNode> operands = new ArrayList<>(List.of(value));
      String v = "{0}";
      if (at[i][1] >= 0) {
        // One value: Flink's x * (x - x), 0 or NaN; DuckDB's 0.
        operands.add(rex.makeInputRef(duckAgg, groups + at[i][1]));
        operands.add(rex.makeInputRef(duckAgg, groups + at[i][2]));
        String one = duck == STDDEV_POP ? "sqrt({2} - {2})" : "({2} - {2})";
        v = "CASE WHEN {1} = 1 THEN " + one + " ELSE {0} END";
      }
      String cast = cast(v, call.getType());
      if (cast == null) {
        throw new Refusal(DuckDbTranslator.BACKEND, Refusal.aggregate(call.getAggregation()));
      }
      projects.add(
          rex.makeCall(
              call.getType(), new DuckDbTemplate(call.getAggregation().getName(), cast), operands));
    }
    return LogicalProject.create(
        duckAgg, List.of(), projects, agg.getRowType().getFieldNames(), java.util.Set.of());
  }

  /** {@code v}, a DOUBLE expression, cast as Java casts a double to {@code type}, or null. */
  private static @Nullable String cast(String v, RelDataType type) {
    String to = DuckDbDialect.typeName(type);
    switch (type.getSqlTypeName()) {
      case DOUBLE:
        return v;
      case DECIMAL:
        // BigDecimal.valueOf(v).setScale(s, HALF_UP): the shortest text, rounded half away from
        // zero by DuckDB's cast of text; NaN and infinities fail in both.
        return "CAST(CAST(" + v + " AS VARCHAR) AS " + to + ")";
      case BIGINT:
        return "CASE WHEN isnan("
            + v
            + ") THEN CAST(0 AS BIGINT) WHEN "
            + v
            + " >= 9223372036854775807 THEN CAST(9223372036854775807 AS BIGINT) ELSE CAST(trunc("
            + v
            + ") AS BIGINT) END";
      case INTEGER:
      case SMALLINT:
      case TINYINT:
        // A variance or a deviation is never negative.
        String i =
            "CASE WHEN isnan("
                + v
                + ") THEN 0 WHEN "
                + v
                + " >= 2147483647 THEN 2147483647 ELSE CAST(trunc("
                + v
                + ") AS INTEGER) END";
        if (type.getSqlTypeName() == SqlTypeName.INTEGER) {
          return "CAST(" + i + " AS INTEGER)";
        }
        int bits = type.getSqlTypeName() == SqlTypeName.SMALLINT ? 16 : 8;
        long range = 1L << bits;
        long half = range / 2;
        return "CAST((CAST("
            + i
            + " AS BIGINT) + "
            + half
            + ") % "
            + range
            + " - "
            + half
            + " AS "
            + to
            + ")";
      default:
        return null;
    }
  }

  private static AggregateCall create(SqlAggFunction f, int arg, RelDataType type) {
    return AggregateCall.create(
        f, false, false, false, List.of(), List.of(arg), -1, null, RelCollations.EMPTY, type, null);
  }

  /** DuckDB's aggregate for Flink's variance or deviation {@code call}, or null. */
  private static @Nullable SqlAggFunction moment(AggregateCall call, LogicalAggregate agg) {
    SqlAggFunction duck =
        switch (call.getAggregation().getKind()) {
          case VAR_POP -> VAR_POP;
          case VAR_SAMP -> VAR_SAMP;
          case STDDEV_POP -> STDDEV_POP;
          case STDDEV_SAMP -> STDDEV_SAMP;
          default -> null;
        };
    if (duck == null
        || call.getArgList().size() != 1
        || call.isDistinct()
        || call.hasFilter()
        || !call.collation.getFieldCollations().isEmpty()) {
      return null;
    }
    RelDataType arg =
        agg.getInput().getRowType().getFieldList().get(call.getArgList().get(0)).getType();
    boolean read =
        arg.getSqlTypeName() == SqlTypeName.DOUBLE
            || SqlTypeFamily.INTEGER.contains(arg)
            || arg.getSqlTypeName() == SqlTypeName.DECIMAL
                && arg.getPrecision() <= 15
                && arg.getScale() >= 0;
    return read ? duck : null;
  }

  /** The separator of a LISTAGG {@code call} DuckDB can run, or null. */
  private static @Nullable String listagg(AggregateCall call, LogicalAggregate agg) {
    if (call.getAggregation().getKind() != SqlKind.LISTAGG
        || call.isDistinct()
        || call.hasFilter()
        || !call.collation.getFieldCollations().isEmpty()
        || call.getArgList().isEmpty()
        || call.getArgList().size() > 2
        || !SqlTypeFamily.CHARACTER.contains(
            agg.getInput().getRowType().getFieldList().get(call.getArgList().get(0)).getType())) {
      return null;
    }
    if (call.getArgList().size() == 1) {
      return ",";
    }
    if (!(agg.getInput() instanceof LogicalProject project)
        || !(project.getProjects().get(call.getArgList().get(1)) instanceof RexLiteral literal)
        || literal.isNull()) {
      return null;
    }
    return literal.getValueAs(String.class);
  }
}

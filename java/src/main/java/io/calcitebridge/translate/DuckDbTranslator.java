package io.calcitebridge.translate;

import io.calcitebridge.enumerable.LiteralRows;
import io.calcitebridge.pushdown.BridgeTableScan;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.hep.HepPlanner;
import org.apache.calcite.plan.hep.HepProgramBuilder;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.rel2sql.RelToSqlConverter;
import org.apache.calcite.rel.rel2sql.SqlImplementor;
import org.apache.calcite.rel.rules.AggregateReduceFunctionsRule;
import org.apache.calcite.rel.rules.SortRemoveConstantKeysRule;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Turns a plan after the heuristic passes into DuckDB SQL with the reference's semantics, or
 * refuses it ({@link Refusal}, naming the construct).
 *
 * <p>Steps: AVG is reduced to SUM and COUNT as Calcite's engine computes it; integer division and
 * other operators whose DuckDB spelling differs are rewritten ({@link DuckDbRewrites}); every
 * operator and function is checked against {@link Whitelist}; then Calcite's {@link
 * RelToSqlConverter} writes the SQL, each scan becoming a relation {@code scan_i}, and a sort key a
 * select item of its name would capture is qualified ({@link OrderByColumns}).
 */
public final class DuckDbTranslator {
  static final String BACKEND = "duckdb";

  private DuckDbTranslator() {}

  /** The translation of {@code plan}; throws {@link Refusal} when it cannot be exact. */
  public static Translation translate(RelNode plan) {
    long t = io.calcitebridge.plan.PhaseTimes.start();
    RelNode reduced = liftUnnestFilters(removeConstantSortKeys(reduceAverages(plan)));
    io.calcitebridge.plan.PhaseTimes.end("on the worker/translate/averages, sort keys, unnest", t);
    t = io.calcitebridge.plan.PhaseTimes.start();
    RelNode rewritten = DuckDbRewrites.rewrite(DuckDbAggregates.rewrite(reduced));
    io.calcitebridge.plan.PhaseTimes.end("on the worker/translate/aggregates, rewrites", t);
    t = io.calcitebridge.plan.PhaseTimes.start();
    rewritten = castParameters(rewritten);
    io.calcitebridge.plan.PhaseTimes.end("on the worker/translate/cast parameters", t);
    t = io.calcitebridge.plan.PhaseTimes.start();
    Whitelist.check(rewritten);
    io.calcitebridge.plan.PhaseTimes.end("on the worker/translate/whitelist", t);
    t = io.calcitebridge.plan.PhaseTimes.start();
    Converter converter = new Converter();
    io.calcitebridge.plan.PhaseTimes.end("on the worker/translate/new converter", t);
    t = io.calcitebridge.plan.PhaseTimes.start();
    SqlImplementor.Result result;
    try {
      result = converter.visitRoot(rewritten);
    } catch (NullPointerException e) {
      // Calcite's SqlImplementor (1.42) fails so when a correlation variable is read outside the
      // correlate that sets it (a sub-query left in the ON of an outer join, beside a correlated
      // sub-query of the WHERE): the SQL cannot be written.
      if (e.getMessage() != null && e.getMessage().startsWith("variable $cor")) {
        throw new Refusal(BACKEND, "a correlated sub-query read outside its correlation");
      }
      throw e;
    } catch (ClassCastException e) {
      // Calcite's SqlImplementor (1.42) casts the operand of a field access to an identifier:
      // `x.a` of a ROW literal, such as CAST(NULL AS ROW<a INT>), has no SQL it can write.
      throw new Refusal(BACKEND, "a field of an expression that is not a column");
    }
    io.calcitebridge.plan.PhaseTimes.end("on the worker/translate/rel to sql", t);
    t = io.calcitebridge.plan.PhaseTimes.start();
    SqlNode node = OrderByColumns.qualify(result.asStatement());
    org.apache.calcite.sql.util.SqlString written =
        node.toSqlString(
            c ->
                c.withDialect(DuckDbDialect.INSTANCE)
                    .withQuoteAllIdentifiers(true)
                    .withAlwaysUseParentheses(false)
                    .withSelectListItemsOnSeparateLines(false)
                    .withClauseStartsLine(false)
                    .withIndentation(0));
    io.calcitebridge.plan.PhaseTimes.end("on the worker/translate/sql text", t);
    List<Integer> parameters = written.getDynamicParameters();
    return new Translation(
        BACKEND,
        written.getSql(),
        List.copyOf(converter.scans),
        parameters == null ? List.of() : List.copyOf(parameters));
  }

  /**
   * {@code plan} with each dynamic parameter of a plan kept for any values in an explicit cast to
   * its type, so that DuckDB's prepared statement types its {@code ?} as the plan does rather than
   * from where it stands.
   */
  static RelNode castParameters(RelNode plan) {
    org.apache.calcite.rex.RexBuilder rexBuilder = plan.getCluster().getRexBuilder();
    org.apache.calcite.rex.RexShuttle cast =
        new org.apache.calcite.rex.RexShuttle() {
          @Override
          public org.apache.calcite.rex.RexNode visitCall(org.apache.calcite.rex.RexCall call) {
            // CAST(? AS CHAR(n)) of a string of m characters (a plan is kept for strings of one
            // length): DuckDB and Spark have no CHAR(n), so the string is a VARCHAR, padded with
            // the n - m spaces the cast adds. A longer string, which the cast cuts, keeps the
            // cast (refused, as a cast of a column to CHAR(n) is).
            if (call.getKind() == SqlKind.CAST
                && call.getOperands().get(0) instanceof org.apache.calcite.rex.RexDynamicParam p
                && call.getType().getSqlTypeName() == SqlTypeName.CHAR
                && p.getType().getSqlTypeName() == SqlTypeName.CHAR
                && p.getType().getPrecision() <= call.getType().getPrecision()) {
              org.apache.calcite.rel.type.RelDataTypeFactory types =
                  plan.getCluster().getTypeFactory();
              org.apache.calcite.rel.type.RelDataType varchar =
                  types.createTypeWithNullability(
                      types.createTypeWithCharsetAndCollation(
                          types.createSqlType(SqlTypeName.VARCHAR),
                          java.util.Objects.requireNonNull(call.getType().getCharset()),
                          java.util.Objects.requireNonNull(call.getType().getCollation())),
                      call.getType().isNullable());
              org.apache.calcite.rex.RexNode value = rexBuilder.makeAbstractCast(varchar, p, false);
              int pad = call.getType().getPrecision() - p.getType().getPrecision();
              if (pad == 0) {
                return value;
              }
              return rexBuilder.makeCall(
                  varchar,
                  SqlStdOperatorTable.CONCAT,
                  List.of(value, rexBuilder.makeLiteral(" ".repeat(pad))));
            }
            return super.visitCall(call);
          }

          @Override
          public org.apache.calcite.rex.RexNode visitDynamicParam(
              org.apache.calcite.rex.RexDynamicParam param) {
            // A string needs none (DuckDB has no CHAR(n) to cast to; its value is a string).
            if (param.getType().getSqlTypeName() == org.apache.calcite.sql.type.SqlTypeName.CHAR) {
              return param;
            }
            return rexBuilder.makeAbstractCast(param.getType(), param, false);
          }
        };
    return plan.accept(
        new org.apache.calcite.rel.RelHomogeneousShuttle() {
          @Override
          public RelNode visit(RelNode other) {
            return super.visit(other).accept(cast);
          }
        });
  }

  /**
   * {@code CROSS JOIN UNNEST(t.arr) ... WHERE u.o <= 2}: planning pushes a filter of the UNNEST's
   * columns into the correlate's right side, where the translation (DuckDB's UNNEST in the FROM
   * clause) cannot write it; over an inner correlate the same filter above it keeps the same rows.
   */
  static RelNode liftUnnestFilters(RelNode plan) {
    return plan.accept(
        new org.apache.calcite.rel.RelHomogeneousShuttle() {
          @Override
          public RelNode visit(RelNode other) {
            RelNode visited = super.visit(other);
            if (!(visited instanceof org.apache.calcite.rel.logical.LogicalCorrelate correlate)
                || correlate.getJoinType() != org.apache.calcite.rel.core.JoinRelType.INNER
                || !(correlate.getRight()
                    instanceof org.apache.calcite.rel.logical.LogicalFilter filter)
                || org.apache.calcite.rex.RexUtil.containsCorrelation(filter.getCondition())) {
              return visited;
            }
            org.apache.calcite.rel.core.Correlate lifted =
                correlate.copy(
                    correlate.getTraitSet(), List.of(correlate.getLeft(), filter.getInput()));
            if (Whitelist.unnest(lifted) == null) {
              return visited;
            }
            int shift = correlate.getLeft().getRowType().getFieldCount();
            return org.apache.calcite.rel.logical.LogicalFilter.create(
                lifted, org.apache.calcite.rex.RexUtil.shift(filter.getCondition(), shift));
          }
        });
  }

  /** Calcite's rule that rewrites AVG as SUM / COUNT, for AVG alone. */
  private static final RelOptRule REDUCE_AVG =
      AggregateReduceFunctionsRule.Config.DEFAULT
          .withFunctionsToReduce(EnumSet.of(SqlKind.AVG))
          .toRule();

  static RelNode reduceAverages(RelNode plan) {
    if (!averages(plan)) {
      return plan; // the rule would match nothing: skip building a planner for the plan
    }
    HepProgramBuilder program = new HepProgramBuilder();
    program.addRuleInstance(REDUCE_AVG);
    HepPlanner planner =
        new HepPlanner(program.build(), io.calcitebridge.plan.QueryPlanner.cancelContext());
    planner.setRoot(plan);
    return planner.findBestExp();
  }

  /** Whether {@code rel} or one of its inputs is a sort. */
  private static boolean sorts(RelNode rel) {
    return rel instanceof Sort || rel.getInputs().stream().anyMatch(DuckDbTranslator::sorts);
  }

  /** Whether an aggregate of {@code rel} or of its inputs computes an AVG. */
  private static boolean averages(RelNode rel) {
    if (rel instanceof Aggregate aggregate
        && aggregate.getAggCallList().stream()
            .anyMatch(call -> call.getAggregation().getKind() == SqlKind.AVG)) {
      return true;
    }
    return rel.getInputs().stream().anyMatch(DuckDbTranslator::averages);
  }

  /**
   * Drops sort keys that are constants: they do not change the order, and DuckDB rejects the
   * literal Calcite's converter writes for them ({@code ORDER BY '1'}: "non-integer literal has no
   * effect"), where an integer literal would name a column instead.
   */
  /**
   * {@code CoreRules.SORT_REMOVE_CONSTANT_KEYS}, made as {@code CoreRules} makes it without
   * initialising {@code CoreRules}, which a first query would otherwise wait for (as {@link
   * #REDUCE_AVG}; see {@code plan.LogicalRules}).
   */
  private static final RelOptRule REMOVE_CONSTANT_SORT_KEYS =
      SortRemoveConstantKeysRule.Config.DEFAULT.toRule();

  static RelNode removeConstantSortKeys(RelNode plan) {
    if (!sorts(plan)) {
      return plan;
    }
    HepPlanner planner =
        new HepPlanner(
            new HepProgramBuilder().addRuleInstance(REMOVE_CONSTANT_SORT_KEYS).build(),
            io.calcitebridge.plan.QueryPlanner.cancelContext());
    planner.setRoot(plan);
    return planner.findBestExp();
  }

  /**
   * A grouping item DuckDB reads as what it says: an integer literal there ({@code GROUP BY 89}, or
   * {@code -89}) is a column ordinal in DuckDB, so it is written as a cast, which groups by the
   * constant (one group, or none over no rows) as the reference does.
   */
  static SqlNode groupingItem(SqlNode item) {
    SqlNode literal = item;
    if (item instanceof SqlBasicCall call && call.getKind() == SqlKind.MINUS_PREFIX) {
      literal = call.operand(0);
    }
    if (!(literal instanceof SqlNumericLiteral number) || !number.isInteger()) {
      return item;
    }
    SqlTypeName type =
        number.getValueAs(java.math.BigDecimal.class).abs().compareTo(INT_LIMIT) < 0
            ? SqlTypeName.INTEGER
            : SqlTypeName.BIGINT;
    return SqlStdOperatorTable.CAST.createCall(
        SqlParserPos.ZERO,
        item,
        new SqlDataTypeSpec(new SqlBasicTypeNameSpec(type, SqlParserPos.ZERO), SqlParserPos.ZERO));
  }

  private static final java.math.BigDecimal INT_LIMIT =
      java.math.BigDecimal.valueOf(Integer.MAX_VALUE);

  /** Calcite's converter, with our scans as named relations. */
  public static final class Converter extends TypedRelToSql {
    final List<RelNode> scans = new ArrayList<>();

    private Converter() {
      super(DuckDbDialect.INSTANCE);
    }

    @Override
    protected Builder buildAggregate(
        Aggregate e, Builder builder, List<SqlNode> selectList, List<SqlNode> groupByList) {
      List<SqlNode> items = new ArrayList<>(groupByList.size());
      groupByList.forEach(item -> items.add(groupingItem(item)));
      return super.buildAggregate(e, builder, selectList, items);
    }

    /**
     * A filter over an aggregate that groups by expressions is written as a WHERE over the
     * aggregate in a sub-query, not as a HAVING. Calcite's converter (1.42) writes the HAVING with
     * each grouped column replaced by its expression and without parentheses, so {@code $f6 AND NOT
     * $f4}, {@code $f6} grouping {@code NULL AND c IS NULL}, became {@code NULL AND c IS NULL AND
     * ...}, which DuckDB reads as one conjunction that matches no grouping expression ("column must
     * appear in the GROUP BY clause").
     */
    @Override
    public Result visit(Filter e) {
      if (!(e.getInput() instanceof Aggregate aggregate)
          || !e.getVariablesSet().isEmpty()
          || !groupsByExpressions(aggregate)) {
        return super.visit(e);
      }
      Result x = visitInput(e, 0, Clause.WHERE);
      Builder builder = x.builder(e);
      builder.setWhere(builder.context.toSql(null, e.getCondition()));
      return builder.result();
    }

    private static boolean groupsByExpressions(Aggregate aggregate) {
      if (!(aggregate.getInput() instanceof Project project)) {
        return false;
      }
      for (int key : aggregate.getGroupSet()) {
        if (!(project.getProjects().get(key) instanceof RexInputRef)) {
          return true;
        }
      }
      return false;
    }

    /**
     * {@code CROSS JOIN UNNEST(t.arr) [WITH ORDINALITY] AS u(e[, o])} ({@link Whitelist#unnest}):
     * the left input, then DuckDB's {@code UNNEST} of its array column in the same FROM clause
     * ({@code LEFT JOIN ... ON TRUE} for {@code LEFT JOIN UNNEST}). Calcite's converter writes
     * {@code LATERAL (UNNEST((SELECT ...)))}, which DuckDB does not read.
     */
    @Override
    public Result visit(org.apache.calcite.rel.core.Correlate e) {
      org.apache.calcite.rel.core.Uncollect uncollect = Whitelist.unnest(e);
      if (uncollect == null) {
        return super.visit(e);
      }
      Result left = visitInput(e, 0);
      LogicalProject project = (LogicalProject) uncollect.getInput();
      int index =
          ((org.apache.calcite.rex.RexFieldAccess) project.getProjects().get(0))
              .getField()
              .getIndex();
      SqlNode array = left.qualifiedContext().field(index);
      SqlNode call =
          (uncollect.withOrdinality
                  ? SqlStdOperatorTable.UNNEST_WITH_ORDINALITY
                  : SqlStdOperatorTable.UNNEST)
              .createCall(SqlParserPos.ZERO, array);
      String alias = "unnest_" + e.getId();
      org.apache.calcite.rel.type.RelDataType element =
          project.getProjects().get(0).getType().getComponentType();
      if (element != null && element.isStruct()) {
        call = fields(call, element, uncollect.withOrdinality, e.getRight().getRowType(), alias);
      }
      SqlNode as =
          SqlStdOperatorTable.AS.createCall(
              SqlParserPos.ZERO, createAsFullOperands(e.getRight().getRowType(), call, alias));
      Result right = result(as, List.of(Clause.FROM), e.getRight(), null);
      // LEFT JOIN UNNEST(...) ON TRUE keeps a row of NULLs for a NULL or empty array, in both.
      boolean outer = e.getJoinType() == org.apache.calcite.rel.core.JoinRelType.LEFT;
      SqlNode join =
          new org.apache.calcite.sql.SqlJoin(
              SqlParserPos.ZERO,
              left.asFrom(),
              org.apache.calcite.sql.SqlLiteral.createBoolean(false, SqlParserPos.ZERO),
              (outer ? org.apache.calcite.sql.JoinType.LEFT : org.apache.calcite.sql.JoinType.COMMA)
                  .symbol(SqlParserPos.ZERO),
              as,
              (outer
                      ? org.apache.calcite.sql.JoinConditionType.ON
                      : org.apache.calcite.sql.JoinConditionType.NONE)
                  .symbol(SqlParserPos.ZERO),
              outer
                  ? org.apache.calcite.sql.SqlLiteral.createBoolean(true, SqlParserPos.ZERO)
                  : null);
      return result(join, left, right);
    }

    /**
     * {@code SELECT ... FROM UNNEST(ARRAY[...]) [WITH ORDINALITY] AS u(...)} of an array computed
     * from constants ({@link Whitelist#constantArray}): DuckDB's {@code UNNEST} of the array in the
     * FROM clause, the fields of ROW elements read as the correlated UNNEST reads them.
     */
    @Override
    public Result visit(org.apache.calcite.rel.core.Uncollect e) {
      org.apache.calcite.rex.RexNode array = Whitelist.constantArray(e);
      if (array == null) {
        return super.visit(e);
      }
      SqlNode call =
          (e.withOrdinality
                  ? SqlStdOperatorTable.UNNEST_WITH_ORDINALITY
                  : SqlStdOperatorTable.UNNEST)
              .createCall(
                  SqlParserPos.ZERO, aliasContext(java.util.Map.of(), false).toSql(null, array));
      String alias = "unnest_" + e.getId();
      org.apache.calcite.rel.type.RelDataType element = array.getType().getComponentType();
      if (element != null && element.isStruct()) {
        call = fields(call, element, e.withOrdinality, e.getRowType(), alias);
      }
      SqlNode as =
          SqlStdOperatorTable.AS.createCall(
              SqlParserPos.ZERO, createAsFullOperands(e.getRowType(), call, alias));
      return result(as, List.of(Clause.FROM), e, null);
    }

    /**
     * The UNNEST of an array of ROWs as Flink reads it, one column per field: DuckDB's UNNEST in
     * FROM gives one STRUCT column, so the fields are read from it in a sub-query of the same FROM
     * clause ({@code (SELECT e.a, e.b[, o] FROM UNNEST(t.arr) AS s(e[, o]))}, which DuckDB reads as
     * a lateral join). A NULL element gives a row of NULLs, as in Flink.
     */
    private static SqlNode fields(
        SqlNode unnest,
        org.apache.calcite.rel.type.RelDataType element,
        boolean ordinality,
        org.apache.calcite.rel.type.RelDataType right,
        String alias) {
      String inner = alias + "_s";
      List<SqlNode> as = new ArrayList<>();
      as.add(unnest);
      as.add(new SqlIdentifier(inner, SqlParserPos.ZERO));
      as.add(new SqlIdentifier("e", SqlParserPos.ZERO));
      if (ordinality) {
        as.add(new SqlIdentifier("o", SqlParserPos.ZERO));
      }
      SqlNode from = SqlStdOperatorTable.AS.createCall(SqlParserPos.ZERO, as);
      org.apache.calcite.sql.SqlNodeList select =
          new org.apache.calcite.sql.SqlNodeList(SqlParserPos.ZERO);
      List<String> names = right.getFieldNames();
      List<org.apache.calcite.rel.type.RelDataTypeField> fields = element.getFieldList();
      for (int i = 0; i < fields.size(); i++) {
        select.add(
            SqlStdOperatorTable.AS.createCall(
                SqlParserPos.ZERO,
                new SqlIdentifier(List.of(inner, "e", fields.get(i).getName()), SqlParserPos.ZERO),
                new SqlIdentifier(names.get(i), SqlParserPos.ZERO)));
      }
      if (ordinality) {
        select.add(
            SqlStdOperatorTable.AS.createCall(
                SqlParserPos.ZERO,
                new SqlIdentifier(List.of(inner, "o"), SqlParserPos.ZERO),
                new SqlIdentifier(names.get(fields.size()), SqlParserPos.ZERO)));
      }
      return new org.apache.calcite.sql.SqlSelect(
          SqlParserPos.ZERO,
          null,
          select,
          from,
          null,
          null,
          null,
          null,
          null,
          null,
          null,
          null,
          null);
    }

    /** Visits one of our scans; called by the converter's dispatch, by reflection. */
    public Result visit(BridgeTableScan scan) {
      return scan(scan);
    }

    /** A large {@code VALUES} (a long {@code IN} list) is read as data, not written as SQL. */
    @Override
    public Result visit(Values e) {
      return LiteralRows.of(e) != null ? scan(e) : super.visit(e);
    }

    private Result scan(RelNode scan) {
      String name = Translation.scanName(scans.size());
      scans.add(scan);
      return result(new SqlIdentifier(name, SqlParserPos.ZERO), List.of(Clause.FROM), scan, null);
    }
  }
}

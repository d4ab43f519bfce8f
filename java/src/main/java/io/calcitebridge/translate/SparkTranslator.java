package io.calcitebridge.translate;

import io.calcitebridge.enumerable.LiteralRows;
import io.calcitebridge.pushdown.BridgeTableScan;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.rel.rel2sql.RelToSqlConverter;
import org.apache.calcite.rel.rel2sql.SqlImplementor;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * Turns a plan after the heuristic passes into Spark SQL with the reference's semantics, or refuses
 * it ({@link Refusal}, naming the construct).
 *
 * <p>The steps are those of {@link DuckDbTranslator}: AVG is reduced to SUM and COUNT (that of an
 * integer column summed as a DECIMAL, {@link SparkAverages}), operators whose Spark spelling
 * differs are rewritten ({@link SparkRewrites}), every construct is checked against {@link
 * SparkWhitelist}, and Calcite's {@link RelToSqlConverter} writes the SQL in {@link SparkDialect},
 * every identifier in backticks, each scan becoming a relation {@code scan_i}, a sort key a select
 * item of its name would capture and the column of a ROW's field qualified ({@link OrderByColumns},
 * {@link SparkFieldColumns}). The session that runs it has {@code spark.sql.caseSensitive}, ANSI
 * mode and the session time zone of {@code table.local-time-zone} set.
 */
public final class SparkTranslator {
  static final String BACKEND = "spark";

  private SparkTranslator() {}

  /** The translation of {@code plan}; throws {@link Refusal} when it cannot be exact. */
  public static Translation translate(RelNode plan) {
    RelNode reduced =
        DuckDbTranslator.removeConstantSortKeys(
            DuckDbTranslator.reduceAverages(SparkAverages.widen(plan)));
    // A plan kept for any values of its parameters: each ? in a cast to its type, bound by
    // Spark's parameter markers (spark.sql(text, args)).
    RelNode rewritten = DuckDbTranslator.castParameters(SparkRewrites.rewrite(reduced));
    SparkWhitelist.check(rewritten);
    Converter converter = new Converter();
    SqlImplementor.Result result;
    try {
      result = converter.visitRoot(rewritten);
    } catch (NullPointerException e) {
      // As in DuckDbTranslator: Calcite's SqlImplementor (1.42) cannot write a correlation
      // variable read outside the correlate that sets it.
      if (e.getMessage() != null && e.getMessage().startsWith("variable $cor")) {
        throw new Refusal(BACKEND, "a correlated sub-query read outside its correlation");
      }
      throw e;
    } catch (ClassCastException e) {
      throw new Refusal(BACKEND, "a field of an expression that is not a column");
    }
    SqlNode node = SparkFieldColumns.qualify(OrderByColumns.qualify(result.asStatement()));
    org.apache.calcite.sql.util.SqlString written =
        node.toSqlString(
            c ->
                c.withDialect(SparkDialect.INSTANCE)
                    .withQuoteAllIdentifiers(true)
                    .withAlwaysUseParentheses(false)
                    .withSelectListItemsOnSeparateLines(false)
                    .withClauseStartsLine(false)
                    .withIndentation(0));
    List<Integer> parameters = written.getDynamicParameters();
    return new Translation(
        BACKEND,
        written.getSql(),
        List.copyOf(converter.scans),
        parameters == null ? List.of() : List.copyOf(parameters));
  }

  /** Calcite's converter, with our scans as named relations. */
  public static final class Converter extends TypedRelToSql {
    final List<RelNode> scans = new ArrayList<>();

    private Converter() {
      super(SparkDialect.INSTANCE);
    }

    @Override
    protected Builder buildAggregate(
        Aggregate e, Builder builder, List<SqlNode> selectList, List<SqlNode> groupByList) {
      // Spark, as DuckDB, reads an integer literal of GROUP BY as a column ordinal.
      List<SqlNode> items = new ArrayList<>(groupByList.size());
      groupByList.forEach(item -> items.add(DuckDbTranslator.groupingItem(item)));
      return super.buildAggregate(e, builder, selectList, items);
    }

    /**
     * A filter over an aggregate that groups by expressions is a WHERE over the aggregate in a
     * sub-query, not a HAVING, as in {@link DuckDbTranslator.Converter#visit(Filter)}.
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
     * A table function's rows ({@link SparkWhitelist#isTableFunction}): the left input, then {@code
     * LATERAL inline(t.rows) AS alias(c1, c2, ...)} in the same FROM clause, {@code inline_outer}
     * for {@code LEFT JOIN LATERAL ... ON TRUE} (a row of NULLs for a NULL or empty array, as on
     * Calcite's engine). Calcite's converter writes {@code LATERAL (UNNEST(...))}, which Spark does
     * not read.
     */
    @Override
    public Result visit(org.apache.calcite.rel.core.Correlate e) {
      org.apache.calcite.rel.core.Uncollect uncollect = Whitelist.unnest(e, true);
      if (uncollect == null) {
        return super.visit(e);
      }
      Result left = visitInput(e, 0);
      RelNode under = uncollect.getInput();
      while (!(under instanceof org.apache.calcite.rel.logical.LogicalProject)) {
        under = under.getInput(0); // the IS NOT NULL filter planning adds
      }
      org.apache.calcite.rel.logical.LogicalProject project =
          (org.apache.calcite.rel.logical.LogicalProject) under;
      int index =
          ((org.apache.calcite.rex.RexFieldAccess) project.getProjects().get(0))
              .getField()
              .getIndex();
      SqlNode array = left.qualifiedContext().field(index);
      boolean outer = e.getJoinType() == org.apache.calcite.rel.core.JoinRelType.LEFT;
      SqlNode call =
          new LateralGenerator(outer ? "inline_outer" : "inline")
              .createCall(SqlParserPos.ZERO, array);
      // The columns of the rows, named as the correlate's right side names them where it keeps
      // them (it may project some).
      List<String> names = new ArrayList<>(uncollect.getRowType().getFieldNames());
      RelNode right = e.getRight();
      if (right instanceof org.apache.calcite.rel.logical.LogicalProject kept
          && kept.getInput() == uncollect) {
        for (int i = 0; i < kept.getProjects().size(); i++) {
          names.set(
              ((RexInputRef) kept.getProjects().get(i)).getIndex(),
              kept.getRowType().getFieldNames().get(i));
        }
      }
      String alias = "lateral_" + e.getId();
      List<SqlNode> operands = new ArrayList<>();
      operands.add(call);
      operands.add(new SqlIdentifier(alias, SqlParserPos.ZERO));
      java.util.Set<String> used = new java.util.HashSet<>();
      for (int i = 0; i < names.size(); i++) {
        String n = names.get(i);
        if (!used.add(n)) {
          n = n + "_" + i;
          used.add(n);
          names.set(i, n);
        }
        operands.add(new SqlIdentifier(n, SqlParserPos.ZERO));
      }
      SqlNode as =
          org.apache.calcite.sql.fun.SqlStdOperatorTable.AS.createCall(SqlParserPos.ZERO, operands);
      Result rightResult = result(as, List.of(Clause.FROM), right, null);
      SqlNode join =
          new org.apache.calcite.sql.SqlJoin(
              SqlParserPos.ZERO,
              left.asFrom(),
              org.apache.calcite.sql.SqlLiteral.createBoolean(false, SqlParserPos.ZERO),
              org.apache.calcite.sql.JoinType.COMMA.symbol(SqlParserPos.ZERO),
              as,
              org.apache.calcite.sql.JoinConditionType.NONE.symbol(SqlParserPos.ZERO),
              null);
      return result(join, left, rightResult);
    }

    /** Spark's generator {@code inline} (or {@code inline_outer}), written {@code LATERAL f(x)}. */
    private static final class LateralGenerator extends org.apache.calcite.sql.SqlFunction {
      LateralGenerator(String name) {
        super(
            name,
            org.apache.calcite.sql.SqlKind.OTHER_FUNCTION,
            org.apache.calcite.sql.type.ReturnTypes.ARG0,
            null,
            org.apache.calcite.sql.type.OperandTypes.ANY,
            org.apache.calcite.sql.SqlFunctionCategory.USER_DEFINED_FUNCTION);
      }

      @Override
      public void unparse(
          org.apache.calcite.sql.SqlWriter writer,
          org.apache.calcite.sql.SqlCall call,
          int leftPrec,
          int rightPrec) {
        writer.keyword("LATERAL");
        org.apache.calcite.sql.SqlWriter.Frame frame = writer.startFunCall(getName());
        call.operand(0).unparse(writer, 0, 0);
        writer.endFunCall(frame);
      }
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

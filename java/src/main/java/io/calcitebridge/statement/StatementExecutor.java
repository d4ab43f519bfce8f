package io.calcitebridge.statement;

import io.calcitebridge.arrow.ArrowMemory;
import io.calcitebridge.arrow.RowsToArrow;
import io.calcitebridge.catalog.ColumnDef;
import io.calcitebridge.catalog.TableDef;
import io.calcitebridge.connector.SourceStorage;
import io.calcitebridge.enumerable.DeferredConstants;
import io.calcitebridge.enumerable.LiteralRows;
import io.calcitebridge.errors.ErrorKind;
import io.calcitebridge.errors.PositionedException;
import io.calcitebridge.plan.PlannerContext;
import io.calcitebridge.plan.QueryPlanner;
import io.calcitebridge.pushdown.BridgeTable;
import io.calcitebridge.pushdown.BridgeTableScan;
import io.calcitebridge.sql.SqlCatalogStatement;
import io.calcitebridge.sql.SqlCreateTable;
import io.calcitebridge.sql.SqlCreateView;
import io.calcitebridge.sql.SqlDropObject;
import io.calcitebridge.sql.SqlExplainDetails;
import io.calcitebridge.sql.SqlResetConfig;
import io.calcitebridge.sql.SqlSetConfig;
import io.calcitebridge.sql.SqlShowColumns;
import io.calcitebridge.sql.SqlShowCreateTable;
import io.calcitebridge.sql.SqlShowTables;
import io.calcitebridge.translate.DuckDbTranslator;
import io.calcitebridge.translate.Refusal;
import io.calcitebridge.translate.Translation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.calcite.adapter.enumerable.EnumerableInterpretable;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.runtime.Bindable;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDescribeTable;
import org.apache.calcite.sql.SqlExplain;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.type.SqlTypeName;
import org.checkerframework.checker.nullness.qual.Nullable;

/** Runs one parsed statement of any kind and returns its rows. */
public final class StatementExecutor {
  private final SessionState session;
  private final PlannerContext context;
  private final SessionConfig config;
  private final AtomicBoolean cancelFlag;
  private @Nullable String sql;
  private @Nullable String backend;
  private PlanCache.@Nullable Key cacheKey;
  private org.apache.calcite.sql.SqlExplainLevel explainLevel =
      org.apache.calcite.sql.SqlExplainLevel.EXPPLAN_ATTRIBUTES;
  private @Nullable Parameters parameters;

  /**
   * The types of the parameters when the statement, a query, is planned with its placeholders kept
   * as typed dynamic parameters and its values bound as it runs; null when they are bound as
   * literals (no parameters, a statement other than a query, a value of a type a plan cannot keep).
   */
  private @Nullable List<RelDataType> dynamicTypes;

  /**
   * The values an INSERT's placeholders kept where no literal holds them (a DOUBLE -0.0, {@link
   * Parameters#bindKeepingZeros}), by the name the engine's code reads them by ("?0").
   */
  private final Map<String, Object> keptValues = new java.util.HashMap<>();

  /** The query as parsed, before {@link #bind} kept its placeholders for any values, or null. */
  private @Nullable SqlNode unbound;

  private final List<QueryPlanner> planners = new ArrayList<>();

  public StatementExecutor(SessionState session, AtomicBoolean cancel) {
    this.session = session;
    this.context = session.planner();
    this.config = session.config();
    this.cancelFlag = cancel;
  }

  /** Runs {@code node}, parsed from {@code sql}. */
  public RowSet execute(SqlNode node, String sql) {
    this.sql = sql;
    DdlExecutor ddl = new DdlExecutor(session);
    if (node instanceof SqlCreateTable create && create.query() != null) {
      return createTableAs(ddl, create);
    } else if (node instanceof SqlCreateTable create && create.like() != null) {
      ddl.createTableLike(create);
      return RowSet.ok("ddl", context.typeFactory());
    } else if (node instanceof SqlCreateTable) {
      ddl.createTable((SqlCreateTable) node);
      return RowSet.ok("ddl", context.typeFactory());
    } else if (node instanceof io.calcitebridge.sql.SqlStatementSet set) {
      return statementSet(set);
    } else if (node instanceof io.calcitebridge.sql.SqlAlterTable alter) {
      ddl.checkNotMaterialized(alter);
      new AlterTables(ddl, context, this::rowsOf).run(alter);
      return RowSet.ok("ddl", context.typeFactory());
    } else if (node instanceof SqlCreateView) {
      ddl.createView((SqlCreateView) node, sql);
      return RowSet.ok("ddl", context.typeFactory());
    } else if (node instanceof io.calcitebridge.sql.SqlCreateMaterializedTable create) {
      return MaterializedTables.create(this::fillMaterialized, session, create);
    } else if (node instanceof io.calcitebridge.sql.SqlFlinkCommand command) {
      return command(command);
    } else if (node instanceof SqlDropObject) {
      ddl.drop((SqlDropObject) node);
      return RowSet.ok("ddl", context.typeFactory());
    } else if (node instanceof io.calcitebridge.sql.SqlCreateFunction
        || node instanceof io.calcitebridge.sql.SqlDropFunction
        || node instanceof io.calcitebridge.sql.SqlShowFunctions) {
      return new FunctionStatements(session).run(node);
    } else if (node instanceof SqlDescribeTable) {
      SqlIdentifier id = ((SqlDescribeTable) node).getTable();
      io.calcitebridge.catalog.Catalog.Path described = CatalogStatements.path(context, id, false);
      return node instanceof io.calcitebridge.sql.SqlDescribeExtended
          ? Describe.describe(context, described, config.streaming())
          : Describe.showColumns(context, described, config.streaming(), null, false);
    } else if (node instanceof SqlShowTables show) {
      return new CatalogStatements(context).showTables(show);
    } else if (node instanceof SqlCatalogStatement st) {
      return new CatalogStatements(context).run(st);
    } else if (node instanceof SqlShowColumns show) {
      return Describe.showColumns(
          context,
          CatalogStatements.path(context, show.name(), false),
          config.streaming(),
          show.pattern(),
          show.isNotLike());
    } else if (node instanceof SqlShowCreateTable) {
      io.calcitebridge.catalog.Catalog.Path name =
          CatalogStatements.path(context, ((SqlShowCreateTable) node).name(), false);
      return RowSet.of(
          "show",
          RowSet.strings(context.typeFactory(), "result"),
          List.<Object[]>of(
              new Object[] {
                Describe.showCreate(
                    context,
                    name,
                    ((SqlShowCreateTable) node).isView(),
                    ((SqlShowCreateTable) node).name().getParserPosition())
              }));
    } else if (node instanceof SqlSetConfig) {
      return set((SqlSetConfig) node);
    } else if (node instanceof SqlResetConfig) {
      config.reset(((SqlResetConfig) node).key());
      return RowSet.ok("config", context.typeFactory());
    } else if (node instanceof SqlExplain) {
      SqlExplain explain = (SqlExplain) node;
      String plan =
          explain instanceof SqlExplainDetails details
              ? explainDetails(details)
              : explain(explain.getExplicandum(), "text");
      if (Explains.hasFlinkSections(explain)) {
        String[] trees = flinkTrees(explain.getExplicandum());
        boolean costs = explain instanceof SqlExplainDetails d && d.has("ESTIMATED_COST");
        if (trees[1] == null || costs) {
          plan = Explains.flinkSections(trees[0], plan);
        } else {
          boolean changelog = explain instanceof SqlExplainDetails d && d.has("CHANGELOG_MODE");
          plan =
              Explains.flinkSections(
                  trees[0], changelog ? Explains.changelog(trees[1]) : trees[1], trees[2], plan);
        }
      }
      // Flink's EXPLAIN answers one column, "result"; Calcite's EXPLAIN PLAN forms, "plan".
      return RowSet.of(
          "explain",
          RowSet.strings(
              context.typeFactory(), Explains.hasFlinkSections(explain) ? "result" : "plan"),
          List.<Object[]>of(new Object[] {plan}));
    } else if (node.getKind() == SqlKind.INSERT) {
      return insert((SqlInsert) node);
    } else if (node.getKind() == SqlKind.UPDATE || node.getKind() == SqlKind.DELETE) {
      return new RowLevelModify(context, this::rowsOf).run((SqlCall) node);
    } else if (node.isA(SqlKind.QUERY)) {
      return query(node);
    }
    throw new PositionedException(
        ErrorKind.UNSUPPORTED,
        "Statement " + node.getKind() + " is not supported",
        node.getParserPosition());
  }

  /**
   * {@code CREATE [OR REPLACE] TABLE ... AS query} and {@code REPLACE TABLE ... AS query}: the
   * query's rows are computed first (on Calcite's engine), then the table is created with them, so
   * that a query that fails leaves no table and a replaced table as it was.
   */
  private RowSet createTableAs(DdlExecutor ddl, SqlCreateTable create) {
    return createTableAs(ddl, create, false);
  }

  /**
   * Checks {@code node}, parsed from {@code sql}, as a script's dry run does: a statement that
   * reads or writes data (a query, INSERT, statement set, UPDATE, DELETE, TRUNCATE, {@code COMPILE
   * PLAN}) is validated and planned but not run; {@code CREATE TABLE ... AS} and a materialized
   * table are defined from their query's columns and left empty; {@code EXECUTE PLAN} and a
   * materialized table's refresh are skipped; every other statement (DDL, SET, USE, SHOW, DESCRIBE,
   * EXPLAIN) runs as in a script, since the statements after it may need what it defines. With
   * {@code plans}, the check carries the plan of a query or a data change.
   */
  public ScriptCheck check(SqlNode node, String sql, boolean plans) {
    this.sql = sql;
    if (node instanceof SqlCreateTable create && create.query() != null) {
      // Planned from a parse of its own: validation rewrites the nodes it validates.
      String plan =
          plans
              ? explain(
                  java.util.Objects.requireNonNull(((SqlCreateTable) fresh()).query()), "text")
              : null;
      createTableAs(new DdlExecutor(session), create, false, true);
      return ScriptCheck.validated(null, plan);
    } else if (node instanceof io.calcitebridge.sql.SqlCreateMaterializedTable create) {
      MaterializedTables.create(c -> dryFill(c), session, create);
      return ScriptCheck.validated(null, null);
    } else if (node instanceof io.calcitebridge.sql.SqlFlinkCommand command) {
      switch (command.kind()) {
        case COMPILE_PLAN:
        case COMPILE_AND_EXECUTE_PLAN:
          String plan = explain(java.util.Objects.requireNonNull(command.statement()), "text");
          return ScriptCheck.validated(null, plans ? plan : null);
        case EXECUTE_PLAN:
          // The plan file may not exist before the script's own COMPILE PLAN has run.
          return ScriptCheck.skipped();
        case REFRESH_MATERIALIZED_TABLE:
          // The table's query is checked; its rows stay as they are.
          MaterializedTables.run(
              c -> explain(java.util.Objects.requireNonNull(c.query()), "text"), session, command);
          return ScriptCheck.validated(null, null);
        default:
          execute(node, sql);
          return ScriptCheck.ran(null);
      }
    } else if (node instanceof io.calcitebridge.sql.SqlStatementSet
        || node.getKind() == SqlKind.INSERT
        || node.getKind() == SqlKind.UPDATE
        || node.getKind() == SqlKind.DELETE) {
      String plan = explain(node, "text");
      return ScriptCheck.validated(null, plans ? plan : null);
    } else if (node.isA(SqlKind.QUERY)) {
      QueryPlanner planner = planner(reparser());
      RelDataType rowType;
      try {
        rowType = planner.rowType(planner.validate(node));
      } finally {
        planner.release();
      }
      // Planned too, from a parse of its own: a query the planner cannot run is an error of the
      // check.
      String plan = explain(fresh(), "text");
      return ScriptCheck.validated(rowType, plans ? plan : null);
    }
    RowSet rows = execute(node, sql);
    String shown = null;
    if (node instanceof SqlExplain) {
      Object[] row = rows.rows().first();
      shown = row.length == 1 && row[0] instanceof String text ? text : null;
    }
    rows.rows().enumerator().close();
    return ScriptCheck.ran(shown);
  }

  /** The statement parsed again from its text. */
  private SqlNode fresh() {
    return java.util.Objects.requireNonNull(reparser(), "the statement's text").get();
  }

  /** A materialized table defined from its query in a dry run, left empty. */
  private void dryFill(SqlCreateTable create) {
    createTableAs(new DdlExecutor(session), create, true, true);
  }

  /**
   * Creates (or replaces) a materialized table's table, filled by its query; empty when the query
   * reads an unbounded source.
   */
  void fillMaterialized(SqlCreateTable create) {
    createTableAs(new DdlExecutor(session), create, true, false);
  }

  private RowSet createTableAs(DdlExecutor ddl, SqlCreateTable create, boolean materialized) {
    return createTableAs(ddl, create, materialized, false);
  }

  /** As above; {@code dry}: the table is defined from the query's columns and left empty. */
  private RowSet createTableAs(
      DdlExecutor ddl, SqlCreateTable create, boolean materialized, boolean dry) {
    io.calcitebridge.catalog.Catalog.Path path =
        CatalogStatements.path(context, create.name(), false);
    if (!ddl.checkCreateTableAs(create, path)) {
      if (!materialized) {
        // As Flink 2.3: CREATE TABLE IF NOT EXISTS ... AS query of an existing table inserts the
        // query's rows into it (its declared options are not read), checked as an INSERT is.
        SqlInsert insert =
            new SqlInsert(
                create.getParserPosition(),
                SqlNodeList.EMPTY,
                create.name(),
                java.util.Objects.requireNonNull(create.query()),
                null);
        if (dry) {
          explain(insert, "text");
        } else {
          insert(insert);
        }
      }
      return RowSet.ok("ddl", context.typeFactory());
    }
    // The query as written for the first validation (its errors point into the statement), then
    // afresh from its own text for each one after a field discovery (a script's statement comes
    // with the script's text).
    final String text = context.unparse(java.util.Objects.requireNonNull(create.query()));
    final AtomicBoolean first = new AtomicBoolean(true);
    java.util.function.Supplier<SqlNode> build =
        () -> {
          if (first.getAndSet(false)) {
            return java.util.Objects.requireNonNull(create.query());
          }
          try {
            return bind(context.parseStatement(text));
          } catch (org.apache.calcite.sql.parser.SqlParseException e) {
            throw new IllegalStateException(e);
          }
        };
    QueryPlanner planner = planner(build);
    SqlNode validated = planner.validate(build.get());
    checkStopped();
    RelDataType rowType = planner.rowType(validated);
    EnumerableRel physical = planner.physical(planner.heuristic(planner.toLogical(validated)));
    planner.release();
    List<Object[]> rows = new ArrayList<>();
    if (dry || materialized && ConnectorChecks.readsUnbounded(physical)) {
      ddl.createTableAs(create, path, rowType, rows);
      return RowSet.ok("ddl", context.typeFactory());
    }
    try (org.apache.calcite.linq4j.Enumerator<Object[]> e = run(physical).enumerator()) {
      while (e.moveNext()) {
        rows.add(e.current());
      }
    } catch (RuntimeException | LinkageError e) {
      throw io.calcitebridge.errors.Errors.translateRunning(e);
    }
    ddl.createTableAs(create, path, rowType, rows);
    return RowSet.ok("ddl", context.typeFactory());
  }

  private RowSet set(SqlSetConfig set) {
    if (set.key() == null) {
      List<Object[]> rows = new ArrayList<>();
      for (Map.Entry<String, String> e : config.all().entrySet()) {
        rows.add(new Object[] {e.getKey(), e.getValue()});
      }
      return RowSet.of("config", RowSet.strings(context.typeFactory(), "key", "value"), rows);
    }
    if (set.value() == null) {
      // The SQL client's SET key: the key's value, as key=value
      String key = java.util.Objects.requireNonNull(set.key());
      return RowSet.of(
          "config",
          RowSet.strings(context.typeFactory(), "variables"),
          List.<Object[]>of(new Object[] {key + "=" + config.get(key)}));
    }
    config.set(set.key(), set.value());
    return RowSet.ok("config", context.typeFactory());
  }

  /** Runs queries on {@code name} rather than on the environment's {@code execution.backend}. */
  public StatementExecutor withBackend(@Nullable String name) {
    this.backend = name == null ? null : SessionConfig.normalizeBackend(name);
    return this;
  }

  /** The backend a query asks for: this statement's, or the environment's setting. */
  private String backend() {
    return backend != null ? backend : config.get(SessionConfig.EXECUTION_BACKEND);
  }

  /**
   * The translation of {@code heuristic} for the backend asked for, or null when Calcite's engine
   * runs it: under {@code auto}, when no backend of the host covers it; an explicit backend that
   * cannot run it fails, naming the construct.
   */
  private io.calcitebridge.translate.@Nullable Translation translate(RelNode heuristic) {
    String wanted = backend();
    if (wanted.equals("enumerable")) {
      return null;
    }
    boolean auto = wanted.equals("auto");
    if (auto && absorbed(heuristic)) {
      return null; // the source's own batches come back as they are: nothing is left to run
    }
    // auto never chooses spark: a cluster is chosen by name only.
    String name = auto ? "duckdb" : wanted;
    if (!session.hostBackends().contains(name)) {
      if (auto) {
        return null;
      }
      throw new UnsupportedOperationException(
          "The "
              + name
              + " backend runs in the Python process that reads the results; it is not"
              + " available here (the Java API, or a gateway's clients"
              + (name.equals("spark") ? ", or a process without pyspark" : "")
              + ")");
    }
    try {
      return name.equals("spark")
          ? io.calcitebridge.translate.SparkTranslator.translate(heuristic)
          : DuckDbTranslator.translate(heuristic);
    } catch (Refusal refusal) {
      if (auto) {
        return null;
      }
      throw refusal;
    }
  }

  /**
   * Under {@code auto}, the plan of a {@code COUNT(*)} that a source supporting aggregate pushdown
   * answers itself ({@code ArrowAggregate} over a scan of no column; Parquet footers): nothing else
   * would be left for a backend to run, and it measured faster than handing the rows over. Null for
   * any other plan, which is then not planned twice.
   */
  private @Nullable EnumerableRel arrowAggregate(QueryPlanner planner, RelNode heuristic) {
    if (!backend().equals("auto") || !aggregateOverScan(heuristic)) {
      return null;
    }
    EnumerableRel physical;
    try {
      physical = planner.physical(heuristic);
    } catch (UnsupportedOperationException refused) {
      return null; // Calcite's engine refuses it (a window by a ROW, RowKeys); another may run it
    }
    return FastPath.aggregatesOverArrow(physical) ? physical : null;
  }

  /** An aggregate without GROUP BY over one scan, at most with selections around it. */
  private static boolean aggregateOverScan(RelNode plan) {
    RelNode rel = plan;
    if (rel instanceof LogicalProject) {
      rel = rel.getInput(0);
    }
    // Without GROUP BY only: grouped, DuckDB measured faster than our hash aggregate.
    if (!(rel instanceof LogicalAggregate agg) || agg.getGroupCount() != 0) {
      return false;
    }
    rel = rel.getInput(0);
    if (rel instanceof LogicalProject) {
      rel = rel.getInput(0);
    }
    return rel instanceof BridgeTableScan;
  }

  /**
   * Whether a scan absorbed the whole plan, at most with a selection of its columns on top. A
   * filtered scan of a {@code filesystem} Parquet table is not: DuckDB reads the files itself, in
   * parallel and pruning row groups by the filters, faster than the connector hands them over.
   */
  private static boolean absorbed(RelNode plan) {
    BridgeTableScan scan = io.calcitebridge.plan.QueryPlanner.selectedScan(plan);
    return scan != null && !filteredParquet(scan);
  }

  /** Whether {@code scan} reads a {@code filesystem} Parquet table with filters pushed into it. */
  private static boolean filteredParquet(BridgeTableScan scan) {
    return !scan.filters().isEmpty() && parquetFiles(scan);
  }

  /** Whether {@code scan} reads a {@code filesystem} Parquet table. */
  private static boolean parquetFiles(BridgeTableScan scan) {
    java.util.Map<String, String> options = scan.bridgeTable().def().options();
    return "filesystem".equalsIgnoreCase(options.get("connector"))
        && "parquet".equalsIgnoreCase(options.get("format"));
  }

  /**
   * The scan that may absorb a plan with parameters once its filters are bound: the plan ({@code
   * auto}'s heuristic plan, or the physical plan Calcite's engine runs) is a filter whose every
   * conjunct reads a parameter, right above a scan of a source's Arrow stream (under {@code auto}
   * not {@code filesystem} Parquet files, which DuckDB reads itself), at most with a selection of
   * its columns on top. Null for any other plan.
   */
  private static QueryPlan.@Nullable Absorbing absorbing(RelNode plan, boolean translated) {
    RelNode rel = plan;
    int[] columns = null;
    if (rel instanceof LogicalProject project) {
      columns = inputRefs(project.getProjects());
      rel = project.getInput();
      if (columns == null) {
        return null;
      }
    }
    org.apache.calcite.rex.RexNode condition;
    if (rel instanceof org.apache.calcite.rel.core.Filter filter) {
      condition = filter.getCondition();
    } else if (rel instanceof org.apache.calcite.rel.core.Calc calc
        && calc.getProgram().getCondition() != null
        && columns == null) {
      org.apache.calcite.rex.RexProgram program = calc.getProgram();
      columns = inputRefs(program.getProjectList().stream().map(program::expandLocalRef).toList());
      condition = program.expandLocalRef(java.util.Objects.requireNonNull(program.getCondition()));
      if (columns == null) {
        return null;
      }
    } else {
      return null;
    }
    if (!(rel.getInput(0) instanceof BridgeTableScan scan)
        || !(scan.bridgeTable().storage() instanceof io.calcitebridge.catalog.ArrowStorage)
        || (translated && parquetFiles(scan))
        || !org.apache.calcite.plan.RelOptUtil.conjunctions(condition).stream()
            .allMatch(ParamFilters::hasParameter)) {
      return null;
    }
    return new QueryPlan.Absorbing(scan, columns);
  }

  /** The input each of {@code exprs} reads, or null when one is more than a column. */
  private static int @Nullable [] inputRefs(List<? extends org.apache.calcite.rex.RexNode> exprs) {
    int[] out = new int[exprs.size()];
    for (int i = 0; i < out.length; i++) {
      if (!(exprs.get(i) instanceof RexInputRef ref)) {
        return null;
      }
      out[i] = ref.getIndex();
    }
    return out;
  }

  /**
   * Whether DuckDB reads {@code scan}'s source in place (an in-memory Arrow table, registered once
   * and kept): the plan's own filter, its parameters bound by DuckDB's prepared statement, is then
   * the one applied, and DuckDB pushes it into its read of the table, so no filter is offered to
   * the source at each run.
   */
  private static boolean readInPlace(BridgeTableScan scan) {
    return scan.filters().isEmpty()
        && scan.limit() == null
        && scan.bridgeTable().storage() instanceof SourceStorage storage
        && storage.readsInPlace();
  }

  /**
   * Binds {@code values} to the statement's {@code ?} placeholders (null: it has none); a statement
   * with parameters is neither looked up in nor stored into the plan cache.
   */
  public StatementExecutor withParameters(@Nullable Parameters values) {
    this.parameters = values;
    return this;
  }

  /**
   * {@code node} with the parameters bound to its placeholders (checked even when there are none).
   */
  public SqlNode bind(SqlNode node) {
    Parameters values = parameters;
    if (values == null) {
      return node;
    }
    List<RelDataType> types = dynamicTypes;
    if (types != null && node.isA(SqlKind.QUERY) && !Parameters.countsRows(node)) {
      unbound = node;
      return values.parametrize(node, types);
    }
    if (types != null) {
      // Planned with the values as literals: not a plan for any values, so not cached as one.
      dynamicTypes = null;
      cacheKey = null;
    }
    if (node.getKind() == SqlKind.INSERT) {
      // Its query runs on Calcite's engine, which reads a kept placeholder's value (run).
      keptValues.clear();
      return values.bindKeepingZeros(node, config.timeZone().toZoneId(), keptValues);
    }
    return values.bind(node, config.timeZone().toZoneId());
  }

  /**
   * The values of placeholders a batch INSERT kept ({@link Parameters#batch(SqlNode, List,
   * java.time.ZoneId, Map)}), for its query's run.
   */
  public StatementExecutor withKeptValues(Map<String, Object> kept) {
    keptValues.putAll(kept);
    return this;
  }

  /**
   * The types of the parameters for a plan kept across values, or null when the values of this
   * execution are bound as literals: a value of a type a dynamic parameter cannot keep, on the
   * spark backend also a TIMESTAMP (pyspark binds a datetime in the Python process's zone), or the
   * plan cache turned off.
   */
  private @Nullable List<RelDataType> dynamicTypes(Parameters values) {
    if (values.size() == 0) {
      return null;
    }
    List<RelDataType> types =
        values.dynamicTypes(context.typeFactory(), config.timeZone().toZoneId());
    if (types != null
        && backend().equals("spark")
        && !types.stream().allMatch(t -> SPARK_BINDS.contains(t.getSqlTypeName()))) {
      return null;
    }
    return types;
  }

  /**
   * The types of the parameters for a plan kept across values and the purpose that keys it in the
   * plan cache (one plan per text and types of the values: {@code CAST(? AS INTEGER)} plans as an
   * INT literal), or null as for {@link #dynamicTypes(Parameters)}. Kept per type signature of the
   * values ({@link Parameters#typeSignature}), so that a run with new values of the same types
   * makes no literal of them and names no type.
   */
  private PlanCache.@Nullable Typed typed(Parameters values) {
    String signature = values.typeSignature();
    PlanCache cache = session.planCache();
    String backend = backend();
    PlanCache.Typed kept = signature == null ? null : cache.typed(backend, signature);
    if (kept != null) {
      return kept;
    }
    List<RelDataType> types = dynamicTypes(values);
    if (types == null) {
      return null;
    }
    PlanCache.Typed typed =
        new PlanCache.Typed(
            types, "query " + types.stream().map(RelDataType::getFullTypeString).toList());
    if (signature != null) {
      cache.keepTyped(backend, signature, typed);
    }
    return typed;
  }

  /** The types of the values Spark's parameter markers take as this plan types them. */
  private static final java.util.Set<org.apache.calcite.sql.type.SqlTypeName> SPARK_BINDS =
      java.util.EnumSet.of(
          org.apache.calcite.sql.type.SqlTypeName.BOOLEAN,
          org.apache.calcite.sql.type.SqlTypeName.TINYINT,
          org.apache.calcite.sql.type.SqlTypeName.SMALLINT,
          org.apache.calcite.sql.type.SqlTypeName.INTEGER,
          org.apache.calcite.sql.type.SqlTypeName.BIGINT,
          org.apache.calcite.sql.type.SqlTypeName.DECIMAL,
          org.apache.calcite.sql.type.SqlTypeName.DOUBLE,
          org.apache.calcite.sql.type.SqlTypeName.CHAR,
          org.apache.calcite.sql.type.SqlTypeName.VARCHAR,
          org.apache.calcite.sql.type.SqlTypeName.DATE);

  /** The SQL text the statement came from, so that field discovery can re-read it. */
  public StatementExecutor withSql(String text) {
    this.sql = text;
    return this;
  }

  /** The statement's query parsed afresh, its placeholders unbound, or null without its text. */
  private @Nullable SqlNode reparsed() {
    String text = sql;
    if (text == null) {
      return null;
    }
    try {
      SqlNode n = context.parseStatement(text);
      n = n instanceof SqlExplain e ? e.getExplicandum() : n;
      return n.isA(SqlKind.QUERY) ? n : null;
    } catch (org.apache.calcite.sql.parser.SqlParseException e) {
      return null;
    }
  }

  /** Parses the statement's query afresh (for validation after a discovery), or null. */
  private java.util.function.@Nullable Supplier<SqlNode> reparser() {
    final String text = sql;
    if (text == null) {
      return null;
    }
    return () -> {
      try {
        SqlNode n = bind(context.parseStatement(text));
        return n instanceof SqlExplain ? ((SqlExplain) n).getExplicandum() : n;
      } catch (org.apache.calcite.sql.parser.SqlParseException e) {
        throw new IllegalStateException(e);
      }
    };
  }

  /**
   * The rows of the query {@code text} when the plan cache holds its plan (planned before under the
   * same settings and catalog), or null; then {@link #execute} stores the plan it makes of the
   * query under the same key.
   */
  public @Nullable RowSet cachedQuery(String text) {
    return cachedQuery(text, false);
  }

  /**
   * As {@link #cachedQuery(String)}; with {@code translatedOnly}, also null when the cached plan
   * runs on Calcite's engine and does more than open a source's stream ({@link #opensOnly}). Such a
   * plan may do all its work as it is opened (an aggregate or a sort reads its whole input there),
   * so it must run on a worker thread, where the statement's timeout, Ctrl-C and the memory guard
   * reach it; a plan a backend of the host runs, or a filter over a source's scan, only opens its
   * scans here.
   */
  public @Nullable RowSet cachedQuery(String text, boolean translatedOnly) {
    long t = io.calcitebridge.plan.PhaseTimes.start();
    withMetadataProvider();
    String purpose = "query";
    Parameters values = parameters;
    if (values != null) {
      PlanCache.Typed typed = typed(values);
      if (typed == null) {
        return null;
      }
      purpose = typed.purpose();
      dynamicTypes = typed.types();
    }
    cacheKey = session.planCache().key(purpose, text, backend());
    QueryPlan plan = cacheKey == null ? null : session.planCache().get(cacheKey, QueryPlan.class);
    if (plan == null || (translatedOnly && plan.translation() == null && !opensOnly(plan))) {
      return null;
    }
    session.planCache().hit();
    io.calcitebridge.plan.PhaseTimes.end("cached run/plan cache look-up", t);
    return run(plan);
  }

  /**
   * Whether Calcite's engine, running {@code plan}, only opens a source's Arrow stream as the plan
   * is opened: the plan is a scan of one, at most with a Calc (a filter, a selection of columns,
   * computed only as rows are read) on top. Opening it costs no more than opening the scans of a
   * plan a backend of the host runs.
   */
  private static boolean opensOnly(QueryPlan plan) {
    RelNode rel = plan.physical();
    if (rel instanceof org.apache.calcite.adapter.enumerable.EnumerableCalc calc) {
      rel = calc.getInput();
    }
    return rel instanceof BridgeTableScan scan
        && scan.bridgeTable().storage() instanceof io.calcitebridge.catalog.ArrowStorage;
  }

  /**
   * Sets Calcite's metadata provider for this thread. A cached plan runs, or is shown, on a thread
   * (a gateway's connection thread, say) that may never have planned: Calcite's metadata queries
   * read their provider from a thread-local that only making a cluster sets, and failed there with
   * "metadataHandlerProvider".
   */
  private static void withMetadataProvider() {
    if (org.apache.calcite.rel.metadata.RelMetadataQueryBase.THREAD_PROVIDERS.get() == null) {
      org.apache.calcite.rel.metadata.RelMetadataQueryBase.THREAD_PROVIDERS.set(
          org.apache.calcite.rel.metadata.JaninoRelMetadataProvider.of(
              org.apache.calcite.rel.metadata.DefaultRelMetadataProvider.INSTANCE));
    }
  }

  /** Plans and runs a query. */
  public RowSet query(SqlNode node) {
    SqlNode literalText = unbound;
    Parameters values = parameters;
    if (dynamicTypes != null) {
      try {
        // Its parameters are never NULL: typed NOT NULL, as the literals of their values are.
        return io.calcitebridge.validate.BridgeSqlValidator.withNonNullParameters(
            () -> planAndRun(node));
      } catch (Refusal refusal) {
        if (literalText == null || values == null) {
          throw refusal;
        }
        // The backend cannot run the plan for any values (DuckDB, a cast of a string parameter
        // to a DATE): it runs the text with the values written in, where the cast is folded.
        // The text is parsed again: validating the plan for any values may have rewritten
        // nodes the parsed query shares with it.
        dynamicTypes = null;
        cacheKey = null;
        SqlNode fresh = reparsed();
        return planAndRun(
            values.bind(fresh != null ? fresh : literalText, config.timeZone().toZoneId()));
      }
    }
    return planAndRun(node);
  }

  private RowSet planAndRun(SqlNode node) {
    return run(plan(node));
  }

  /** Plans a query and stores its plan in the plan cache. */
  private QueryPlan plan(SqlNode node) {
    QueryPlanner planner = planner(reparser());
    SqlNode validated = planner.validate(node);
    checkStopped(); // the validator and the converter cannot be stopped inside: check between
    RelDataType rowType = planner.rowType(validated);
    RelNode logical = planner.toLogical(validated);
    checkStopped();
    RelNode heuristic = planner.heuristic(logical);
    boolean lazy = ConnectorChecks.checkReads(heuristic, null, node, config.timeoutMillis());
    EnumerableRel early = arrowAggregate(planner, heuristic);
    Translation translation = early == null && !lazy ? translate(heuristic) : null;
    EnumerableRel physical =
        translation != null ? null : early != null ? early : planner.physical(heuristic);
    QueryPlan plan = new QueryPlan(rowType, translation, physical);
    List<RelDataType> types = dynamicTypes;
    if (types != null) {
      RelNode planned = physical != null ? physical : heuristic;
      // Calcite's engine runs the plan (enumerable, or auto without a translation), or auto
      // translates it: either way a source that takes every bound filter hands back the rows.
      QueryPlan.Absorbing absorbing =
          physical != null
              ? absorbing(physical, false)
              : translation != null && backend().equals("auto") ? absorbing(heuristic, true) : null;
      boolean inPlace =
          translation != null && absorbing == null && translation.backend().equals("duckdb");
      plan.withParameters(
              ParamFilters.parameterTypes(planned, types),
              ParamFilters.of(planned, scan -> inPlace && readInPlace(scan)))
          .withAbsorbing(absorbing)
          .withConversions(planner.validator().parameterConversions());
    }
    planner.release();
    cache(cacheKey, plan);
    return plan;
  }

  /** Fails as the statement was stopped (its timeout, Ctrl-C) once its flag is set. */
  private void checkStopped() {
    if (cancelFlag.get()) {
      throw io.calcitebridge.errors.Stop.stopped(cancelFlag);
    }
  }

  /** Runs a planned query: its scans are opened here, each time. */
  private RowSet run(QueryPlan plan) {
    RelDataType rowType = plan.rowType();
    Translation translation = plan.translation();
    checkConversions(plan);
    long t = io.calcitebridge.plan.PhaseTimes.start();
    ParamFilters.Bound binding = boundFilters(plan);
    io.calcitebridge.plan.PhaseTimes.end("cached run/filters bound and offered", t);
    Map<io.calcitebridge.catalog.CatalogTable, List<io.calcitebridge.expr.Expression>> bound =
        binding.filters();
    QueryPlan.Absorbing absorbing = plan.absorbing();
    t = io.calcitebridge.plan.PhaseTimes.start();
    if (absorbing != null && binding.complete()) {
      // The source took every bound filter: its stream is the result, as for the literal text.
      BridgeTableScan scan = absorbing.scan();
      List<io.calcitebridge.expr.Expression> filters = bound.get(scan.bridgeTable());
      org.apache.arrow.vector.ipc.ArrowReader direct =
          filters == null
              ? null
              : FastPath.direct(scan.withFilters(filters), absorbing.columns(), rowType);
      if (direct != null) {
        io.calcitebridge.plan.PhaseTimes.end("cached run/source's stream opened", t);
        return new RowSet(
            "query", rowType, org.apache.calcite.linq4j.Linq4j.emptyEnumerable(), direct);
      }
    }
    if (translation != null) {
      List<BackendScan> scans = new ArrayList<>();
      try {
        for (RelNode scan : translation.scans()) {
          if (scan instanceof BridgeTableScan s && bound.containsKey(s.bridgeTable())) {
            scan = s.withFilters(bound.get(s.bridgeTable()));
          }
          scans.add(backendScan(scan));
        }
      } catch (RuntimeException e) {
        scans.stream().filter(s -> s.reader() != null).forEach(s -> closeQuietly(s.reader()));
        throw e;
      }
      return new RowSet(
          "query",
          rowType,
          org.apache.calcite.linq4j.Linq4j.emptyEnumerable(),
          null,
          translation,
          scans);
    }
    EnumerableRel physical = java.util.Objects.requireNonNull(plan.physical());
    org.apache.arrow.vector.ipc.ArrowReader direct = FastPath.direct(physical, rowType);
    if (direct != null) {
      io.calcitebridge.plan.PhaseTimes.end("cached run/source's stream opened", t);
      return new RowSet(
          "query", rowType, org.apache.calcite.linq4j.Linq4j.emptyEnumerable(), direct);
    }
    return new RowSet("query", rowType, run(physical, plan, bound));
  }

  /**
   * Fails at the placeholder of a string value that {@code plan} converts to a number, a BOOLEAN or
   * a datetime and that is not one, as the literal of the value fails while it is validated: {@code
   * id >= ?} with {@code 'x'} is the validation error of {@code id >= 'x'}, before anything runs.
   */
  private void checkConversions(QueryPlan plan) {
    Parameters values = parameters;
    if (values == null) {
      return;
    }
    for (var c : plan.conversions()) {
      io.calcitebridge.validate.BridgeTypeCoercion.checkParameter(
          c.index() + 1, values.value(c.index()), c.target(), c.pos());
    }
  }

  /**
   * The filters with this execution's values bound that the sources of {@code plan} accepted, by
   * table (empty for a plan without parameters).
   */
  private ParamFilters.Bound boundFilters(QueryPlan plan) {
    ParamFilters filters = plan.paramFilters();
    Parameters values = parameters;
    if (filters == null || values == null || plan.parameterTypes() == null) {
      return ParamFilters.Bound.NONE;
    }
    return filters.bind(values);
  }

  /** This execution's values as the generated code of {@code plan} reads them: "?0", "?1", ... */
  private Map<String, Object> contextValues(
      @Nullable QueryPlan plan,
      Map<io.calcitebridge.catalog.CatalogTable, List<io.calcitebridge.expr.Expression>> bound) {
    Parameters values = parameters;
    List<RelDataType> types = plan == null ? null : plan.parameterTypes();
    if (values == null || types == null) {
      return keptValues.isEmpty() ? Map.of() : Map.copyOf(keptValues);
    }
    Map<String, Object> out = new java.util.HashMap<>(keptValues);
    for (int i = 0; i < types.size(); i++) {
      Object v = values.local(i, types.get(i));
      if (v != null) {
        out.put("?" + i, v);
      }
    }
    if (!bound.isEmpty()) {
      out.put(ParamFilters.CONTEXT_KEY, bound);
    }
    return out;
  }

  /** A planner for this statement; {@link #discovered} asks each one made. */
  private QueryPlanner planner(java.util.function.@Nullable Supplier<SqlNode> reparse) {
    long t = io.calcitebridge.plan.PhaseTimes.start();
    QueryPlanner planner = new QueryPlanner(context, reparse);
    io.calcitebridge.plan.PhaseTimes.end("on the worker/new planner (reader, validator)", t);
    planners.add(planner);
    return planner;
  }

  /**
   * Stores {@code value} in the plan cache under {@code key} (when not null), unless a storage
   * answered for a column the statement names: its next answer may differ.
   */
  private void cache(PlanCache.@Nullable Key key, Object value) {
    if (key != null && planners.stream().noneMatch(QueryPlanner::discoveredColumns)) {
      session.planCache().put(key, value);
    }
  }

  /** The row type of a query, without running it. */
  public RelDataType validate(SqlNode node) {
    QueryPlanner planner = planner(reparser());
    return planner.rowType(planner.validate(node));
  }

  /** The row type of the query {@code text} (parsed by {@code parse}), from the plan cache. */
  public RelDataType validate(String text, java.util.function.Supplier<SqlNode> parse) {
    PlanCache.Key key = session.planCache().key("validate", text, "");
    RelDataType cached = key == null ? null : session.planCache().get(key, RelDataType.class);
    if (cached != null) {
      return cached;
    }
    this.sql = text;
    RelDataType rowType = validate(parse.get());
    cache(key, rowType);
    return rowType;
  }

  /**
   * The optimized plan of the query or INSERT {@code text} (parsed by {@code parse}), from the plan
   * cache.
   */
  public String explain(String text, java.util.function.Supplier<SqlNode> parse, String format) {
    PlanCache.Key key =
        parameters != null
            ? null
            : session
                .planCache()
                .key("explain " + format.toLowerCase(java.util.Locale.ROOT), text, backend());
    String cached = key == null ? null : session.planCache().get(key, String.class);
    if (cached != null) {
      return cached;
    }
    this.sql = text;
    String kept = parameters == null ? null : explainKept(text, parse.get(), format);
    if (kept != null) {
      return kept;
    }
    String plan = explain(bind(parse.get()), format);
    cache(key, plan);
    return plan;
  }

  /**
   * The plan kept for the query {@code text} and the types of this statement's values, as it runs
   * with them, when a backend runs it: its SQL keeps the placeholders, and its scans show the
   * filters bound for the values. Null when the plan of the text with the values written in is the
   * one that runs: Calcite's engine runs it, the values are bound as literals, or the source
   * absorbs the whole plan.
   */
  private @Nullable String explainKept(String text, SqlNode parsed, String format) {
    Parameters values = java.util.Objects.requireNonNull(parameters);
    SqlNode node = parsed instanceof SqlExplain e ? e.getExplicandum() : parsed;
    List<RelDataType> types = backend().equals("enumerable") ? null : dynamicTypes(values);
    if (types == null || !node.isA(SqlKind.QUERY) || Parameters.countsRows(node)) {
      return null;
    }
    String purpose = "query " + types.stream().map(RelDataType::getFullTypeString).toList();
    PlanCache.Key key = session.planCache().key(purpose, text, backend());
    QueryPlan plan = key == null ? null : session.planCache().get(key, QueryPlan.class);
    withMetadataProvider();
    if (plan == null) {
      dynamicTypes = types;
      cacheKey = key;
      SqlNode bound = values.parametrize(node, types);
      try {
        plan =
            io.calcitebridge.validate.BridgeSqlValidator.withNonNullParameters(() -> plan(bound));
      } catch (Refusal refusal) {
        return null; // the backend runs the text with the values written in ({@link #query})
      } finally {
        // the plan of the text with the values written in, should it be the one shown
        dynamicTypes = null;
        cacheKey = null;
      }
    }
    checkConversions(plan);
    Translation translation = plan.translation();
    if (translation == null || plan.parameterTypes() == null) {
      return null;
    }
    ParamFilters.Bound binding = boundFilters(plan);
    if (plan.absorbing() != null && binding.complete()) {
      return null;
    }
    List<RelNode> scans = new ArrayList<>();
    for (RelNode scan : translation.scans()) {
      List<io.calcitebridge.expr.Expression> filters =
          scan instanceof BridgeTableScan s ? binding.filters().get(s.bridgeTable()) : null;
      scans.add(filters == null ? scan : ((BridgeTableScan) scan).withFilters(filters));
    }
    return Explains.translated(
        new Translation(translation.backend(), translation.sql(), scans, translation.parameters()),
        format);
  }

  private String render(RelNode rel, String format) {
    return QueryPlanner.render(rel, format, explainLevel);
  }

  /**
   * Flink's {@code EXPLAIN detail, ... stmt}: the plan, with Calcite's estimated costs on each node
   * (planned for Calcite's engine, whose cost model they are) for ESTIMATED_COST, each node's
   * changelog mode for CHANGELOG_MODE ({@code [I]}: a batch statement only inserts), and a note for
   * JSON_EXECUTION_PLAN and PLAN_ADVICE, which have nothing to show here.
   */
  private String explainDetails(SqlExplainDetails explain) {
    for (SqlIdentifier d : explain.details()) {
      if (!SqlExplainDetails.KNOWN.contains(d.getSimple().toUpperCase(java.util.Locale.ROOT))) {
        throw new PositionedException(
            ErrorKind.VALIDATION,
            "Unsupported EXPLAIN detail '"
                + d.getSimple()
                + "'; Flink's are "
                + String.join(", ", SqlExplainDetails.KNOWN),
            d.getParserPosition());
      }
    }
    String plan;
    if (explain.has("ESTIMATED_COST")) {
      String before = backend;
      explainLevel = org.apache.calcite.sql.SqlExplainLevel.ALL_ATTRIBUTES;
      backend = "enumerable";
      try {
        plan = explain(explain.getExplicandum(), "text");
      } finally {
        explainLevel = org.apache.calcite.sql.SqlExplainLevel.EXPPLAN_ATTRIBUTES;
        backend = before;
      }
    } else {
      plan = explain(explain.getExplicandum(), "text");
    }
    if (explain.has("CHANGELOG_MODE")) {
      plan = Explains.changelog(plan);
    }
    if (explain.has("JSON_EXECUTION_PLAN")) {
      plan +=
          "\n\n== Physical Execution Plan ==\nJSON_EXECUTION_PLAN: not available; a statement"
              + " runs in this process on one engine, not as a Flink job graph of operators"
              + " and parallel tasks";
    }
    if (explain.has("PLAN_ADVICE")) {
      plan +=
          "\n\n== Plan Advice ==\nPLAN_ADVICE: no available advice; Flink's advice concerns"
              + " streaming state and data skew, which a batch statement here does not have";
    }
    return plan;
  }

  /**
   * The logical plan of a query, INSERT, UPDATE, DELETE or statement set as the validator and
   * SQL-to-rel converter make it, before any optimization: what Flink's EXPLAIN shows as its
   * "Abstract Syntax Tree", in Flink's notation; then the optimized logical plan with Flink's batch
   * operator names (null for UPDATE and DELETE, whose plans are shown as this project's), and the
   * same as Flink's execution plan writes it (its expressions infix).
   */
  private @Nullable String[] flinkTrees(SqlNode node) {
    if (node instanceof io.calcitebridge.sql.SqlStatementSet set) {
      List<String> trees = new ArrayList<>();
      List<String> physical = new ArrayList<>();
      List<String> execution = new ArrayList<>();
      for (SqlNode insert : set.inserts()) {
        @Nullable String[] one = flinkTrees(insert);
        trees.add(one[0]);
        physical.add(one[1]);
        execution.add(one[2]);
      }
      return new @Nullable String[] {
        String.join("\n\n", trees), String.join("\n\n", physical), String.join("\n\n", execution)
      };
    }
    if (node.getKind() == SqlKind.UPDATE || node.getKind() == SqlKind.DELETE) {
      var prepared = new RowLevelModify(context, this::rowsOf).prepare((SqlCall) node);
      QueryPlanner planner = planner(prepared.query());
      RelNode logical = planner.toLogical(planner.validate(prepared.query().get()));
      return new @Nullable String[] {
        org.apache.calcite.plan.RelOptUtil.toString(logical).stripTrailing(), null, null
      };
    }
    QueryPlanner planner = planner(node.getKind() == SqlKind.INSERT ? null : reparser());
    SqlNode validated = planner.validate(prepareInsert(node));
    FlinkPlanText text = new FlinkPlanText(this::flinkName);
    if (validated.getKind() == SqlKind.INSERT) {
      TableModify modify = planner.toLogicalInsert(validated);
      String ast = text.logical(modify);
      RelNode optimized =
          modify.copy(modify.getTraitSet(), List.of(planner.heuristic(modify.getInput())));
      return new @Nullable String[] {ast, text.physical(optimized), text.execution(optimized)};
    }
    RelNode logical = planner.toLogical(validated);
    String ast = text.logical(logical);
    RelNode optimized = planner.heuristic(logical);
    return new @Nullable String[] {ast, text.physical(optimized), text.execution(optimized)};
  }

  /** A table's name as Flink prints it in a plan: catalog, database, table. */
  private List<String> flinkName(org.apache.calcite.plan.RelOptTable table) {
    List<String> name = table.getQualifiedName();
    if (name.size() >= 3) {
      return name.subList(name.size() - 3, name.size());
    }
    io.calcitebridge.catalog.Catalog.Path path =
        CatalogStatements.path(
            context,
            new SqlIdentifier(name, org.apache.calcite.sql.parser.SqlParserPos.ZERO),
            true);
    return List.of(path.catalog(), path.database(), path.name());
  }

  /** The optimized plan of a query, INSERT, UPDATE or DELETE. */
  public String explain(SqlNode node, String format) {
    if (node instanceof SqlExplain) {
      node = ((SqlExplain) node).getExplicandum();
    }
    if (node instanceof io.calcitebridge.sql.SqlStatementSet set) {
      // Flink's EXPLAIN STATEMENT SET: the plan of each INSERT, in order
      List<String> plans = new ArrayList<>();
      for (SqlNode insert : set.inserts()) {
        plans.add(explain(insert, format));
      }
      return String.join("\n\n", plans);
    }
    if (node.getKind() == SqlKind.UPDATE || node.getKind() == SqlKind.DELETE) {
      var prepared = new RowLevelModify(context, this::rowsOf).prepare((SqlCall) node);
      QueryPlanner planner = planner(prepared.query());
      SqlNode validated = planner.validate(prepared.query().get());
      String inner =
          render(planner.physical(planner.heuristic(planner.toLogical(validated))), format);
      return !"text".equalsIgnoreCase(format)
          ? inner
          : prepared.label() + "\n  " + inner.replace("\n", "\n  ");
    }
    QueryPlanner planner = planner(node.getKind() == SqlKind.INSERT ? null : reparser());
    SqlNode validated = planner.validate(prepareInsert(node));
    if (validated.getKind() == SqlKind.INSERT) {
      TableModify modify = planner.toLogicalInsert(validated);
      BridgeTable sink = modify.getTable().unwrap(BridgeTable.class);
      if (sink != null
          && sink.storage() instanceof io.calcitebridge.connector.BuiltinConnectors.Invalid bad) {
        throw new PositionedException(
            ErrorKind.VALIDATION,
            bad.message(),
            ((SqlInsert) node).getTargetTable().getParserPosition());
      }
      EnumerableRel source = planner.optimize(modify.getInput());
      ConnectorChecks.checkDeclared(source, ((SqlInsert) node).getSource());
      String target = String.join(".", modify.getTable().getQualifiedName());
      String inner = render(source, format);
      if (!"text".equalsIgnoreCase(format)) {
        return inner;
      }
      return "Insert(table=[" + target + "])\n  " + inner.replace("\n", "\n  ");
    }
    RelNode heuristic = planner.heuristic(planner.toLogical(validated));
    long t = io.calcitebridge.plan.PhaseTimes.start();
    ConnectorChecks.checkDeclared(heuristic, node);
    EnumerableRel early = arrowAggregate(planner, heuristic);
    io.calcitebridge.plan.PhaseTimes.end("on the worker/declared columns, aggregate check", t);
    t = io.calcitebridge.plan.PhaseTimes.start();
    Translation translation = early == null ? translate(heuristic) : null;
    io.calcitebridge.plan.PhaseTimes.end("on the worker/translate", t);
    if (translation != null) {
      t = io.calcitebridge.plan.PhaseTimes.start();
      try {
        return Explains.translated(translation, format);
      } finally {
        io.calcitebridge.plan.PhaseTimes.end("on the worker/render", t);
      }
    }
    return render(early != null ? early : planner.physical(heuristic), format);
  }

  private SqlNode prepareInsert(SqlNode node) {
    if (node.getKind() == SqlKind.INSERT) {
      Inserts.prepare((SqlInsert) node, context);
    }
    return node;
  }

  /**
   * Flink's {@code EXECUTE STATEMENT SET}: the rows of every INSERT are computed first, then
   * written, so that a failing INSERT leaves every sink as it was. One row: the rows each INSERT
   * wrote, in order.
   */
  private RowSet command(io.calcitebridge.sql.SqlFlinkCommand command) {
    switch (command.kind()) {
      case HELP:
        List<Object[]> lines = new ArrayList<>();
        for (String line : HELP.split("\n", -1)) {
          lines.add(new Object[] {line});
        }
        return RowSet.of("help", RowSet.strings(context.typeFactory(), "help"), lines);
      case COMPILE_PLAN:
      case COMPILE_AND_EXECUTE_PLAN:
      case EXECUTE_PLAN:
        return PlanFiles.run(
            new PlanFiles.Statements() {
              @Override
              public String explain(SqlNode statement, String format) {
                return StatementExecutor.this.explain(statement, format);
              }

              @Override
              public RowSet execute(SqlNode statement, String text) {
                return StatementExecutor.this.execute(statement, text);
              }
            },
            session,
            command);
      default:
        return MaterializedTables.run(this::fillMaterialized, session, command);
    }
  }

  /** The SQL client's HELP, as Flink's client prints it. */
  private static final String HELP =
      "The following commands are available:\n\n"
          + "HELP               \t\tPrints the available commands.\n"
          + "QUIT/EXIT          \t\tQuits the SQL CLI client.\n"
          + "CLEAR              \t\tClears the current terminal.\n"
          + "SET                \t\tSets a session configuration property. Syntax: \"SET"
          + " '<key>'='<value>';\". Use \"SET;\" for listing all properties.\n"
          + "RESET              \t\tResets a session configuration property. Syntax: \"RESET"
          + " '<key>';\". Use \"RESET;\" for reset all session properties.\n"
          + "INSERT INTO        \t\tInserts the results of a SQL SELECT query into a declared"
          + " table sink.\n"
          + "INSERT OVERWRITE   \t\tInserts the results of a SQL SELECT query into a declared"
          + " table sink and overwrite existing data.\n"
          + "SELECT             \t\tExecutes a SQL SELECT query on the Flink cluster.\n"
          + "EXPLAIN            \t\tDescribes the execution plan of a query or table with the"
          + " given name.\n"
          + "BEGIN STATEMENT SET\t\tBegins a statement set. Syntax: \"BEGIN STATEMENT SET;\"\n"
          + "END                \t\tEnds a statement set. Syntax: \"END;\"\n"
          + "ADD JAR            \t\tAdds the specified jar file to the submitted jobs'"
          + " classloader. Syntax: \"ADD JAR '<path_to_filename>.jar'\"\n"
          + "REMOVE JAR         \t\tRemoves the specified jar file from the submitted jobs'"
          + " classloader. Syntax: \"REMOVE JAR '<path_to_filename>.jar'\"\n"
          + "SHOW JARS          \t\tShows the list of user-specified jar dependencies. This list"
          + " is impacted by the --jar and --library startup options as well as the ADD/REMOVE"
          + " JAR commands.\n\n"
          + "Hint: Make sure that a statement ends with \";\" for finalizing (multi-line)"
          + " statements.\n"
          + "You can also type any Flink SQL statement, please visit"
          + " https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/table/sql/overview/"
          + " for more details.";

  private RowSet statementSet(io.calcitebridge.sql.SqlStatementSet set) {
    if (set.inserts().isEmpty()) {
      // The SQL client's BEGIN STATEMENT SET; END; with nothing in between: "No statement in the
      // statement set, skip submit."
      return RowSet.ok("insert", context.typeFactory());
    }
    List<BridgeTable> tables = new ArrayList<>();
    List<List<Object[]>> rows = new ArrayList<>();
    List<SqlInsert> inserts = set.inserts();
    for (SqlInsert insert : inserts) {
      Pending pending = insertRows(insert);
      tables.add(pending.table());
      rows.add(pending.rows());
    }
    var builder = context.typeFactory().builder();
    Object[] counts = new Object[inserts.size()];
    for (int i = 0; i < inserts.size(); i++) {
      // A column per sink, named as Flink names it: catalog.database.table.
      String sink =
          inserts.get(i).getTargetTable() instanceof SqlIdentifier id
              ? CatalogStatements.path(context, id, true).toString()
              : "sink";
      String column = sink;
      for (int k = 1; builder.nameExists(column); k++) {
        column = sink + "_" + k;
      }
      builder.add(column, SqlTypeName.BIGINT);
      try {
        counts[i] = write(inserts.get(i), new Pending(tables.get(i), rows.get(i)));
      } catch (IllegalArgumentException e) {
        throw new PositionedException(
            ErrorKind.VALIDATION, e.getMessage(), inserts.get(i).getParserPosition());
      }
    }
    return RowSet.of("insert", builder.build(), List.<Object[]>of(counts));
  }

  /** An INSERT's sink and the rows it is to write. */
  private record Pending(BridgeTable table, List<Object[]> rows) {}

  private RowSet insert(SqlInsert insert) {
    Pending pending = insertRows(insert);
    long n;
    try {
      n = write(insert, pending);
    } catch (IllegalArgumentException e) {
      throw new PositionedException(
          ErrorKind.VALIDATION, e.getMessage(), insert.getParserPosition());
    }
    RelDataType type =
        context.typeFactory().builder().add("rows_inserted", SqlTypeName.BIGINT).build();
    return RowSet.of("insert", type, List.<Object[]>of(new Object[] {n}));
  }

  /**
   * Writes an INSERT's rows: appends them, or for {@code INSERT OVERWRITE} replaces the table's
   * rows (those of the static partition only, when it names one) with them in one overwrite of the
   * storage, so that the table has either its old rows or its new ones.
   */
  private long write(SqlInsert insert, Pending pending) {
    if (!(insert instanceof io.calcitebridge.sql.SqlFlinkInsert flink) || !flink.isOverwrite()) {
      return pending.table().storage().insert(pending.rows());
    }
    TableDef def = pending.table().def();
    io.calcitebridge.catalog.RowLevelStorage storage = overwritable(flink, pending.table());
    // Every stored row is read (the storage replaces the rows it was handed, in the order they
    // were read), flagged when the overwrite replaces it: all of them, or the static partition's.
    List<SqlIdentifier> keys = flink.partitionKeys();
    io.calcitebridge.catalog.Catalog.Path path =
        CatalogStatements.path(context, (SqlIdentifier) insert.getTargetTable(), false);
    StringBuilder sql = new StringBuilder("SELECT ");
    List<ColumnDef> writable = def.writableColumns();
    for (ColumnDef c : writable) {
      sql.append(io.calcitebridge.types.TypeNames.quote(c.name())).append(", ");
    }
    if (keys.isEmpty()) {
      sql.append("TRUE");
    } else {
      List<SqlNode> values = flink.partitionValues();
      sql.append('(');
      for (int i = 0; i < keys.size(); i++) {
        sql.append(i == 0 ? "" : " AND ")
            .append(io.calcitebridge.types.TypeNames.quote(keys.get(i).getSimple()))
            .append(" = ")
            .append(context.unparse(values.get(i)));
      }
      sql.append(") IS TRUE");
    }
    sql.append(" FROM ")
        .append(io.calcitebridge.types.TypeNames.quote(path.catalog()))
        .append('.')
        .append(io.calcitebridge.types.TypeNames.quote(path.database()))
        .append('.')
        .append(io.calcitebridge.types.TypeNames.quote(path.name()));
    String text = sql.toString();
    List<Object[]> read =
        rowsOf(
            () -> {
              try {
                return context.parseStatement(text);
              } catch (org.apache.calcite.sql.parser.SqlParseException e) {
                throw new IllegalStateException(e);
              }
            });
    List<Object[]> rows = new ArrayList<>(read.size() + pending.rows().size());
    java.util.BitSet replaced = new java.util.BitSet();
    for (int r = 0; r < read.size(); r++) {
      Object[] row = read.get(r);
      if (Boolean.TRUE.equals(row[writable.size()])) {
        replaced.set(r);
      }
      rows.add(java.util.Arrays.copyOf(row, writable.size()));
    }
    rows.addAll(pending.rows());
    storage.overwrite(rows, replaced);
    return pending.rows().size();
  }

  /**
   * The storage that replaces the rows of {@code table} for {@code INSERT OVERWRITE}, or the
   * refusal naming the table: its connector cannot replace rows (blackhole, print), or its source
   * has no {@code overwrite}. Asked before the query runs, so that nothing is read or written.
   */
  private static io.calcitebridge.catalog.RowLevelStorage overwritable(
      io.calcitebridge.sql.SqlFlinkInsert insert, BridgeTable table) {
    TableDef def = table.def();
    if (table.storage() instanceof io.calcitebridge.catalog.RowLevelStorage storage
        && storage.supportsOverwrite()) {
      return storage;
    }
    throw new PositionedException(
        ErrorKind.UNSUPPORTED,
        "INSERT OVERWRITE is not supported for table '"
            + def.name()
            + (table.storage() instanceof io.calcitebridge.catalog.RowLevelStorage
                ? "': its source implements no overwrite()"
                : "': its connector '" + def.connector() + "' cannot replace its rows"),
        insert.getTargetTable().getParserPosition());
  }

  /** Plans and runs an INSERT's query: the rows it writes, not written yet. */
  private Pending insertRows(SqlInsert insert) {
    Inserts.prepare(insert, context);
    QueryPlanner planner = new QueryPlanner(context);
    SqlNode validated = planner.validate(insert);
    TableModify modify = planner.toLogicalInsert(validated);
    BridgeTable table = modify.getTable().unwrap(BridgeTable.class);
    if (table == null) {
      throw new PositionedException(
          ErrorKind.VALIDATION,
          "Cannot INSERT into " + String.join(".", modify.getTable().getQualifiedName()),
          insert.getTargetTable().getParserPosition());
    }
    ConnectorChecks.checkWrite(
        table.storage(),
        String.join(".", modify.getTable().getQualifiedName()),
        table.def().name(),
        insert.getTargetTable());
    if (insert instanceof io.calcitebridge.sql.SqlFlinkInsert flink && flink.isOverwrite()) {
      overwritable(flink, table);
    }
    EnumerableRel source = planner.optimize(modify.getInput());
    ConnectorChecks.checkReads(source, null, insert.getSource(), config.timeoutMillis());
    List<Object[]> rows = new ArrayList<>();
    TableDef def = table.def();
    List<ColumnDef> scanned = def.scannedColumns();
    // Closed however the reading ends, so that the scans' Arrow buffers are released.
    try (org.apache.calcite.linq4j.Enumerator<Object[]> e = run(source).enumerator()) {
      while (e.moveNext()) {
        Object[] row = e.current();
        Object[] out = new Object[def.writableColumns().size()];
        int j = 0;
        for (int i = 0; i < scanned.size(); i++) {
          if (scanned.get(i).isWritable()) {
            out[j++] = row[i];
          }
        }
        rows.add(out);
      }
    } catch (RuntimeException | LinkageError e) {
      // A failure of the rows (ELEMENT of a longer array, a value that does not cast) is one of
      // the running statement, as it is while a query's rows stream.
      throw io.calcitebridge.errors.Errors.translateRunning(e);
    }
    return new Pending(table, rows);
  }

  /**
   * The rows of the query {@code build} makes (afresh for each validation after a field discovery),
   * planned and run on Calcite's engine: the rows an UPDATE or DELETE writes back.
   */
  private List<Object[]> rowsOf(java.util.function.Supplier<SqlNode> build) {
    QueryPlanner planner = planner(build);
    SqlNode validated = planner.validate(build.get());
    EnumerableRel physical = planner.physical(planner.heuristic(planner.toLogical(validated)));
    planner.release();
    List<Object[]> rows = new ArrayList<>();
    // Closed however the reading ends, so that the scans' Arrow buffers are released.
    try (org.apache.calcite.linq4j.Enumerator<Object[]> e = run(physical).enumerator()) {
      while (e.moveNext()) {
        rows.add(e.current());
      }
    }
    return rows;
  }

  /**
   * A scan for the backend: a source that lives in the backend's process (a Python source, in the
   * process where DuckDB runs) is opened there with the same request; any other is opened here.
   */
  private static BackendScan backendScan(RelNode rel) {
    if (rel instanceof Values values) {
      List<@Nullable Object[]> rows = java.util.Objects.requireNonNull(LiteralRows.of(values));
      return new BackendScan(
          values.getRowType(),
          new RowsToArrow(
              ArrowMemory.allocator(),
              values.getRowType(),
              org.apache.calcite.linq4j.Linq4j.asEnumerable(rows).enumerator()),
          null);
    }
    BridgeTableScan scan = (BridgeTableScan) rel;
    if (scan.bridgeTable().storage() instanceof SourceStorage storage
        && java.lang.reflect.Proxy.isProxyClass(storage.source().getClass())) {
      return new BackendScan(
          scan.getRowType(),
          null,
          storage.prepare(scan.filters(), scan.projection(), scan.nested(), scan.limit()));
    }
    return new BackendScan(scan.getRowType(), FastPath.scanReader(scan), null);
  }

  private static void closeQuietly(AutoCloseable c) {
    try {
      c.close();
    } catch (Exception ignored) {
      // the statement's own failure is the one reported
    }
  }

  private Enumerable<Object[]> run(EnumerableRel rel) {
    return run(rel, null, Map.of());
  }

  /**
   * Compiles and runs an optimized plan; rows come back as {@code Object[]} always. The code
   * compiled for {@code plan} is kept with it, for its next run.
   */
  @SuppressWarnings("unchecked")
  private Enumerable<Object[]> run(
      EnumerableRel rel,
      @Nullable QueryPlan plan,
      Map<io.calcitebridge.catalog.CatalogTable, List<io.calcitebridge.expr.Expression>> bound) {
    QueryPlan.Compiled code = plan == null ? null : plan.compiled();
    if (code == null) {
      // Calcite's JSON functions read and write as Flink's before the engine's code can call
      // them: checked as the code is compiled, since code kept with a plan was checked then.
      io.calcitebridge.functions.JsonFunctions.readAndWriteAsFlinkFor(
          () -> org.apache.calcite.plan.RelOptUtil.toString(rel));
      Map<String, Object> parameters = new java.util.HashMap<>();
      Bindable<Object> bindable =
          EnumerableInterpretable.toBindable(
              parameters,
              null,
              (EnumerableRel)
                  io.calcitebridge.enumerable.WindowKeys.apply(
                      io.calcitebridge.flink.FloatEquality.apply(DeferredConstants.apply(rel))),
              EnumerableRel.Prefer.ARRAY);
      code = new QueryPlan.Compiled(bindable, java.util.Collections.unmodifiableMap(parameters));
      if (plan != null) {
        plan.setCompiled(code);
      }
    }
    Map<String, Object> values = contextValues(plan, bound);
    Map<String, Object> stashed = code.parameters();
    if (!values.isEmpty()) {
      stashed = new java.util.HashMap<>(stashed);
      stashed.putAll(values);
    }
    ExecContext dc =
        new ExecContext(
            context.catalog().rootSchema().plus(),
            context.typeFactory(),
            stashed,
            config.timeZone(),
            cancelFlag);
    Enumerable<Object> rows;
    try {
      rows = code.bindable().bind(dc);
    } catch (RuntimeException | LinkageError e) {
      // bind computes windows and other state at once: a failure there is one of the running
      // statement (a value that does not cast), as it would be while the rows stream.
      throw io.calcitebridge.errors.Errors.translateRunning(e);
    }
    if (rel.getRowType().getFieldCount() == 1) {
      return rows.select(v -> new Object[] {v});
    }
    return rows.select(io.calcitebridge.arrow.RowsToArrow::asRow);
  }
}

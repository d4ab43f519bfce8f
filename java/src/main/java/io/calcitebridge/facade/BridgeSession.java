package io.calcitebridge.facade;

import io.calcitebridge.arrow.ArrowMemory;
import io.calcitebridge.arrow.ExportedStream;
import io.calcitebridge.catalog.Catalog;
import io.calcitebridge.connector.ConnectorFactory;
import io.calcitebridge.connector.PythonSource;
import io.calcitebridge.errors.ErrorKind;
import io.calcitebridge.errors.Errors;
import io.calcitebridge.errors.PositionedException;
import io.calcitebridge.errors.Stop;
import io.calcitebridge.plan.PlannerContext;
import io.calcitebridge.statement.ArrowResults;
import io.calcitebridge.statement.Limits;
import io.calcitebridge.statement.Parameters;
import io.calcitebridge.statement.RowSet;
import io.calcitebridge.statement.SessionConfig;
import io.calcitebridge.statement.SessionState;
import io.calcitebridge.statement.StatementExecutor;
import io.calcitebridge.types.ArrowTypes;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParseException;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The entry point Python calls: one per environment, with its own catalog and configuration. Every
 * method takes and returns plain values (strings, numbers, Arrow C struct addresses), and
 * statements run on a {@link Workers} thread; callers poll the returned {@link Pending}.
 */
public final class BridgeSession implements AutoCloseable {
  /** The version of this jar; Python checks it equals its own. */
  public static final String VERSION = "0.1.0";

  private final SessionState state = new SessionState();
  private final Catalog catalog = state.catalog();
  private final SessionConfig config = state.config();
  private final PlannerContext context = state.planner();

  public static String version() {
    return VERSION;
  }

  /** The longest the warm-up waits for the validations running before each of its steps. */
  private static final long WARM_UP_YIELD_MILLIS = 5_000;

  /** The validations running now: the warm-up waits for them before each of its steps. */
  private static final java.util.concurrent.atomic.AtomicInteger VALIDATING =
      new java.util.concurrent.atomic.AtomicInteger();

  /** Parses, validates, plans and runs {@code SELECT 1} on a worker, loading Calcite's classes. */
  public static Pending<Long> warmUp() {
    return warmUp("");
  }

  /**
   * Loads on a worker the classes a first query needs, by running {@code SELECT 1} as a session
   * whose queries may run on {@code hostBackends} (as {@link #setHostBackends}) would: where the
   * first query goes to a backend of the host (DuckDB), the warm-up plans and translates it for
   * that backend and leaves Calcite's own engine (Janino's code generation) unloaded, work a
   * session that never runs a query there would pay for nothing. It validates first, then plans and
   * runs, and before each step waits while a {@code validate} runs (at most a few seconds): a first
   * validate does not share the cores with the planning it does not need. (A first query or explain
   * needs that planning, and shares the classes' loading with it.) A validate's result, the IPC
   * message of its schema, needs neither Arrow's {@code Schema} nor Jackson ({@link
   * ArrowTypes#schemaMessage}): the warm-up loads them when it runs its query, after the validate.
   */
  public static Pending<Long> warmUp(String hostBackends) {
    return Workers.submit(
        () -> {
          BridgeSession s = new BridgeSession();
          s.setHostBackends(hostBackends);
          String sql = "SELECT 1 AS x";
          Workers.awaitNone(VALIDATING, WARM_UP_YIELD_MILLIS);
          new StatementExecutor(s.state, new AtomicBoolean())
              .validate(sql, () -> requireQuery(s.parse(sql)));
          Workers.awaitNone(VALIDATING, WARM_UP_YIELD_MILLIS);
          try (StatementResult r = s.run(sql, new AtomicBoolean(), false)) {
            if (r.backend().isEmpty()) {
              return r.address();
            }
            r.describe(); // what the host reads of a hosted query: its description and schema
            return (long) r.schema().length;
          }
        });
  }

  /**
   * {@link #warmUp(String)}, then the JIT's warm-up in the process's idle time ({@link
   * IdleWarmUp}), {@code idleStatements} statements long: {@link IdleWarmUp#DEFAULT_STATEMENTS}
   * when negative, none when 0. One call from the host as it starts.
   */
  public static Pending<Long> warmUp(String hostBackends, int idleStatements) {
    Pending<Long> first = warmUp(hostBackends);
    warmUpWhenIdle(
        hostBackends, idleStatements < 0 ? IdleWarmUp.DEFAULT_STATEMENTS : idleStatements);
    return first;
  }

  /**
   * Starts the JIT's warm-up in the process's idle time ({@link IdleWarmUp}), once per process,
   * {@code statements} long, its session's queries planned for {@code hostBackends}; whether it
   * started.
   */
  public static boolean warmUpWhenIdle(String hostBackends, int statements) {
    return IdleWarmUp.start(() -> warmUpSteps(hostBackends), statements);
  }

  /** What the idle-time warm-up does ({@link IdleWarmUp#status}): {@code off}, or its state. */
  public static String idleWarmUpStatus() {
    return IdleWarmUp.status();
  }

  /**
   * The statements of the idle-time warm-up ({@link IdleWarmUp}), run on its thread in a new
   * session whose queries may run on {@code hostBackends}.
   */
  static IdleWarmUp.Steps warmUpSteps(String hostBackends) {
    BridgeSession s = new BridgeSession();
    s.setHostBackends(hostBackends);
    s.registerSource(WarmUpSource.NAME, new WarmUpSource(), false);
    return new IdleWarmUp.Steps() {
      @Override
      public void prepare(String ddl, AtomicBoolean stop) {
        s.run(ddl, stop, false).close();
      }

      @Override
      public void validate(String sql, AtomicBoolean stop) {
        // As validateSchema: the row type, then its IPC message
        ArrowTypes.schemaMessage(
            new StatementExecutor(s.state, stop).validate(sql, () -> requireQuery(s.parse(sql))));
      }

      @Override
      public String explain(String sql, AtomicBoolean stop) {
        return new StatementExecutor(s.state, stop).explain(sql, () -> s.parse(sql), "text");
      }
    };
  }

  /** The session {@link FirstSession}, the JVM's agent, started making as the JVM started. */
  private static @Nullable FutureTask<BridgeSession> first;

  private static volatile boolean firstTaken;

  /** Starts making the first session on a thread of its own ({@link FirstSession#premain}). */
  static void makeFirst() {
    FutureTask<BridgeSession> task = new FutureTask<>(BridgeSession::new);
    synchronized (BridgeSession.class) {
      first = task;
    }
    Thread thread = new Thread(task, "calcite-bridge-first-session");
    thread.setDaemon(true);
    thread.start();
  }

  /**
   * A new session: the one made as the JVM started, when the host started it with this jar as an
   * agent ({@link FirstSession}) and has not taken it yet, else {@code new BridgeSession()}.
   */
  public static BridgeSession open() {
    BridgeSession made = takeFirst();
    return made != null ? made : new BridgeSession();
  }

  /** Whether a session made as the JVM started was taken ({@code doctor} and tests ask). */
  public static boolean firstTaken() {
    return firstTaken;
  }

  /**
   * The session made as the JVM started, waiting for it if it is still being made; null when none
   * was started, it was taken already, or making it failed. Taken once.
   */
  static @Nullable BridgeSession takeFirst() {
    FutureTask<BridgeSession> task;
    synchronized (BridgeSession.class) {
      task = first;
      first = null;
    }
    if (task == null) {
      return null;
    }
    try {
      BridgeSession session = task.get();
      firstTaken = true;
      return session;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    } catch (ExecutionException e) {
      return null;
    }
  }

  /** {@link Workers#setThreadHooks}. */
  public static void setThreadHooks(Workers.@Nullable ThreadHooks hooks) {
    Workers.setThreadHooks(hooks);
  }

  /** Stops the workers as the process exits; see {@link Workers#quiesce}. */
  public static boolean quiesce(long millis) throws InterruptedException {
    IdleWarmUp.stop();
    return Workers.quiesce(millis);
  }

  /** Runs any statement. */
  public Pending<StatementResult> execute(String sql) {
    return execute(sql, null);
  }

  /**
   * Runs any statement, stopped once {@code timeout} (a duration such as {@code '30 s'}; null for
   * the environment's {@code execution.timeout}) has passed.
   */
  public Pending<StatementResult> execute(String sql, @Nullable String timeout) {
    return Workers.submit(cancel -> run(sql, cancel, false), timeoutMillis(timeout));
  }

  /**
   * As {@link #execute(String, String)}, with {@code parameters} bound to the statement's {@code ?}
   * placeholders in order (null: it has none).
   */
  public Pending<StatementResult> execute(
      String sql, @Nullable String timeout, @Nullable Parameters parameters) {
    return Workers.submit(
        cancel -> run(sql, cancel, false, null, parameters), timeoutMillis(timeout));
  }

  /**
   * As {@link #execute(String, String, Parameters)}, the parameters as Python sends them (a JSON
   * list, see {@link Parameters#fromJson}).
   */
  public Pending<StatementResult> executeWithParameters(
      String sql, @Nullable String timeout, @Nullable String parameters) {
    Parameters values = translated(() -> Parameters.fromJson(parameters));
    return execute(sql, timeout, values);
  }

  /** Runs a query ({@code SELECT}, {@code WITH}, {@code VALUES}); anything else is an error. */
  public Pending<StatementResult> query(String sql) {
    return query(sql, null);
  }

  /**
   * Runs a query on {@code backend} ({@code auto}, {@code enumerable}, {@code duckdb}), or on the
   * environment's {@code execution.backend} when it is null.
   */
  public Pending<StatementResult> query(String sql, @Nullable String backend) {
    return query(sql, backend, null);
  }

  /**
   * As {@link #query(String, String)}, stopped once {@code timeout} (a duration such as {@code '30
   * s'}; null for the environment's {@code execution.timeout}) has passed: planning, running and
   * reading the rows.
   */
  public Pending<StatementResult> query(
      String sql, @Nullable String backend, @Nullable String timeout) {
    return Workers.submit(cancel -> run(sql, cancel, true, backend), timeoutMillis(timeout));
  }

  /**
   * As {@link #query(String, String, String)}, with {@code parameters} bound to the query's {@code
   * ?} placeholders in order (null: it has none).
   */
  public Pending<StatementResult> query(
      String sql,
      @Nullable String backend,
      @Nullable String timeout,
      @Nullable Parameters parameters) {
    return Workers.submit(
        cancel -> run(sql, cancel, true, backend, parameters), timeoutMillis(timeout));
  }

  /** As {@link #query(String, String, String, Parameters)}, the parameters as JSON. */
  public Pending<StatementResult> queryWithParameters(
      String sql, @Nullable String backend, @Nullable String timeout, @Nullable String parameters) {
    Parameters values = translated(() -> Parameters.fromJson(parameters));
    return query(sql, backend, timeout, values);
  }

  /** Milliseconds of {@code timeout}, or of the environment's {@code execution.timeout}. */
  private long timeoutMillis(@Nullable String timeout) {
    if (timeout == null || timeout.isBlank()) {
      return translated(config::timeoutMillis);
    }
    return translated(
        () -> Limits.millis(Limits.normalizeDuration(SessionConfig.EXECUTION_TIMEOUT, timeout)));
  }

  /**
   * Runs a query whose plan is cached on the calling thread, or returns null when its plan is not
   * cached or runs on Calcite's engine. A cached plan of a host backend (DuckDB, Spark) only opens
   * its scans, which takes less than handing the statement to a worker thread and waiting for it
   * (about half a millisecond, as long as a small DuckDB query); so does a plan of Calcite's engine
   * that is a filter or a selection of columns over a source's scan. Any other plan of Calcite's
   * engine may do all its work as it opens (an aggregate, a sort): it runs on a worker, as a first
   * run does, where the timeout, Ctrl-C and the memory guard reach it.
   */
  public @Nullable StatementResult queryCached(String sql, @Nullable String backend) {
    return queryCached(sql, backend, null);
  }

  /** As {@link #queryCached(String, String)}, with the timeout of {@link #query}. */
  public @Nullable StatementResult queryCached(
      String sql, @Nullable String backend, @Nullable String timeout) {
    return cached(sql, backend, timeout, null);
  }

  /**
   * As {@link #queryCached(String, String, String)}, with {@code parameters} (JSON, as {@link
   * #queryWithParameters}) bound into the plan kept for the query's text and the types of the
   * values.
   */
  public @Nullable StatementResult queryCachedWithParameters(
      String sql, @Nullable String backend, @Nullable String timeout, String parameters) {
    long t = io.calcitebridge.plan.PhaseTimes.start();
    Parameters values = translated(() -> Parameters.fromJson(parameters));
    io.calcitebridge.plan.PhaseTimes.end("cached run/values from JSON", t);
    return cached(sql, backend, timeout, values);
  }

  /**
   * As {@link #queryCachedWithParameters}, with the values as Java scalars (null, {@link Boolean},
   * {@link Long}, {@link Double}, {@link String}: what Python's None, bool, int, float and str
   * become through JPype), bound as the same values sent as JSON are, without writing or reading
   * JSON at each run.
   */
  public @Nullable StatementResult queryCachedWithValues(
      String sql, @Nullable String backend, @Nullable String timeout, @Nullable Object[] values) {
    return cached(sql, backend, timeout, Parameters.fromScalars(values));
  }

  private @Nullable StatementResult cached(
      String sql, @Nullable String backend, @Nullable String timeout, @Nullable Parameters values) {
    long started = io.calcitebridge.plan.PhaseTimes.start();
    long millis = timeoutMillis(timeout);
    return translated(
        () -> {
          Stop cancel = new Stop();
          // Scans are opened and rows read within the timeout and under the memory guard.
          Deadlines.Deadline deadline = Workers.stopAfter(cancel, millis);
          MemoryGuard.limit(cancel, config.memoryLimitBytes());
          RowSet rows;
          try {
            rows =
                new StatementExecutor(state, cancel)
                    .withBackend(backend)
                    .withParameters(values)
                    .cachedQuery(sql, true);
          } catch (RuntimeException | Error e) {
            deadline.cancel();
            throw e;
          }
          if (rows == null) {
            deadline.cancel();
            return null;
          }
          StatementResult result = result(rows, cancel);
          io.calcitebridge.plan.PhaseTimes.end("cached run", started);
          return result;
        });
  }

  /** How many queries ran a plan the plan cache held (with parameters, one kept for any values). */
  public long planCacheHits() {
    return state.planCache().hits();
  }

  /**
   * Says which backends the process reading the results runs itself (comma-separated, such as
   * {@code duckdb}); Calcite's engine is always there.
   */
  public void setHostBackends(String names) {
    run(
        () ->
            state.setHostBackends(
                java.util.Arrays.stream(names.split(","))
                    .map(String::trim)
                    .filter(n -> !n.isEmpty())
                    .collect(java.util.stream.Collectors.toSet())));
  }

  /** Runs every statement of a script in order; returns how many ran. */
  public Pending<Integer> executeScript(String sql) {
    return Workers.submit(
        cancel -> {
          MemoryGuard.running();
          List<SqlNode> nodes = parseAll(sql);
          for (SqlNode node : nodes) {
            RowSet rows =
                new StatementExecutor(state, cancel)
                    .withBackend("enumerable")
                    .execute(node, statementText(sql, node));
            rows.rows().enumerator().close();
          }
          return nodes.size();
        },
        timeoutMillis(null));
  }

  /**
   * A dry run of a script ({@link StatementExecutor#check}): definitions run, every statement that
   * reads or writes data is validated and planned without running. Its answer is a JSON list, a
   * statement each: {@code line}, {@code column}, {@code endLine}, {@code endColumn}, {@code
   * outcome} ({@code ran}, {@code validated} or {@code skipped}), {@code columns} (a query's {@code
   * [name, type]} pairs, or null) and {@code plan} (with {@code plans}, a query's or a data
   * change's plan; an EXPLAIN's text; or null). The first statement that fails ends it with its
   * error, at its place in the script.
   */
  public Pending<String> checkScript(String sql, boolean plans) {
    return Workers.submit(
        cancel -> ScriptStep.json(checkAll(sql, plans, cancel)), timeoutMillis(null));
  }

  /** As {@link #checkScript}, its steps as records. */
  public Pending<List<ScriptStep>> checkScriptSteps(String sql, boolean plans) {
    return Workers.submit(cancel -> checkAll(sql, plans, cancel), timeoutMillis(null));
  }

  private List<ScriptStep> checkAll(String sql, boolean plans, AtomicBoolean cancel) {
    MemoryGuard.running();
    List<ScriptStep> steps = new ArrayList<>();
    for (SqlNode node : parseAll(sql)) {
      io.calcitebridge.statement.ScriptCheck check =
          new StatementExecutor(state, cancel).check(node, statementText(sql, node), plans);
      steps.add(ScriptStep.of(node.getParserPosition(), check));
    }
    return steps;
  }

  /**
   * The text of the statement {@code node} of {@code script}, preceded by the blank lines and
   * spaces that keep its positions those of the script; the whole script when its place is unknown.
   */
  static String statementText(String script, SqlNode node) {
    org.apache.calcite.sql.parser.SqlParserPos pos = node.getParserPosition();
    if (pos.getLineNum() < 1 || pos.getEndLineNum() < pos.getLineNum()) {
      return script;
    }
    int start = offset(script, pos.getLineNum(), pos.getColumnNum());
    int end = offset(script, pos.getEndLineNum(), pos.getEndColumnNum());
    if (start < 0 || end < start || end >= script.length()) {
      return script;
    }
    return "\n".repeat(pos.getLineNum() - 1)
        + " ".repeat(pos.getColumnNum() - 1)
        + script.substring(start, end + 1);
  }

  /** The offset in {@code text} of a 1-based line and column, or -1. */
  private static int offset(String text, int line, int column) {
    int i = 0;
    for (int l = 1; l < line; l++) {
      i = text.indexOf('\n', i);
      if (i < 0) {
        return -1;
      }
      i++;
    }
    int at = i + column - 1;
    return at < text.length() ? at : -1;
  }

  /** The plan of a query or INSERT as {@code text}, {@code json} or {@code dot}. */
  public Pending<String> explain(String sql, String format) {
    return explain(sql, format, null);
  }

  /** As {@link #explain(String, String)}, for the plan {@code backend} would run. */
  public Pending<String> explain(String sql, String format, @Nullable String backend) {
    return Workers.submit(
        cancel ->
            planning(
                cancel,
                () ->
                    new StatementExecutor(state, cancel)
                        .withBackend(backend)
                        .explain(sql, () -> parse(sql), format)),
        timeoutMillis(null));
  }

  /**
   * As {@link #explain(String, String, String)}, waited for up to {@code millis}: the plan's text
   * when the statement ended by then, else its {@link Pending} (see {@link Pending#resultWithin}).
   * One call from the host for a plan that takes less than a first slice of its wait.
   */
  public @Nullable Object explainWithin(
      String sql, String format, @Nullable String backend, long millis) {
    return explain(sql, format, backend).resultWithin(millis);
  }

  /**
   * Runs an {@code INSERT ... VALUES (?, ...)} of one row once with every row of {@code rows} (a
   * JSON list of parameter lists): one statement of all the rows, planned once. Its result is null
   * for any other statement, which the caller then runs once per row.
   */
  public Pending<@Nullable StatementResult> executeBatchWithParameters(
      String sql, @Nullable String timeout, String rows) {
    List<Parameters> values = translated(() -> Parameters.rowsFromJson(rows));
    return Workers.submit(
        cancel -> {
          MemoryGuard.limit(cancel, config.memoryLimitBytes());
          java.util.Map<String, Object> kept = new java.util.HashMap<>();
          SqlNode batch = Parameters.batch(parse(sql), values, config.timeZone().toZoneId(), kept);
          if (batch == null) {
            return null;
          }
          return result(
              new StatementExecutor(state, cancel).withKeptValues(kept).execute(batch, sql),
              cancel);
        },
        timeoutMillis(timeout));
  }

  /** As {@link #explain(String, String, String)}, with {@code parameters} bound. */
  public Pending<String> explain(
      String sql, String format, @Nullable String backend, @Nullable Parameters parameters) {
    return Workers.submit(
        cancel ->
            planning(
                cancel,
                () -> {
                  StatementExecutor executor =
                      new StatementExecutor(state, cancel)
                          .withBackend(backend)
                          .withParameters(parameters);
                  return executor.explain(sql, () -> parse(sql), format);
                }),
        timeoutMillis(null));
  }

  /** As {@link #explain(String, String, String, Parameters)}, the parameters as JSON. */
  public Pending<String> explainWithParameters(
      String sql, String format, @Nullable String backend, @Nullable String parameters) {
    Parameters values = translated(() -> Parameters.fromJson(parameters));
    return explain(sql, format, backend, values);
  }

  /**
   * The types the validator infers for the {@code ?} placeholders of a query, as a JSON list of
   * {@code {"index", "type", "nullable", "line", "column"}}; empty for a query without any.
   */
  public Pending<String> parameterTypes(String sql) {
    return Workers.submit(
        cancel -> {
          SqlNode node = requireQuery(parse(sql));
          var params = Parameters.placeholders(node);
          if (params.isEmpty()) {
            return "[]";
          }
          var planner = new io.calcitebridge.plan.QueryPlanner(context);
          planner.validate(node);
          var validator = planner.validator();
          return Parameters.describe(params, p -> validator.getValidatedNodeTypeIfKnown(p));
        },
        timeoutMillis(null));
  }

  /** Validates a query; returns the address of an exported Arrow schema of its result. */
  public Pending<StatementResult> validate(String sql) {
    return Workers.submit(
        cancel -> {
          var rowType =
              new StatementExecutor(state, cancel).validate(sql, () -> requireQuery(parse(sql)));
          long started = io.calcitebridge.plan.PhaseTimes.start();
          try {
            return new StatementResult(
                "schema", ArrowResults.export(RowSet.of("schema", rowType, List.of())));
          } finally {
            io.calcitebridge.plan.PhaseTimes.end("on the worker/schema export", started);
          }
        },
        timeoutMillis(null));
  }

  /**
   * Validates a query, as {@link #validate}; the result's Arrow schema comes as an IPC message
   * ({@link StatementResult#schema}), for a reader in this process. (Bytes rather than an exported
   * stream of no rows: a first validate then needs none of the C Data Interface's classes, which
   * only rows need.)
   */
  public Pending<StatementResult> validateSchema(String sql) {
    return Workers.submit(
        cancel -> {
          VALIDATING.incrementAndGet();
          try {
            var rowType =
                new StatementExecutor(state, cancel).validate(sql, () -> requireQuery(parse(sql)));
            return StatementResult.schemaOnly(cancel, ArrowTypes.schemaMessage(rowType));
          } finally {
            VALIDATING.decrementAndGet();
          }
        },
        timeoutMillis(null));
  }

  /**
   * As {@link #validateSchema}, waited for up to {@code millis}: the IPC message of the schema when
   * the statement ended by then, else its {@link Pending} (see {@link Pending#resultWithin}). One
   * call from the host for a validation that takes less than a first slice of its wait.
   */
  public @Nullable Object validateSchemaWithin(String sql, long millis) {
    Object outcome = validateSchema(sql).resultWithin(millis);
    if (outcome instanceof StatementResult result) {
      try (result) {
        return result.schema();
      }
    }
    return outcome;
  }

  public void setConfig(String key, String value) {
    run(() -> config.set(key, value));
  }

  public void resetConfig(String key) {
    run(() -> config.reset(key));
  }

  public String getConfig(String key) {
    return translated(() -> config.get(key));
  }

  /** Every setting as {@code key=value} lines. */
  public String[] configEntries() {
    return translated(
        () ->
            config.all().entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue())
                .toArray(String[]::new));
  }

  /** Bytes of Arrow memory the bridge holds (0 once Python dropped every result). */
  public static long allocatedBytes() {
    return ArrowMemory.allocatedBytes();
  }

  /** Registers a Python source as table {@code name}; its columns are the source's schema. */
  public void registerSource(String name, PythonSource source, boolean replace) {
    run(() -> ArrowResults.registerSource(context, name, source, replace));
  }

  /**
   * Which of {@code sources} a table of this session still reads, by identity: any catalog, any
   * database, temporary or shadowed. The host lets go of the others' objects, which the JVM holds
   * until it collects their proxies.
   */
  public boolean[] heldSources(PythonSource[] sources) {
    return translated(
        () -> {
          java.util.Set<PythonSource> held =
              java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
          for (String name : catalog.catalogNames()) {
            Catalog.CatalogEntry entry = catalog.catalog(name);
            for (String db : entry == null ? List.<String>of() : entry.databaseNames()) {
              Catalog.Database database = catalog.database(name, db);
              for (org.apache.calcite.schema.Table table :
                  database == null
                      ? List.<org.apache.calcite.schema.Table>of()
                      : database.allTables()) {
                if (table instanceof io.calcitebridge.catalog.CatalogTable t
                    && t.storage() instanceof io.calcitebridge.connector.SourceStorage storage) {
                  held.add(storage.source());
                }
              }
            }
          }
          boolean[] kept = new boolean[sources.length];
          for (int i = 0; i < sources.length; i++) {
            kept[i] = held.contains(sources[i]);
          }
          return kept;
        });
  }

  /** Sets the factory of the connectors implemented in Python ({@code filesystem}, ...). */
  public void setConnectorFactory(ConnectorFactory factory) {
    run(() -> state.setConnectorFactory(factory));
  }

  /**
   * Adds the Python function {@code fn} as {@code name} (its signature is {@code fn.spec()}),
   * replacing a function of that name when {@code replace}.
   */
  public void createPythonFunction(
      String name, io.calcitebridge.udf.PythonFunction fn, String target, boolean replace) {
    run(
        () ->
            new io.calcitebridge.statement.FunctionStatements(state)
                .add(
                    name,
                    io.calcitebridge.functions.UserFunctionTable.Scope.TEMPORARY_SYSTEM,
                    fn,
                    "PYTHON",
                    target,
                    replace));
  }

  /**
   * Adds the Java function {@code name} of class {@code cls}, called on {@code instance} (a new
   * instance of the class when null and an {@code eval} is not static), replacing a function of
   * that name when {@code replace}.
   */
  public void createJavaFunction(
      String name, Class<?> cls, @Nullable Object instance, boolean replace) {
    run(
        () -> {
          io.calcitebridge.statement.FunctionStatements statements =
              new io.calcitebridge.statement.FunctionStatements(state);
          org.apache.calcite.sql.SqlOperator function;
          try {
            function = statements.javaFunction(name, cls, instance, List.of(), null);
          } catch (IllegalArgumentException e) {
            throw new io.calcitebridge.errors.ConfigException(e.getMessage());
          }
          if (instance != null && function instanceof io.calcitebridge.functions.JavaFunction j) {
            j.fromObject();
          } else if (instance != null
              && function instanceof io.calcitebridge.functions.UserAggregateFunction a
              && a.finisher() instanceof io.calcitebridge.functions.JavaAggregate j) {
            j.fromObject();
          }
          statements.put(
              name,
              io.calcitebridge.functions.UserFunctionTable.Scope.TEMPORARY_SYSTEM,
              function,
              replace);
        });
  }

  /** Drops the function {@code name}; false when there is none. */
  public boolean dropFunction(String name) {
    return translated(() -> new io.calcitebridge.statement.FunctionStatements(state).remove(name));
  }

  /** Sets the loader of the Python functions that CREATE FUNCTION names. */
  public void setFunctionLoader(io.calcitebridge.udf.FunctionLoader loader) {
    run(() -> state.setFunctionLoader(loader));
  }

  /** Names of the tables and views. */
  public String[] tableNames() {
    return translated(() -> catalog.names().toArray(new String[0]));
  }

  /**
   * Runs {@code call} here, on the caller's thread; its failure is thrown translated, as every
   * entry point's is.
   */
  private static <T> T translated(Supplier<T> call) {
    try {
      return call.get();
    } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
      throw Errors.translate(e);
    }
  }

  private static void run(Runnable call) {
    translated(
        () -> {
          call.run();
          return null;
        });
  }

  private StatementResult run(String sql, AtomicBoolean cancel, boolean queryOnly) {
    return run(sql, cancel, queryOnly, null);
  }

  private StatementResult run(
      String sql, AtomicBoolean cancel, boolean queryOnly, @Nullable String backend) {
    return run(sql, cancel, queryOnly, backend, null);
  }

  private StatementResult run(
      String sql,
      AtomicBoolean cancel,
      boolean queryOnly,
      @Nullable String backend,
      @Nullable Parameters parameters) {
    MemoryGuard.limit(cancel, config.memoryLimitBytes());
    StatementExecutor executor =
        new StatementExecutor(state, cancel).withBackend(backend).withParameters(parameters);
    RowSet rows = executor.cachedQuery(sql);
    if (rows == null) {
      // Parsing counts towards planning: a huge statement takes long to parse too.
      Deadlines.Deadline planning = planningDeadline(cancel);
      try {
        SqlNode node = bound(parse(sql), executor, sql);
        if (queryOnly) {
          requireRows(node, sql);
        }
        if (!node.isA(SqlKind.QUERY)) {
          planning.cancel(); // DDL, INSERT, ... run here: execution.timeout bounds them
        }
        rows = executor.execute(node, sql);
      } finally {
        planning.cancel();
      }
    }
    return result(rows, cancel);
  }

  /**
   * Runs {@code plan}, which plans a query (its rows are read later), within {@code
   * planner.timeout}.
   */
  private <T> T planning(AtomicBoolean cancel, Supplier<T> plan) {
    Deadlines.Deadline deadline = planningDeadline(cancel);
    try {
      return plan.get();
    } finally {
      deadline.cancel();
    }
  }

  /** The deadline of {@code planner.timeout} from now for the statement of {@code cancel}. */
  private Deadlines.Deadline planningDeadline(AtomicBoolean cancel) {
    long millis = translated(config::plannerTimeoutMillis);
    if (millis <= 0 || !(cancel instanceof Stop)) {
      return Deadlines.NONE;
    }
    return Deadlines.after(
        millis,
        (Stop) cancel,
        "The statement took longer than "
            + Deadlines.describe(millis)
            + " to plan (planner.timeout) and was stopped",
        () -> null);
  }

  /** The rows of a statement that ran, for the reader; {@code cancel} stops them. */
  private StatementResult result(RowSet rows, AtomicBoolean cancel) {
    long memoryLimit = config.memoryLimitBytes();
    if (rows.translation() == null) {
      return new StatementResult(rows.kind(), ArrowResults.export(rows, memoryLimit), cancel);
    }
    List<@Nullable ExportedStream> scans = new ArrayList<>();
    List<byte[]> scanSchemas = new ArrayList<>();
    List<io.calcitebridge.connector.SourceStorage.@Nullable Prepared> prepared = new ArrayList<>();
    try {
      for (var scan : rows.scans()) {
        // A scan the reader's process opens itself comes as its schema alone.
        ArrowReader reader = scan.reader();
        scans.add(reader != null ? ArrowResults.exportScan(reader) : null);
        scanSchemas.add(reader != null ? new byte[0] : ArrowTypes.schemaMessage(scan.rowType()));
        prepared.add(scan.prepared());
      }
    } catch (RuntimeException e) {
      scans.forEach(
          s -> {
            if (s != null) {
              s.close();
            }
          });
      throw e;
    }
    return new StatementResult(
            cancel,
            rows.kind(),
            // Without Arrow's Schema class, whose initialiser starts Jackson: a query a backend
            // of the reader's process runs needs no more than the message.
            ArrowTypes.schemaMessage(rows.rowType()),
            rows.translation().backend(),
            rows.translation().sql(),
            scans,
            scanSchemas,
            prepared)
        .withParameterOrder(rows.translation().parameters());
  }

  private SqlNode parse(String sql) {
    long started = io.calcitebridge.plan.PhaseTimes.start();
    try {
      return context.parseStatement(sql);
    } catch (SqlParseException e) {
      throw Errors.translateParse(e, sql);
    } finally {
      io.calcitebridge.plan.PhaseTimes.end("on the worker/parse", started);
    }
  }

  /**
   * {@code node} with the executor's parameters bound; without parameters, a statement with {@code
   * ?} placeholders fails at the first one, as no value was given.
   */
  private static SqlNode bound(SqlNode node, StatementExecutor executor, String sql) {
    SqlNode out = executor.bind(node);
    if (out == node && sql.indexOf('?') >= 0) {
      List<org.apache.calcite.sql.SqlDynamicParam> params;
      try {
        params = Parameters.placeholders(node);
      } catch (RuntimeException notWalkable) {
        return out; // a statement node the walk cannot enter holds no placeholder the parser made
      }
      if (!params.isEmpty()) {
        Parameters.of(List.of()).bind(node, java.time.ZoneOffset.UTC);
      }
    }
    return out;
  }

  private List<SqlNode> parseAll(String sql) {
    try {
      return context.parseStatements(sql);
    } catch (SqlParseException e) {
      throw Errors.translateParse(e, sql);
    }
  }

  private static SqlNode requireQuery(SqlNode node) {
    if (!node.isA(SqlKind.QUERY)) {
      throw new PositionedException(
          ErrorKind.VALIDATION,
          "Expected a query (SELECT, WITH or VALUES), got "
              + node.getKind()
              + "; use execute() for other statements",
          node.getParserPosition());
    }
    return node;
  }

  /** The statements besides queries that answer with rows, so that {@code sql()} runs them. */
  private static final java.util.Set<String> ROW_STATEMENTS =
      java.util.Set.of("SHOW", "DESCRIBE", "DESC", "EXPLAIN");

  /**
   * {@code node} when it answers with rows: a query, or a SHOW, DESCRIBE or EXPLAIN statement;
   * statements that change something (DDL, INSERT, SET, USE, ...) are refused before they run.
   */
  private static SqlNode requireRows(SqlNode node, String sql) {
    String word = firstWord(sql);
    if (node.isA(SqlKind.QUERY) || ROW_STATEMENTS.contains(word)) {
      return node;
    }
    throw new PositionedException(
        ErrorKind.VALIDATION,
        "sql() runs statements that return rows (a query, SHOW, DESCRIBE or EXPLAIN), not "
            + (word.isEmpty() ? node.getKind().toString() : word)
            + "; use execute() for other statements",
        node.getParserPosition());
  }

  /** The first word of a statement, upper-cased, past white space and comments. */
  static String firstWord(String sql) {
    int i = 0;
    int n = sql.length();
    while (i < n) {
      char c = sql.charAt(i);
      if (Character.isWhitespace(c) || c == '(') {
        i++;
      } else if (sql.startsWith("--", i)) {
        int end = sql.indexOf('\n', i);
        i = end < 0 ? n : end + 1;
      } else if (sql.startsWith("/*", i)) {
        int end = sql.indexOf("*/", i + 2);
        i = end < 0 ? n : end + 2;
      } else {
        break;
      }
    }
    int start = i;
    while (i < n && Character.isLetter(sql.charAt(i))) {
      i++;
    }
    return sql.substring(start, i).toUpperCase(java.util.Locale.ROOT);
  }

  @Override
  public void close() {
    run(
        () -> {
          for (String name : catalog.names()) {
            io.calcitebridge.catalog.Catalog.Path path = catalog.path(List.of(name));
            if (path != null && catalog.isTemporary(path)) {
              catalog.dropTemporary(path, catalog.view(name) != null, true);
            }
            if (catalog.table(name) != null) {
              catalog.drop(name, catalog.view(name) != null, true);
            }
          }
          context.userFunctions().clear();
        });
  }
}

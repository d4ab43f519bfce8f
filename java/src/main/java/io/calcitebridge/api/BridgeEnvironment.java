package io.calcitebridge.api;

import io.calcitebridge.api.source.ArrowRows;
import io.calcitebridge.api.source.TableSource;
import io.calcitebridge.api.source.TableSourceFactory;
import io.calcitebridge.arrow.ArrowMemory;
import io.calcitebridge.facade.BridgeSession;
import io.calcitebridge.javasource.JavaConnectors;
import io.calcitebridge.javasource.JavaSourceAdapter;
import io.calcitebridge.types.TypeNames;
import java.io.IOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * An independent catalog and configuration, and the statements run against them: the Java
 * counterpart of Python's {@code calcite_bridge.Environment}.
 *
 * <pre>{@code
 * try (BridgeEnvironment env = BridgeEnvironment.create()) {
 *   env.registerSource("users", new UsersSource());
 *   System.out.println(env.explain("SELECT * FROM users WHERE user.age < 30"));
 *   try (ArrowReader rows = env.sql("SELECT * FROM users WHERE user.age < 30")) {
 *     while (rows.loadNextBatch()) {
 *       System.out.print(rows.getVectorSchemaRoot().contentToTSVString());
 *     }
 *   }
 * }
 * }</pre>
 *
 * <p>Every method throws {@link BridgeException} on failure, with a kind and, for SQL errors, the
 * 1-based position in the SQL text. Statements run on a worker thread with a large stack; an
 * interrupt of the calling thread cancels the running statement. Environments share one Arrow
 * allocator; several threads may use one environment at once. Rows stream: a failure while they are
 * read (a division by zero in a later batch, a source whose reader fails) surfaces from {@link
 * ArrowReader#loadNextBatch()} as a {@link BridgeException} of kind {@code EXECUTION} (or {@code
 * SOURCE}, ...).
 */
public final class BridgeEnvironment implements AutoCloseable {
  private static final List<String> FORMATS = List.of("text", "json", "dot");
  private static final String LOCK_CONFIG = "lock-config";

  private final BridgeSession session = new BridgeSession();
  private final JavaConnectors connectors = new JavaConnectors(allocator());

  private BridgeEnvironment() {
    session.setConnectorFactory(connectors);
  }

  /**
   * Arrow's memory, once the JVM lets Arrow at {@code java.nio}: without {@code --add-opens} Arrow
   * fails with "sun.misc.Unsafe or java.nio.DirectByteBuffer.<init> not available", which does not
   * say what to do.
   */
  private static org.apache.arrow.memory.BufferAllocator allocator() {
    String missing = missingOpens(BridgeEnvironment.class.getModule());
    if (missing != null) {
      throw new BridgeException(BridgeException.Kind.CONFIG, missing, null);
    }
    return ArrowMemory.allocator();
  }

  /** What to add to the java command line when {@code java.nio} is not open to {@code module}. */
  static @org.checkerframework.checker.nullness.qual.Nullable String missingOpens(Module module) {
    if (java.nio.ByteBuffer.class.getModule().isOpen("java.nio", module)) {
      return null;
    }
    String target = module.isNamed() ? module.getName() : "ALL-UNNAMED";
    return "Apache Arrow needs java.nio opened to it: add --add-opens=java.base/java.nio="
        + target
        + " to the java command line (or to JDK_JAVA_OPTIONS; Maven Surefire's argLine, Gradle's"
        + " jvmArgs), as docs/java.md shows";
  }

  /**
   * A new environment with an empty catalog and the default configuration.
   *
   * @return the environment; close it to drop its tables
   */
  public static BridgeEnvironment create() {
    return create(Map.of());
  }

  /**
   * A new environment with an empty catalog and {@code config} set.
   *
   * @param config settings such as {@code table.column-expansion-strategy}
   * @return the environment
   * @throws BridgeException of kind {@code CONFIG} for an unknown key or value
   */
  public static BridgeEnvironment create(Map<String, String> config) {
    BridgeEnvironment env = new BridgeEnvironment();
    // lock-config last, so the security settings of the same map are set before it freezes them
    config.forEach(
        (k, v) -> {
          if (!LOCK_CONFIG.equals(k)) {
            env.setConfig(k, v);
          }
        });
    if (config.containsKey(LOCK_CONFIG)) {
      env.setConfig(LOCK_CONFIG, config.get(LOCK_CONFIG));
    }
    return env;
  }

  /**
   * A new environment with {@code config} set and, when {@code lockConfig}, its security settings
   * ({@code python.allowed-modules}, {@code filesystem.allowed-paths}, {@code external-access})
   * frozen for its life: see {@link #lockConfig()}.
   *
   * @param config settings, the sandbox's included
   * @param lockConfig whether to lock them once set
   * @return the environment
   * @throws BridgeException of kind {@code CONFIG} for an unknown key or value
   */
  public static BridgeEnvironment create(Map<String, String> config, boolean lockConfig) {
    BridgeEnvironment env = create(config);
    if (lockConfig) {
      env.lockConfig();
    }
    return env;
  }

  /**
   * Freezes the security settings for the life of this environment, as {@code SET 'lock-config' =
   * 'true'} does: a later {@code SET} or {@code RESET} of them, from SQL or from this API, fails
   * with kind {@code CONFIG}. See docs/security.md.
   */
  public void lockConfig() {
    setConfig(LOCK_CONFIG, "true");
  }

  /**
   * Starts the JIT's warm-up in this JVM's idle time, once per JVM: a background thread plans
   * statements of its own (about a thousand validates and explains over tables of a private
   * environment, some 7–10 CPU-s) whenever no statement of the JVM has run for 0.2 s and neither
   * the rest of the process nor other processes use the CPU, so that the planner is compiled before
   * a short session's statements need it. It ends when done, and pauses while anything else runs.
   * Python starts it by itself; a Java service opts in here. See docs/performance.md.
   *
   * @param statements how many statements it runs; 0 starts nothing
   * @return whether it started now (false when it runs already, or the JVM cannot measure CPU use)
   */
  public static boolean warmUpWhenIdle(int statements) {
    if (statements < 0) {
      throw new BridgeException(
          BridgeException.Kind.CONFIG, "warmUpWhenIdle takes 0 or more statements", null);
    }
    return BridgeSession.warmUpWhenIdle("", statements);
  }

  /**
   * What the warm-up of {@link #warmUpWhenIdle} does: {@code off} when it was not started, else its
   * state and the statements run of its budget, as {@code waiting 120/1000}, {@code running
   * 400/1000} or {@code done 1000/1000}.
   *
   * @return the state
   */
  public static String idleWarmUpStatus() {
    return BridgeSession.idleWarmUpStatus();
  }

  /**
   * The version of calcite-bridge.
   *
   * @return the version, such as {@code 0.1.0}
   */
  public static String version() {
    return BridgeSession.version();
  }

  /**
   * Runs any statement: a query, {@code INSERT}, {@code UPDATE}, {@code DELETE}, DDL, {@code SET},
   * {@code DESCRIBE}, {@code EXPLAIN}, ... An {@code INSERT} returns one row with the count ({@code
   * rows_inserted}), an {@code UPDATE} or {@code DELETE} likewise ({@code rows_updated}, {@code
   * rows_deleted}); DDL and {@code SET} return one row {@code OK}.
   *
   * @param sql one statement
   * @return its rows, which the caller reads and closes
   * @throws BridgeException when the statement fails to parse, validate, plan or start
   */
  public ArrowReader execute(String sql) {
    return Calls.rows(session.execute(sql));
  }

  /**
   * Runs any statement, as {@link #execute(String)}, within {@code timeout} instead of the
   * environment's {@code execution.timeout}: past it the statement is stopped, while it plans, runs
   * or its rows are read, and fails with kind {@code TIMEOUT}.
   *
   * @param sql one statement
   * @param timeout how long it may take; {@link java.time.Duration#ZERO} for no limit
   * @return its rows, which the caller reads and closes
   * @throws BridgeException when the statement fails, or of kind {@code TIMEOUT} past its time
   */
  public ArrowReader execute(String sql, java.time.Duration timeout) {
    return Calls.rows(session.execute(sql, millis(timeout)));
  }

  /**
   * Runs a statement that answers with rows: a query ({@code SELECT}, {@code WITH}, {@code
   * VALUES}), {@code SHOW}, {@code DESCRIBE} or {@code EXPLAIN}; a statement that changes something
   * (DDL, {@code INSERT}, {@code SET}, ...) is an error and does not run.
   *
   * @param sql one statement
   * @return its rows, which the caller reads and closes
   * @throws BridgeException when the statement fails, or changes something (kind {@code
   *     VALIDATION})
   */
  public ArrowReader sql(String sql) {
    return Calls.rows(session.query(sql));
  }

  /**
   * Runs a query, as {@link #sql(String)}, within {@code timeout} instead of the environment's
   * {@code execution.timeout}: past it the query is stopped, while it plans, runs or its rows are
   * read, and fails with kind {@code TIMEOUT}.
   *
   * @param sql one query
   * @param timeout how long it may take; {@link java.time.Duration#ZERO} for no limit
   * @return its rows, which the caller reads and closes
   * @throws BridgeException when the query fails, or of kind {@code TIMEOUT} past its time
   */
  public ArrowReader sql(String sql, java.time.Duration timeout) {
    return Calls.rows(session.query(sql, null, millis(timeout)));
  }

  /**
   * Runs a query whose {@code ?} placeholders take {@code params}, in order. Each value is bound as
   * a typed literal, never as SQL text, typed as a literal of it would be: {@link Integer} {@code
   * INT}, {@link Long} {@code BIGINT} (or {@code INT} when it fits), {@link java.math.BigDecimal}
   * {@code DECIMAL}, {@link Double} {@code DOUBLE}, {@link String} {@code STRING}, {@code byte[]}
   * {@code BYTES}, {@link java.time.LocalDate} {@code DATE}, {@link java.time.LocalTime} {@code
   * TIME}, {@link java.time.LocalDateTime} {@code TIMESTAMP}, {@link java.time.Instant} {@code
   * TIMESTAMP_LTZ}, {@link java.time.Duration} {@code INTERVAL DAY TO SECOND}, a {@link List}
   * {@code ARRAY}, a {@link Map} {@code MAP}, an {@code Object[]} {@code ROW}, null {@code NULL}.
   *
   * @param sql one query
   * @param params the values of its placeholders
   * @return its rows, which the caller reads and closes
   * @throws BridgeException of kind {@code VALIDATION} at the placeholder for a wrong count of
   *     values or a value of no SQL type, or when the query fails
   */
  public ArrowReader sql(String sql, List<?> params) {
    return Calls.rows(
        session.query(sql, null, null, io.calcitebridge.statement.Parameters.of(params)));
  }

  /**
   * Runs any statement whose {@code ?} placeholders take {@code params}, in order (a query or an
   * {@code INSERT}; see {@link #sql(String, List)}).
   *
   * @param sql one statement
   * @param params the values of its placeholders
   * @return its rows, which the caller reads and closes
   * @throws BridgeException as {@link #sql(String, List)} does
   */
  public ArrowReader execute(String sql, List<?> params) {
    return Calls.rows(session.execute(sql, null, io.calcitebridge.statement.Parameters.of(params)));
  }

  /**
   * The optimized plan of a query or {@code INSERT} with {@code params} bound to its {@code ?}
   * placeholders: a value a source takes as a filter shows in its scan.
   *
   * @param sql the statement
   * @param format {@code text}, {@code json} or {@code dot}
   * @param params the values of its placeholders
   * @return the plan in that format
   * @throws BridgeException as {@link #explain(String, String)} and {@link #sql(String, List)} do
   */
  public String explain(String sql, String format, List<?> params) {
    if (format == null || !FORMATS.contains(format.toLowerCase(Locale.ROOT))) {
      throw new BridgeException(
          BridgeException.Kind.CONFIG,
          "Unknown explain format '" + format + "'; expected one of " + FORMATS,
          null);
    }
    return Calls.await(
        session.explain(sql, format, null, io.calcitebridge.statement.Parameters.of(params)));
  }

  private static String millis(java.time.Duration timeout) {
    if (timeout.isNegative()) {
      throw new IllegalArgumentException("timeout must not be negative: " + timeout);
    }
    return timeout.isZero() ? "0" : Math.max(1, timeout.toMillis()) + " ms";
  }

  /**
   * Runs every statement of {@code sql}, separated by semicolons, in order; their rows are dropped.
   *
   * @param sql the statements
   * @return how many statements ran
   * @throws BridgeException for the first failing statement; the ones before it stay done
   */
  public int executeScript(String sql) {
    return Calls.await(session.executeScript(sql));
  }

  /**
   * A dry run of a script: its definitions ({@code CREATE}, {@code ALTER}, {@code DROP}, {@code
   * SET}, {@code USE}, ...) run in this environment, as {@link #executeScript} runs them; every
   * statement that reads or writes data (a query, {@code INSERT}, a statement set, {@code UPDATE},
   * {@code DELETE}) is validated and planned but not run, and {@code CREATE TABLE ... AS} defines
   * its table from the query's columns and leaves it empty.
   *
   * @param sql the statements, separated by semicolons
   * @param plans whether each query and data change carries its plan
   * @return what the dry run did with each statement, in order
   * @throws BridgeException for the first failing statement, at its place in the script
   */
  public List<CheckedStatement> checkScript(String sql, boolean plans) {
    return Calls.await(session.checkScriptSteps(sql, plans)).stream()
        .map(
            s ->
                new CheckedStatement(
                    s.line(),
                    s.column(),
                    s.outcome(),
                    s.columns() == null
                        ? List.of()
                        : s.columns().stream().map(c -> c[0] + " " + c[1]).toList(),
                    s.plan()))
        .toList();
  }

  /**
   * The optimized plan of a query or {@code INSERT}, as text.
   *
   * @param sql the statement
   * @return the plan; a scan shows what its source took ({@code filter=[<(user.age, 30)]})
   * @throws BridgeException when the statement fails to plan
   */
  public String explain(String sql) {
    return explain(sql, "text");
  }

  /**
   * The optimized plan of a query or {@code INSERT}.
   *
   * @param sql the statement
   * @param format {@code text}, {@code json} or {@code dot}
   * @return the plan in that format
   * @throws BridgeException of kind {@code CONFIG} for another format, or when the statement fails
   */
  public String explain(String sql, String format) {
    if (format == null || !FORMATS.contains(format.toLowerCase(Locale.ROOT))) {
      throw new BridgeException(
          BridgeException.Kind.CONFIG,
          "Unknown explain format '" + format + "'; expected one of " + FORMATS,
          null);
    }
    return Calls.await(session.explain(sql, format));
  }

  /**
   * Validates a query and returns the schema of its result, without running it.
   *
   * @param sql one query
   * @return the Arrow schema of the result
   * @throws BridgeException when the query is invalid
   */
  public Schema validate(String sql) {
    try (ArrowReader reader = Calls.await(session.validate(sql)).toReader()) {
      return reader.getVectorSchemaRoot().getSchema();
    } catch (IOException | RuntimeException e) {
      throw Calls.toPublic(e);
    }
  }

  /**
   * Every column of a table or view, with its kind, metadata key and expression.
   *
   * @param table the table or view name, as written in SQL without quotes
   * @return the columns, in declaration order
   * @throws BridgeException of kind {@code CATALOG} when there is no such table
   */
  public List<ColumnInfo> describe(String table) {
    try (ArrowReader reader = execute("DESCRIBE EXTENDED " + TypeNames.quote(table))) {
      return ArrowRows.read(reader).stream().map(Calls::columnInfo).toList();
    } catch (IOException | RuntimeException e) {
      throw Calls.toPublic(e);
    }
  }

  /**
   * The value of a setting.
   *
   * @param key a key such as {@code table.column-expansion-strategy}
   * @return its value as {@code SET} writes it; a list's items separated by {@code ;}
   * @throws BridgeException of kind {@code CONFIG} for an unknown key
   */
  public String getConfig(String key) {
    return Calls.get(() -> session.getConfig(key));
  }

  /**
   * Changes a setting, as {@code SET 'key' = 'value'} does.
   *
   * @param key a key such as {@code table.column-expansion-strategy}
   * @param value its new value; a list's items separated by {@code ;}
   * @throws BridgeException of kind {@code CONFIG} for an unknown key or value, naming the allowed
   *     ones
   */
  public void setConfig(String key, String value) {
    Calls.run(() -> session.setConfig(key, value));
  }

  /**
   * Changes a setting whose value is a list, such as the expansion strategy.
   *
   * @param key the key
   * @param values its items
   * @throws BridgeException of kind {@code CONFIG} for an unknown key or value
   */
  public void setConfig(String key, List<String> values) {
    setConfig(key, String.join(";", values));
  }

  /**
   * Resets a setting to its default, as {@code RESET 'key'} does.
   *
   * @param key the key
   * @throws BridgeException of kind {@code CONFIG} for an unknown key
   */
  public void resetConfig(String key) {
    Calls.run(() -> session.resetConfig(key));
  }

  /** Resets every setting to its default, as {@code RESET} does. */
  public void resetConfig() {
    Calls.run(() -> session.resetConfig(null));
  }

  /**
   * Every setting with its current value.
   *
   * @return the settings, in a stable order
   */
  public Map<String, String> configEntries() {
    Map<String, String> out = new LinkedHashMap<>();
    for (String entry : session.configEntries()) {
      int eq = entry.indexOf('=');
      out.put(entry.substring(0, eq), entry.substring(eq + 1));
    }
    return out;
  }

  /**
   * Registers {@code source} as table {@code name}; its columns are the source's schema.
   *
   * @param name the table name
   * @param source the source
   * @throws BridgeException of kind {@code CATALOG} when the name is taken, or {@code SOURCE} when
   *     the source's schema fails
   */
  public void registerSource(String name, TableSource source) {
    registerSource(name, source, false);
  }

  /**
   * Registers {@code source} as table {@code name}, replacing a table of that name when {@code
   * replace} is true.
   *
   * @param name the table name
   * @param source the source
   * @param replace whether an existing table of that name is replaced
   * @throws BridgeException of kind {@code CATALOG} when the name is taken and {@code replace} is
   *     false, or {@code SOURCE} when the source's schema fails
   */
  public void registerSource(String name, TableSource source, boolean replace) {
    Calls.run(
        () ->
            session.registerSource(
                name, new JavaSourceAdapter(name, source, ArrowMemory.allocator()), replace));
  }

  /**
   * Registers a connector: {@code CREATE TABLE t (...) WITH ('connector' = 'name', ...)} then
   * creates the table's source with {@code factory}. The DDL may declare metadata columns (read by
   * key through {@link io.calcitebridge.api.source.SupportsReadingMetadata}) and dynamic columns.
   *
   * @param connector the connector name; {@code memory} is built in and cannot be replaced
   * @param factory creates the source of each table
   * @throws BridgeException of kind {@code CONFIG} for the name {@code memory}
   */
  public void registerConnector(String connector, TableSourceFactory factory) {
    if (connector.equals("memory")) {
      throw new BridgeException(
          BridgeException.Kind.CONFIG, "The connector 'memory' is built in", null);
    }
    connectors.register(connector, factory);
  }

  /**
   * Adds a function written in Java to this environment's SQL as {@code name}: the class follows
   * Flink's convention, public {@code eval} methods (overloads allowed, boxed types where NULL may
   * come), called on a new instance of the class made with its public constructor without arguments
   * (none when every {@code eval} is static). See docs/functions.md for the types.
   *
   * @param name the function's name in SQL (matched without regard to case)
   * @param cls the class
   * @throws BridgeException of kind {@code CATALOG} when a function has the name, {@code CONFIG}
   *     when the class has no usable {@code eval} method or cannot be instantiated
   */
  public void createFunction(String name, Class<?> cls) {
    Calls.run(() -> session.createJavaFunction(name, cls, null, false));
  }

  /**
   * Adds {@code instance}'s public {@code eval} methods to this environment's SQL as function
   * {@code name}, called on that instance (from the threads that run statements: it must be safe to
   * call from several threads when statements run at once).
   *
   * @param name the function's name in SQL (matched without regard to case)
   * @param instance the object whose {@code eval} methods compute the function
   * @throws BridgeException of kind {@code CATALOG} when a function has the name, {@code CONFIG}
   *     when the object has no usable {@code eval} method
   */
  public void createFunction(String name, Object instance) {
    if (instance instanceof Class<?> cls) {
      createFunction(name, cls);
      return;
    }
    Calls.run(() -> session.createJavaFunction(name, instance.getClass(), instance, false));
  }

  /**
   * Drops the function {@code name}, of whatever language.
   *
   * @param name the function's name
   * @return whether there was such a function
   */
  public boolean dropFunction(String name) {
    return Calls.get(() -> session.dropFunction(name));
  }

  /**
   * Names of the tables and views.
   *
   * @return the names, sorted
   */
  public List<String> tables() {
    String[] names = session.tableNames();
    Arrays.sort(names);
    return List.of(names);
  }

  /** Drops every table and view of this environment; it can be used again afterwards, empty. */
  @Override
  public void close() {
    session.close();
  }
}

package io.calcitebridge.facade;

import io.calcitebridge.api.BridgeException;
import io.calcitebridge.catalog.Catalog;
import io.calcitebridge.connector.ConnectorFactory;
import io.calcitebridge.connector.PythonSource;
import io.calcitebridge.exec.ArrowResults;
import io.calcitebridge.exec.RowSet;
import io.calcitebridge.exec.StatementExecutor;
import io.calcitebridge.plan.PlannerContext;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParseException;

/**
 * The entry point Python calls: one per environment, with its own catalog and configuration. Every
 * method takes and returns plain values (strings, numbers, Arrow C struct addresses), and
 * statements run on a {@link Workers} thread; callers poll the returned {@link Pending}.
 */
public final class BridgeSession implements AutoCloseable {
  /** The version of this jar; Python checks it equals its own. */
  public static final String VERSION = "0.1.0";

  private final Catalog catalog = new Catalog();
  private final SessionConfig config = new SessionConfig();
  private final PlannerContext context = new PlannerContext(catalog, config);

  public static String version() {
    return VERSION;
  }

  /** Parses, validates, plans and runs {@code SELECT 1} on a worker, loading Calcite's classes. */
  public static Pending<Long> warmUp() {
    return Workers.submit(
        () -> {
          BridgeSession s = new BridgeSession();
          try (StatementResult r = s.run("SELECT 1 AS x", new AtomicBoolean(), false)) {
            return r.address();
          }
        });
  }

  /** Stops the workers as the process exits; see {@link Workers#quiesce}. */
  public static boolean quiesce(long millis) throws InterruptedException {
    return Workers.quiesce(millis);
  }

  /** Runs any statement. */
  public Pending<StatementResult> execute(String sql) {
    return Workers.submit(cancel -> run(sql, cancel, false));
  }

  /** Runs a query ({@code SELECT}, {@code WITH}, {@code VALUES}); anything else is an error. */
  public Pending<StatementResult> query(String sql) {
    return Workers.submit(cancel -> run(sql, cancel, true));
  }

  /** Runs every statement of a script in order; returns how many ran. */
  public Pending<Integer> executeScript(String sql) {
    return Workers.submit(
        cancel -> {
          List<SqlNode> nodes = parseAll(sql);
          for (SqlNode node : nodes) {
            RowSet rows = new StatementExecutor(context, cancel).execute(node, sql);
            rows.rows().enumerator().close();
          }
          return nodes.size();
        });
  }

  /** The plan of a query or INSERT as {@code text}, {@code json} or {@code dot}. */
  public Pending<String> explain(String sql, String format) {
    return Workers.submit(
        cancel -> new StatementExecutor(context, cancel).withSql(sql).explain(parse(sql), format));
  }

  /** Validates a query; returns the address of an exported Arrow schema of its result. */
  public Pending<StatementResult> validate(String sql) {
    return Workers.submit(
        cancel -> {
          SqlNode node = requireQuery(parse(sql));
          var rowType = new StatementExecutor(context, cancel).withSql(sql).validate(node);
          return new StatementResult(
              "schema", ArrowResults.export(RowSet.of("schema", rowType, List.of())));
        });
  }

  public void setConfig(String key, String value) {
    config.set(key, value);
  }

  public void resetConfig(String key) {
    config.reset(key);
  }

  public String getConfig(String key) {
    return config.get(key);
  }

  /** Every setting as {@code key=value} lines. */
  public String[] configEntries() {
    return config.all().entrySet().stream()
        .map(e -> e.getKey() + "=" + e.getValue())
        .toArray(String[]::new);
  }

  /** Bytes of Arrow memory the bridge holds (0 once Python dropped every result). */
  public static long allocatedBytes() {
    return ArrowResults.allocatedBytes();
  }

  /** Registers a Python source as table {@code name}; its columns are the source's schema. */
  public void registerSource(String name, PythonSource source, boolean replace) {
    try {
      ArrowResults.registerSource(context, name, source, replace);
    } catch (RuntimeException e) {
      throw Errors.translate(e);
    }
  }

  /** Sets the factory of the connectors implemented in Python ({@code filesystem}, ...). */
  public void setConnectorFactory(ConnectorFactory factory) {
    context.setConnectorFactory(factory);
  }

  /** Names of the tables and views. */
  public String[] tableNames() {
    return catalog.names().toArray(new String[0]);
  }

  private StatementResult run(String sql, AtomicBoolean cancel, boolean queryOnly) {
    SqlNode node = parse(sql);
    if (queryOnly) {
      requireQuery(node);
    }
    RowSet rows = new StatementExecutor(context, cancel).execute(node, sql);
    return new StatementResult(rows.kind(), ArrowResults.export(rows));
  }

  private SqlNode parse(String sql) {
    try {
      return context.parseStatement(sql);
    } catch (SqlParseException e) {
      throw Errors.translate(e);
    }
  }

  private List<SqlNode> parseAll(String sql) {
    try {
      return context.parseStatements(sql);
    } catch (SqlParseException e) {
      throw Errors.translate(e);
    }
  }

  private static SqlNode requireQuery(SqlNode node) {
    if (!node.isA(SqlKind.QUERY)) {
      throw new PositionedException(
          BridgeException.Kind.VALIDATION,
          "Expected a query (SELECT, WITH or VALUES), got "
              + node.getKind()
              + "; use execute() for other statements",
          node.getParserPosition());
    }
    return node;
  }

  @Override
  public void close() {
    for (String name : catalog.names()) {
      catalog.drop(name, catalog.view(name) != null, true);
    }
  }
}

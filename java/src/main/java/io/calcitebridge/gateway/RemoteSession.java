package io.calcitebridge.gateway;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.calcitebridge.errors.Errors;
import io.calcitebridge.facade.BridgeSession;
import io.calcitebridge.facade.Pending;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A {@link BridgeSession} for a Python client in another process. Statements are named by numbers
 * rather than handed out as objects, so that a statement costs no extra round trip to free: {@code
 * execute}, {@code query}, {@code validate}, {@code explain} and {@code executeScript} start one
 * and return its number, and {@link #fetch} reads its answer in slices of time (see {@link
 * RemoteStatement}). Every failure is a {@link io.calcitebridge.errors.BridgeError} with its kind
 * and SQL position.
 */
public final class RemoteSession implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final BridgeSession session = new BridgeSession();
  private final Map<Long, RemoteStatement> statements = new ConcurrentHashMap<>();
  private final AtomicLong ids = new AtomicLong();

  private long start(Supplier<Pending<?>> statement) {
    Pending<?> pending = translated(statement);
    long id = ids.incrementAndGet();
    statements.put(id, new RemoteStatement(pending));
    return id;
  }

  /** Runs any statement; its rows come as chunks of an IPC stream. */
  public long execute(String sql) {
    return start(() -> session.execute(sql));
  }

  /** Runs a query; anything else fails. */
  public long query(String sql) {
    return start(() -> session.query(sql));
  }

  /** Runs a query on {@code backend}, which only Calcite's engine can be here. */
  public long query(String sql, String backend) {
    return start(() -> session.query(sql, backend));
  }

  /**
   * Runs a query on {@code backend} (null: the environment's), stopped after {@code timeout} (a
   * duration such as {@code '30 s'}; null: the environment's {@code execution.timeout}).
   */
  public long query(String sql, String backend, String timeout) {
    return start(() -> session.query(sql, backend, timeout));
  }

  /**
   * Runs any statement, stopped after {@code timeout} (see {@link #query(String, String, String)}).
   */
  public long execute(String sql, String timeout) {
    return start(() -> session.execute(sql, timeout));
  }

  /**
   * Runs a query with {@code parameters} (a JSON list, see {@link
   * io.calcitebridge.statement.Parameters#fromJson}) bound to its {@code ?} placeholders.
   */
  public long queryWithParameters(String sql, String backend, String timeout, String parameters) {
    return start(() -> session.queryWithParameters(sql, backend, timeout, parameters));
  }

  /** Runs any statement with {@code parameters} bound to its {@code ?} placeholders. */
  public long executeWithParameters(String sql, String timeout, String parameters) {
    return start(() -> session.executeWithParameters(sql, timeout, parameters));
  }

  /** The plan of a statement with {@code parameters} bound; its answer is the plan's text. */
  public long explainWithParameters(String sql, String format, String backend, String parameters) {
    return start(() -> session.explainWithParameters(sql, format, backend, parameters));
  }

  /** The types inferred for a query's {@code ?} placeholders; its answer is a JSON list. */
  public long parameterTypes(String sql) {
    return start(() -> session.parameterTypes(sql));
  }

  /** Validates a query; its answer is an IPC stream of the result's schema, without batches. */
  public long validate(String sql) {
    return start(() -> session.validate(sql));
  }

  /** The plan of a query or INSERT; its answer is the plan's text. */
  public long explain(String sql, String format) {
    return start(() -> session.explain(sql, format));
  }

  /** As {@link #explain(String, String)}, for the plan {@code backend} would run. */
  public long explain(String sql, String format, String backend) {
    return start(() -> session.explain(sql, format, backend));
  }

  /** Runs a script; its answer is the number of statements that ran, as text. */
  public long executeScript(String sql) {
    return start(() -> session.executeScript(sql));
  }

  /** A script's dry run; its answer is the JSON list {@code BridgeSession.checkScript} gives. */
  public long checkScript(String sql, boolean plans) {
    return start(() -> session.checkScript(sql, plans));
  }

  /**
   * The next part of statement {@code id}'s answer, in base64, waiting up to {@code millis}: null
   * when it is not ready yet, empty when there is nothing more (or no such statement). Base64 text
   * rather than a byte array, because py4j's Python side decodes byte arrays a byte at a time.
   */
  public @Nullable String fetch(long id, long millis, int chunkBytes) {
    RemoteStatement statement = statements.get(id);
    if (statement == null) {
      return "";
    }
    try {
      byte[] answer = statement.fetch(millis, chunkBytes);
      if (answer != null && statement.finished()) {
        statements.remove(id);
      }
      return answer == null ? null : Base64.getEncoder().encodeToString(answer);
    } catch (RuntimeException | Error e) {
      statements.remove(id);
      statement.cancel();
      throw Errors.translate(e);
    }
  }

  /** Cancels statement {@code id} (Ctrl-C in Python), or drops the rest of its rows. */
  public void cancel(long id) {
    RemoteStatement statement = statements.remove(id);
    if (statement != null) {
      statement.cancel();
    }
  }

  public void setConfig(String key, String value) {
    run(() -> session.setConfig(key, value));
  }

  public String getConfig(String key) {
    return translated(() -> session.getConfig(key));
  }

  public void resetConfig(@Nullable String key) {
    run(() -> session.resetConfig(key));
  }

  /** Every setting, as a JSON array of {@code key=value} strings. */
  public String configEntries() {
    return json(List.of(session.configEntries()));
  }

  /** Names of the tables and views, as a JSON array. */
  public String tableNames() {
    return json(List.of(session.tableNames()));
  }

  /** Registers a Python source of the client as table {@code name}. */
  public void registerSource(String name, RemoteSource source, boolean replace) {
    run(() -> session.registerSource(name, new RemoteSourceAdapter(source), replace));
  }

  /** Sets the factory of the client's connectors written in Python. */
  public void setConnectorFactory(RemoteConnectorFactory factory) {
    run(() -> session.setConnectorFactory(new RemoteConnectorAdapter(factory)));
  }

  /** Cancels what still runs and drops every table. */
  @Override
  public void close() {
    for (Long id : List.copyOf(statements.keySet())) {
      cancel(id);
    }
    run(session::close);
  }

  private static void run(Runnable action) {
    translated(
        () -> {
          action.run();
          return null;
        });
  }

  private static <T> T translated(Supplier<T> action) {
    try {
      return action.get();
    } catch (RuntimeException | Error e) {
      throw Errors.translate(e);
    }
  }

  private static String json(Object value) {
    try {
      return JSON.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}

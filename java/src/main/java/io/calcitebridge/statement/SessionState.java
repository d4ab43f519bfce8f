package io.calcitebridge.statement;

import io.calcitebridge.catalog.Catalog;
import io.calcitebridge.connector.ConnectorFactory;
import io.calcitebridge.plan.PlannerContext;
import io.calcitebridge.vector.ArrowAggregateRule;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * What one environment's statements run against: its catalog, its settings, the planner context
 * built from them, and the factory of the connectors implemented in Python.
 */
public final class SessionState {
  private final Catalog catalog = new Catalog();
  private final SessionConfig config = new SessionConfig();
  private final PlannerContext planner =
      new PlannerContext(
          catalog,
          config::expansionStrategy,
          () ->
              org.apache.calcite.tools.Programs.sequence(
                  ArrowAggregateRule.PROGRAM, io.calcitebridge.udf.PythonBatchRule.PROGRAM));
  private volatile @Nullable ConnectorFactory connectorFactory;
  private volatile io.calcitebridge.udf.@Nullable FunctionLoader functionLoader;

  static {
    io.calcitebridge.udf.PythonCalls.install();
  }

  private volatile java.util.Set<String> hostBackends = java.util.Set.of("enumerable");
  private final PlanCache planCache = new PlanCache(catalog, config, this::hostBackends);

  private final java.util.Map<String, MaterializedTable> materialized =
      new java.util.concurrent.ConcurrentHashMap<>();

  private final java.util.Map<String, String> functionHomes =
      new java.util.concurrent.ConcurrentHashMap<>();

  public Catalog catalog() {
    return catalog;
  }

  /**
   * The database ({@code catalog.database}) each function made by CREATE [TEMPORARY] FUNCTION was
   * created in, by its name in lower case: the database whose SHOW FUNCTIONS lists it.
   */
  public java.util.Map<String, String> functionHomes() {
    return functionHomes;
  }

  /** The materialized tables, by their full name ({@code catalog.database.name}). */
  public java.util.Map<String, MaterializedTable> materialized() {
    return materialized;
  }

  public SessionConfig config() {
    return config;
  }

  public PlannerContext planner() {
    return planner;
  }

  /** The statements planned before, by text and what their plans depend on. */
  public PlanCache planCache() {
    return planCache;
  }

  /** The factory of Python-implemented connectors, or null before Python registered one. */
  public @Nullable ConnectorFactory connectorFactory() {
    return connectorFactory;
  }

  /** The loader of the Python functions CREATE FUNCTION names, or null before Python set one. */
  public io.calcitebridge.udf.@Nullable FunctionLoader functionLoader() {
    return functionLoader;
  }

  public void setFunctionLoader(io.calcitebridge.udf.@Nullable FunctionLoader loader) {
    this.functionLoader = loader;
  }

  public void setConnectorFactory(@Nullable ConnectorFactory factory) {
    this.connectorFactory = factory;
  }

  /**
   * The backends the process that reads the results can run: the JVM's own engine always, DuckDB
   * only when Python reads them in this process (it runs there).
   */
  public java.util.Set<String> hostBackends() {
    return hostBackends;
  }

  public void setHostBackends(java.util.Set<String> backends) {
    java.util.Set<String> all = new java.util.TreeSet<>(backends);
    all.add("enumerable");
    this.hostBackends = java.util.Set.copyOf(all);
  }
}

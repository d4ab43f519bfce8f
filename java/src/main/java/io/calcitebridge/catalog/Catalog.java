package io.calcitebridge.catalog;

import io.calcitebridge.errors.CatalogException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.calcite.DataContext;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.AbstractSchema;
import org.apache.calcite.util.BuiltInMethod;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The tables and views of one environment. Safe for concurrent use: lookups read a concurrent map,
 * and every change replaces one entry.
 */
public final class Catalog {
  private final Map<String, Table> tables = new ConcurrentHashMap<>();
  private final Map<String, ViewDef> views = new ConcurrentHashMap<>();
  private final CalciteSchema rootSchema =
      CalciteSchema.createRootSchema(false, false, "", new CatalogSchema());
  private final java.util.concurrent.atomic.AtomicLong version =
      new java.util.concurrent.atomic.AtomicLong();
  private final List<Runnable> listeners = new java.util.concurrent.CopyOnWriteArrayList<>();

  /** A number that changes whenever a table or view is added, replaced or dropped. */
  public long version() {
    return version.get();
  }

  /** Runs {@code listener} after each change that {@link #version} counts. */
  public void onChange(Runnable listener) {
    listeners.add(listener);
  }

  private void changed() {
    version.incrementAndGet();
    listeners.forEach(Runnable::run);
  }

  /** The Calcite schema that holds every table and view. */
  public CalciteSchema rootSchema() {
    return rootSchema;
  }

  /** Adds a table; fails when the name is taken, unless {@code ifNotExists}. */
  public synchronized boolean addTable(String name, Table table, boolean ifNotExists) {
    if (tables.containsKey(name)) {
      if (ifNotExists) {
        return false;
      }
      throw new CatalogException(
          (views.containsKey(name) ? "View" : "Table") + " '" + name + "' already exists");
    }
    tables.put(name, table);
    changed();
    return true;
  }

  /** Adds a view; fails when the name is taken, unless {@code ifNotExists}. */
  public synchronized boolean addView(ViewDef view, Table table, boolean ifNotExists) {
    if (!addTable(view.name(), table, ifNotExists)) {
      return false;
    }
    views.put(view.name(), view);
    changed();
    return true;
  }

  /** Removes a table (or a view when {@code view}); returns whether it existed. */
  public synchronized boolean drop(String name, boolean view, boolean ifExists) {
    Table t = tables.get(name);
    boolean isView = views.containsKey(name);
    if (t == null || isView != view) {
      if (ifExists && t == null) {
        return false;
      }
      if (t != null) {
        throw new CatalogException(
            "'"
                + name
                + "' is a "
                + (isView ? "view" : "table")
                + "; use DROP "
                + (isView ? "VIEW" : "TABLE"));
      }
      throw new CatalogException((view ? "View" : "Table") + " '" + name + "' does not exist");
    }
    tables.remove(name);
    views.remove(name);
    changed();
    if (t instanceof CatalogTable) {
      ((CatalogTable) t).close();
    }
    return true;
  }

  /** The table named {@code name}, or null. */
  public @Nullable Table table(String name) {
    return tables.get(name);
  }

  /** The view named {@code name}, or null. */
  public @Nullable ViewDef view(String name) {
    return views.get(name);
  }

  /** The table named {@code name}; fails with a catalog error naming it when it is missing. */
  public Table require(String name) {
    Table t = tables.get(name);
    if (t == null) {
      throw new CatalogException("Table '" + name + "' does not exist");
    }
    return t;
  }

  /** Table and view names, sorted. */
  public List<String> names() {
    List<String> names = new ArrayList<>(tables.keySet());
    Collections.sort(names);
    return names;
  }

  /** Exposes the concurrent table map to Calcite. */
  private final class CatalogSchema extends AbstractSchema {
    @Override
    protected Map<String, Table> getTableMap() {
      return tables;
    }

    @Override
    public boolean isMutable() {
      return false;
    }

    @Override
    public Expression getExpression(@Nullable SchemaPlus parentSchema, String name) {
      return Expressions.call(DataContext.ROOT, BuiltInMethod.DATA_CONTEXT_GET_ROOT_SCHEMA.method);
    }
  }
}

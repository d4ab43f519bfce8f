package io.calcitebridge.validate;

import io.calcitebridge.catalog.CatalogTable;
import io.calcitebridge.catalog.ColumnDef;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The field-discovery state of one statement: the catalog tables it reads (the tables in scope) and
 * the columns discovered for them. Calcite resolves tables straight from the schema, so the state
 * reaches the catalog tables through the planning thread while the statement is planned.
 */
public final class DiscoveryScope {
  private static final ThreadLocal<@Nullable DiscoveryScope> CURRENT = new ThreadLocal<>();

  private final Map<String, CatalogTable> seen = new LinkedHashMap<>();
  private final Map<String, List<ColumnDef>> discovered = new LinkedHashMap<>();

  /** The scope of the statement being planned on this thread, or null. */
  public static @Nullable DiscoveryScope current() {
    return CURRENT.get();
  }

  /** Makes this the current scope until the returned handle is closed. */
  public Entered enter() {
    DiscoveryScope previous = CURRENT.get();
    CURRENT.set(this);
    return () -> CURRENT.set(previous);
  }

  /** Restores the previous scope. */
  public interface Entered extends AutoCloseable {
    @Override
    void close();
  }

  /** Records that the statement reads {@code table}. */
  public void saw(CatalogTable table) {
    seen.putIfAbsent(table.def().name(), table);
  }

  /** Columns discovered for table {@code name}, or null. */
  public @Nullable List<ColumnDef> discovered(String name) {
    return discovered.get(name);
  }

  /** The catalog tables the statement has read, by name. */
  public Map<String, CatalogTable> seen() {
    return seen;
  }

  /** Adds a discovered column to {@code table} for the rest of the statement. */
  public void addDiscovered(String table, ColumnDef column) {
    discovered.computeIfAbsent(table, t -> new ArrayList<>()).add(column);
  }
}

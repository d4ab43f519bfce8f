package io.calcitebridge.catalog;

import io.calcitebridge.errors.CatalogException;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.calcite.DataContext;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.schema.Schema;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.AbstractSchema;
import org.apache.calcite.util.BuiltInMethod;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The catalogs, databases, tables and views of one environment, as Flink has them: an environment
 * starts in {@code default_catalog.default_database}, and every name without a catalog or database
 * is taken in the current ones. Safe for concurrent use: lookups read concurrent maps, and every
 * change replaces one entry.
 *
 * <p>Calcite sees one sub-schema per catalog holding one sub-schema per database; the root schema
 * also shows the current database's tables, so a name of one part resolves there as before.
 */
public final class Catalog {
  /** The catalog an environment starts in. */
  public static final String DEFAULT_CATALOG = "default_catalog";

  /** The database an environment starts in, in {@link #DEFAULT_CATALOG}. */
  public static final String DEFAULT_DATABASE = "default_database";

  /** The default database of a catalog made by CREATE CATALOG without 'default-database'. */
  public static final String CATALOG_DEFAULT_DATABASE = "default";

  /** The full name of a table or view: catalog, database and object name. */
  public record Path(String catalog, String database, String name) {
    /** The name as Flink prints it: {@code catalog.database.name}. */
    @Override
    public String toString() {
      return catalog + "." + database + "." + name;
    }
  }

  /** One database: its comment, properties, tables and views. */
  public static final class Database {
    private final String name;
    private volatile String comment;
    private final Map<String, String> properties = Collections.synchronizedMap(new TreeMap<>());
    private final Map<String, Table> tables = new ConcurrentHashMap<>();
    private final Map<String, ViewDef> views = new ConcurrentHashMap<>();
    // CREATE TEMPORARY TABLE|VIEW: a name here shadows a permanent table or view of the name.
    private final Map<String, Table> tempTables = new ConcurrentHashMap<>();
    private final Map<String, ViewDef> tempViews = new ConcurrentHashMap<>();
    private final Map<String, Table> visible = new Shadowed(tempTables, tables);
    private final Schema schema = new TableMapSchema(visible);

    Database(String name, @Nullable String comment, Map<String, String> properties) {
      this.name = name;
      this.comment = comment;
      this.properties.putAll(properties);
    }

    public String name() {
      return name;
    }

    public @Nullable String comment() {
      return comment;
    }

    public void setComment(@Nullable String comment) {
      this.comment = comment;
    }

    /** The properties of WITH (...), sorted by key; a live map. */
    public Map<String, String> properties() {
      return properties;
    }

    /** Table and view names, temporary and permanent, each once, sorted. */
    public List<String> names() {
      java.util.TreeSet<String> names = new java.util.TreeSet<>(tables.keySet());
      names.addAll(tempTables.keySet());
      return new ArrayList<>(names);
    }

    /** View names, temporary and permanent, each once, sorted. */
    public List<String> viewNames() {
      java.util.TreeSet<String> names = new java.util.TreeSet<>(views.keySet());
      names.addAll(tempViews.keySet());
      return new ArrayList<>(names);
    }

    /** Every table here, temporary and permanent, a permanent one a temporary one shadows too. */
    public List<Table> allTables() {
      List<Table> all = new ArrayList<>(tables.values());
      all.addAll(tempTables.values());
      return all;
    }

    /** Whether {@code name} is a temporary table or view here. */
    public boolean isTemporary(String name) {
      return tempTables.containsKey(name);
    }

    public boolean isEmpty() {
      return tables.isEmpty();
    }
  }

  /** One catalog: its options (with 'type'), comment and databases. */
  public static final class CatalogEntry {
    private final String name;
    private volatile @Nullable String comment;
    private final Map<String, String> options = Collections.synchronizedMap(new TreeMap<>());
    private final Map<String, Database> databases = new ConcurrentHashMap<>();
    // The temporary tables and views of dropped databases, as Flink keeps them: still read by
    // name (db.t), and listed again by the database made anew under the name.
    private final Map<String, Database> dropped = new ConcurrentHashMap<>();
    private final Map<String, Schema> schemas = new ConcurrentHashMap<>();
    private final Schema schema = new CatalogSchema(schemas);
    private final String defaultDatabase;

    CatalogEntry(
        String name, @Nullable String comment, Map<String, String> options, String defaultDb) {
      this.name = name;
      this.comment = comment;
      this.options.putAll(options);
      this.defaultDatabase = defaultDb;
    }

    public String name() {
      return name;
    }

    public @Nullable String comment() {
      return comment;
    }

    public void setComment(@Nullable String comment) {
      this.comment = comment;
    }

    /** The options of WITH (...), sorted by key; a live map. */
    public Map<String, String> options() {
      return options;
    }

    /** The database USE CATALOG switches to. */
    public String defaultDatabase() {
      return defaultDatabase;
    }

    public @Nullable Database database(String db) {
      return databases.get(db);
    }

    /** Database names, sorted. */
    public List<String> databaseNames() {
      List<String> names = new ArrayList<>(databases.keySet());
      Collections.sort(names);
      return names;
    }

    void put(Database db) {
      Database before = dropped.remove(db.name);
      if (before != null) {
        db.tempTables.putAll(before.tempTables);
        db.tempViews.putAll(before.tempViews);
      }
      databases.put(db.name, db);
      schemas.put(db.name, db.schema);
    }

    void remove(String db) {
      schemas.remove(db);
      Database gone = databases.remove(db);
      if (gone != null && !gone.tempTables.isEmpty()) {
        Database kept = new Database(db, null, Map.of());
        kept.tempTables.putAll(gone.tempTables);
        kept.tempViews.putAll(gone.tempViews);
        dropped.put(db, kept);
        schemas.put(db, kept.schema);
      }
    }
  }

  private final Map<String, CatalogEntry> catalogs = new ConcurrentHashMap<>();
  private final Map<String, Schema> catalogSchemas = new ConcurrentHashMap<>();
  private volatile CatalogEntry currentCatalog;
  private volatile Database current;
  private final CalciteSchema rootSchema;
  private final java.util.concurrent.atomic.AtomicLong version =
      new java.util.concurrent.atomic.AtomicLong();
  private final List<Runnable> listeners = new java.util.concurrent.CopyOnWriteArrayList<>();

  public Catalog() {
    // No options: like Flink's, the default catalog was not made by CREATE CATALOG.
    CatalogEntry entry = new CatalogEntry(DEFAULT_CATALOG, null, Map.of(), DEFAULT_DATABASE);
    Database db = new Database(DEFAULT_DATABASE, null, Map.of());
    entry.put(db);
    catalogs.put(DEFAULT_CATALOG, entry);
    catalogSchemas.put(DEFAULT_CATALOG, entry.schema);
    currentCatalog = entry;
    current = db;
    rootSchema =
        CalciteSchema.createRootSchema(
            false, false, "", new RootSchema(new CurrentTables(), catalogSchemas));
  }

  // ------------------------------------------------------------------ modules

  private final List<String> modules =
      new java.util.concurrent.CopyOnWriteArrayList<>(List.of("core"));
  private final List<String> usedModules =
      new java.util.concurrent.CopyOnWriteArrayList<>(List.of("core"));

  /** The loaded modules, in load order (Flink's {@code core} to start with). */
  public List<String> modules() {
    return List.copyOf(modules);
  }

  /** The modules in use, in the order of USE MODULES. */
  public List<String> usedModules() {
    return List.copyOf(usedModules);
  }

  /** LOAD MODULE: loads and uses {@code name}. */
  public synchronized void loadModule(String name) {
    if (modules.contains(name)) {
      throw new CatalogException("A module with name '" + name + "' already exists");
    }
    modules.add(name);
    usedModules.add(name);
  }

  /** UNLOAD MODULE. */
  public synchronized void unloadModule(String name) {
    if (!modules.remove(name)) {
      throw new CatalogException("No module with name '" + name + "' exists");
    }
    usedModules.remove(name);
  }

  /** USE MODULES: uses {@code names}, in that order, and no other. */
  public synchronized void useModules(List<String> names) {
    Set<String> seen = new java.util.HashSet<>();
    for (String n : names) {
      if (!modules.contains(n)) {
        throw new CatalogException("No module with name '" + n + "' exists");
      }
      if (!seen.add(n)) {
        throw new CatalogException("Module '" + n + "' appears more than once");
      }
    }
    usedModules.clear();
    usedModules.addAll(names);
  }

  /** A number that changes whenever a table, view, database or catalog changes. */
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

  /** The Calcite schema that holds every catalog (and the current database's tables). */
  public CalciteSchema rootSchema() {
    return rootSchema;
  }

  // ------------------------------------------------------------------ catalogs and databases

  /** The current catalog's name. */
  public String currentCatalog() {
    return currentCatalog.name;
  }

  /** The current database's name. */
  public String currentDatabase() {
    return current.name;
  }

  /** The schema path names resolve in: the current catalog and database. */
  public List<String> currentPath() {
    return List.of(currentCatalog.name, current.name);
  }

  /** Catalog names, sorted. */
  public List<String> catalogNames() {
    List<String> names = new ArrayList<>(catalogs.keySet());
    Collections.sort(names);
    return names;
  }

  public @Nullable CatalogEntry catalog(String name) {
    return catalogs.get(name);
  }

  /** The database {@code db} of catalog {@code catalog}, or null when either is missing. */
  public @Nullable Database database(String catalog, String db) {
    CatalogEntry c = catalogs.get(catalog);
    return c == null ? null : c.database(db);
  }

  /** Adds a catalog with its default database; false when it exists and {@code ifNotExists}. */
  public synchronized boolean addCatalog(
      String name,
      @Nullable String comment,
      Map<String, String> options,
      String defaultDatabase,
      boolean ifNotExists) {
    if (catalogs.containsKey(name)) {
      if (ifNotExists) {
        return false;
      }
      throw new CatalogException("Catalog " + name + " already exists.");
    }
    CatalogEntry entry = new CatalogEntry(name, comment, options, defaultDatabase);
    entry.put(new Database(defaultDatabase, null, Map.of()));
    catalogs.put(name, entry);
    catalogSchemas.put(name, entry.schema);
    changed();
    return true;
  }

  /** Drops a catalog and everything in it; the current catalog cannot be dropped. */
  public synchronized boolean dropCatalog(String name, boolean ifExists) {
    CatalogEntry entry = catalogs.get(name);
    if (entry == null) {
      if (ifExists) {
        return false;
      }
      throw new CatalogException("Catalog " + name + " does not exist.");
    }
    if (entry == currentCatalog) {
      throw new CatalogException("Cannot drop a catalog which is currently in use.");
    }
    catalogSchemas.remove(name);
    catalogs.remove(name);
    changed();
    for (Database db : entry.databases.values()) {
      closeAll(db);
    }
    return true;
  }

  /** Adds a database to {@code catalog}; false when it exists and {@code ifNotExists}. */
  public synchronized boolean addDatabase(
      CatalogEntry catalog,
      String name,
      @Nullable String comment,
      Map<String, String> properties,
      boolean ifNotExists) {
    if (catalog.database(name) != null) {
      if (ifNotExists) {
        return false;
      }
      throw new CatalogException(
          "Database " + name + " already exists in Catalog " + catalog.name + ".");
    }
    catalog.put(new Database(name, comment, properties));
    changed();
    return true;
  }

  /**
   * Drops a database of {@code catalog}: one with tables or views only with {@code cascade}; the
   * current database too, as Flink's gateway does.
   */
  public synchronized boolean dropDatabase(
      CatalogEntry catalog, String name, boolean ifExists, boolean cascade) {
    Database db = catalog.database(name);
    if (db == null) {
      if (ifExists) {
        return false;
      }
      throw new CatalogException(
          "Database " + name + " does not exist in Catalog " + catalog.name + ".");
    }
    if (!db.isEmpty() && !cascade) {
      throw new CatalogException(
          "Database " + name + " in catalog " + catalog.name + " is not empty.");
    }
    catalog.remove(name);
    if (db == current) {
      // As Flink's gateway: the current database may be dropped; it stays current (empty), and
      // what names an object in it fails until USE.
      current = new Database(name, null, Map.of());
    }
    changed();
    // As in Flink, the temporary tables and views are not the catalog's: they outlive it.
    for (Table t : db.tables.values()) {
      if (t instanceof CatalogTable) {
        ((CatalogTable) t).close();
      }
    }
    return true;
  }

  /**
   * Fails when the current catalog or database was dropped (Flink keeps it current, and a statement
   * on it fails with this message).
   */
  public void checkCurrent() {
    CatalogEntry c = currentCatalog;
    if (catalogs.get(c.name) != c) {
      throw new CatalogException("Catalog " + c.name + " does not exist");
    }
    if (c.database(current.name) != current) {
      throw new CatalogException(
          "Database " + current.name + " does not exist in Catalog " + c.name + ".");
    }
  }

  /** Records a change to a catalog's or database's comment or options. */
  public void touched() {
    changed();
  }

  /** Makes {@code catalog} current, with its default database. */
  public synchronized void useCatalog(CatalogEntry catalog) {
    Database db = catalog.database(catalog.defaultDatabase);
    if (db == null) {
      throw new CatalogException(
          "The default database "
              + catalog.defaultDatabase
              + " of catalog "
              + catalog.name
              + " does not exist.");
    }
    currentCatalog = catalog;
    current = db;
  }

  /** Makes {@code db} of the current catalog current. */
  public synchronized void useDatabase(Database db) {
    current = db;
  }

  private static void closeAll(Database db) {
    List<Table> all = new ArrayList<>(db.tables.values());
    all.addAll(db.tempTables.values());
    for (Table t : all) {
      if (t instanceof CatalogTable) {
        ((CatalogTable) t).close();
      }
    }
  }

  /**
   * The path of a table or view named by one, two or three parts: the current catalog and database
   * fill in what is not written. Null when a written catalog or database is missing.
   */
  public @Nullable Path path(List<String> names) {
    CatalogEntry c = currentCatalog;
    Database d = current;
    switch (names.size()) {
      case 1:
        return new Path(c.name, d.name, names.get(0));
      case 2:
        return new Path(c.name, names.get(0), names.get(1));
      case 3:
        return new Path(names.get(0), names.get(1), names.get(2));
      default:
        return null;
    }
  }

  private Database databaseOf(Path path) {
    CatalogEntry c = catalogs.get(path.catalog());
    if (c == null) {
      throw new CatalogException("Catalog " + path.catalog() + " does not exist");
    }
    Database d = c.database(path.database());
    if (d == null) {
      throw new CatalogException(
          "Database " + path.database() + " does not exist in Catalog " + path.catalog() + ".");
    }
    return d;
  }

  // ------------------------------------------------------------------ tables and views

  /** Adds a table to the current database; fails when the name is taken, unless ifNotExists. */
  public boolean addTable(String name, Table table, boolean ifNotExists) {
    return addTable(current, name, table, ifNotExists);
  }

  /** Adds a table at {@code path}. */
  public boolean addTable(Path path, Table table, boolean ifNotExists) {
    return addTable(databaseOf(path), path.name(), table, ifNotExists);
  }

  /**
   * Adds a temporary table ({@code view} null) or view at {@code path}: it hides a permanent one of
   * the name, as in Flink; fails when a temporary one has the name, unless {@code ifNotExists}.
   */
  public synchronized boolean addTemporary(
      Path path, @Nullable ViewDef view, Table table, boolean ifNotExists) {
    Database db = holder(path, true);
    if (db == null) {
      throw new CatalogException("Catalog " + path.catalog() + " does not exist");
    }
    if (db.tempTables.containsKey(path.name())) {
      if (ifNotExists) {
        return false;
      }
      throw new CatalogException("Temporary table '" + quotedPath(path) + "' already exists");
    }
    db.tempTables.put(path.name(), table);
    if (view != null) {
      db.tempViews.put(path.name(), view);
    }
    changed();
    return true;
  }

  /**
   * Drops the temporary table or view at {@code path} (DROP TEMPORARY TABLE|VIEW); returns whether
   * it existed.
   */
  public synchronized boolean dropTemporary(Path path, boolean view, boolean ifExists) {
    Database db = holder(path, false);
    Table t = db == null ? null : db.tempTables.get(path.name());
    boolean isView = db != null && db.tempViews.containsKey(path.name());
    if (t == null || isView != view) {
      if (ifExists) {
        return false;
      }
      throw new CatalogException(
          "Temporary "
              + (view ? "view" : "table")
              + " with identifier '"
              + quotedPath(path)
              + "' does not exist.");
    }
    db.tempTables.remove(path.name());
    db.tempViews.remove(path.name());
    changed();
    if (t instanceof CatalogTable) {
      ((CatalogTable) t).close();
    }
    return true;
  }

  /**
   * The database that holds the temporary tables and views at {@code path}: the database, or, as
   * Flink does not require it to exist (nor to outlive them), the holder of those of a database
   * that was dropped or never made, created when {@code create}. Null when there is none, or the
   * catalog does not exist.
   */
  private @Nullable Database holder(Path path, boolean create) {
    CatalogEntry c = catalogs.get(path.catalog());
    if (c == null) {
      return null;
    }
    Database db = c.database(path.database());
    if (db != null) {
      return db;
    }
    db = c.dropped.get(path.database());
    if (db == null && create) {
      db = new Database(path.database(), null, Map.of());
      c.dropped.put(db.name, db);
      c.schemas.put(db.name, db.schema);
    }
    return db;
  }

  /** {@code `catalog`.`database`.`name`}, as Flink names an object in its messages. */
  public static String quotedPath(Path path) {
    return "`" + path.catalog() + "`.`" + path.database() + "`.`" + path.name() + "`";
  }

  private synchronized boolean addTable(
      Database db, String name, Table table, boolean ifNotExists) {
    if (db.tables.containsKey(name)) {
      if (ifNotExists) {
        return false;
      }
      throw new CatalogException(
          (db.views.containsKey(name) ? "View" : "Table") + " '" + name + "' already exists");
    }
    db.tables.put(name, table);
    changed();
    return true;
  }

  /**
   * Puts {@code table} at {@code path} in place of the table there, if any (CREATE OR REPLACE TABLE
   * ... AS); a view there is not replaced. The replaced table is closed.
   */
  public synchronized void replaceTable(Path path, Table table) {
    Database db = databaseOf(path);
    if (db.views.containsKey(path.name())) {
      throw new CatalogException("'" + path.name() + "' is a view; use DROP VIEW");
    }
    Table old = db.tables.put(path.name(), table);
    changed();
    if (old instanceof CatalogTable && old != table) {
      ((CatalogTable) old).close();
    }
  }

  /**
   * Puts {@code table} at {@code path} in place of the table there and returns that one, not
   * closed: ALTER TABLE puts it back when the change is refused.
   */
  public synchronized Table swapTable(Path path, Table table) {
    Table old = databaseOf(path).tables.put(path.name(), table);
    changed();
    return old;
  }

  /**
   * Moves the table or view at {@code from} to {@code to} (ALTER TABLE|VIEW ... RENAME TO); fails
   * when {@code to} is taken.
   */
  public synchronized void rename(Path from, Path to) {
    Database source = databaseOf(from);
    Database target = databaseOf(to);
    if (target.tables.containsKey(to.name())) {
      throw new CatalogException(
          (target.views.containsKey(to.name()) ? "View" : "Table")
              + " '"
              + to.name()
              + "' already exists");
    }
    Table t = source.tables.remove(from.name());
    if (t == null) {
      throw new CatalogException("Table '" + from.name() + "' does not exist");
    }
    ViewDef v = source.views.remove(from.name());
    target.tables.put(to.name(), t);
    if (v != null) {
      target.views.put(to.name(), v.renamed(to.name()));
    }
    changed();
  }

  /** Adds a view to the current database; fails when the name is taken, unless ifNotExists. */
  public boolean addView(ViewDef view, Table table, boolean ifNotExists) {
    return addView(current, view, table, ifNotExists);
  }

  /** Adds a view at {@code path} (whose name is the view's). */
  public boolean addView(Path path, ViewDef view, Table table, boolean ifNotExists) {
    return addView(databaseOf(path), view, table, ifNotExists);
  }

  private synchronized boolean addView(
      Database db, ViewDef view, Table table, boolean ifNotExists) {
    if (!addTable(db, view.name(), table, ifNotExists)) {
      return false;
    }
    db.views.put(view.name(), view);
    changed();
    return true;
  }

  /** Removes a table (or a view when {@code view}) of the current database. */
  public boolean drop(String name, boolean view, boolean ifExists) {
    return drop(current, name, view, ifExists);
  }

  /** Removes the table (or view) at {@code path}; returns whether it existed. */
  public boolean drop(Path path, boolean view, boolean ifExists) {
    Database db = database(path.catalog(), path.database());
    if (db == null) {
      if (ifExists) {
        return false;
      }
      throw new CatalogException(
          (view ? "View" : "Table") + " '" + path.name() + "' does not exist");
    }
    return drop(db, path.name(), view, ifExists);
  }

  private synchronized boolean drop(Database db, String name, boolean view, boolean ifExists) {
    if (db.tempTables.containsKey(name) && db.tempViews.containsKey(name) == view) {
      String what = view ? "view" : "table";
      throw new CatalogException(
          "Temporary "
              + what
              + " with identifier '"
              + quotedPath(new Path(catalogOf(db), db.name, name))
              + "' exists. Drop it first before removing the permanent "
              + what
              + ".");
    }
    Table t = db.tables.get(name);
    boolean isView = db.views.containsKey(name);
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
    db.tables.remove(name);
    db.views.remove(name);
    changed();
    if (t instanceof CatalogTable) {
      ((CatalogTable) t).close();
    }
    return true;
  }

  private String catalogOf(Database db) {
    for (CatalogEntry c : catalogs.values()) {
      if (c.database(db.name) == db) {
        return c.name;
      }
    }
    return currentCatalog.name;
  }

  /** The table named {@code name} in the current database, or null. */
  public @Nullable Table table(String name) {
    return current.visible.get(name);
  }

  /** The table at {@code path}, or null. */
  public @Nullable Table table(Path path) {
    Database db = holder(path, false);
    return db == null ? null : db.visible.get(path.name());
  }

  /** The view named {@code name} in the current database, or null. */
  public @Nullable ViewDef view(String name) {
    return viewOf(current, name);
  }

  private static @Nullable ViewDef viewOf(Database db, String name) {
    return db.tempTables.containsKey(name) ? db.tempViews.get(name) : db.views.get(name);
  }

  /** Whether the table or view at {@code path} is a temporary one (it hides a permanent one). */
  public boolean isTemporary(Path path) {
    Database db = holder(path, false);
    return db != null && db.tempTables.containsKey(path.name());
  }

  /** The view at {@code path}, or null. */
  public @Nullable ViewDef view(Path path) {
    Database db = holder(path, false);
    return db == null ? null : viewOf(db, path.name());
  }

  /** The table named {@code name}; fails with a catalog error naming it when it is missing. */
  public Table require(String name) {
    Table t = table(name);
    if (t == null) {
      throw new CatalogException("Table '" + name + "' does not exist");
    }
    return t;
  }

  /** The table at {@code path}; fails with a catalog error naming it when it is missing. */
  public Table require(Path path) {
    Table t = table(path);
    if (t == null) {
      throw new CatalogException("Table '" + path.name() + "' does not exist");
    }
    return t;
  }

  /** Table and view names of the current database, sorted. */
  public List<String> names() {
    return current.names();
  }

  /** The current database. */
  public Database current() {
    return current;
  }

  /** The current database's tables, whichever database is current. */
  private final class CurrentTables extends AbstractMap<String, Table> {
    @Override
    public @Nullable Table get(Object key) {
      return current.visible.get(key);
    }

    @Override
    public boolean containsKey(Object key) {
      return current.visible.containsKey(key);
    }

    @Override
    public Set<Map.Entry<String, Table>> entrySet() {
      return current.visible.entrySet();
    }
  }

  /** Temporary tables over permanent ones: a temporary name hides the permanent one. */
  private static final class Shadowed extends AbstractMap<String, Table> {
    private final Map<String, Table> top;
    private final Map<String, Table> below;

    Shadowed(Map<String, Table> top, Map<String, Table> below) {
      this.top = top;
      this.below = below;
    }

    @Override
    public @Nullable Table get(Object key) {
      Table t = top.get(key);
      return t != null ? t : below.get(key);
    }

    @Override
    public boolean containsKey(Object key) {
      return top.containsKey(key) || below.containsKey(key);
    }

    @Override
    public Set<Map.Entry<String, Table>> entrySet() {
      Map<String, Table> m = new LinkedHashMap<>(below);
      m.putAll(top);
      return m.entrySet();
    }
  }

  /** The root: the current database's tables, and one sub-schema per catalog. */
  private static final class RootSchema extends AbstractSchema {
    private final Map<String, Table> tables;
    private final Map<String, Schema> catalogs;

    RootSchema(Map<String, Table> tables, Map<String, Schema> catalogs) {
      this.tables = tables;
      this.catalogs = catalogs;
    }

    @Override
    protected Map<String, Table> getTableMap() {
      return tables;
    }

    @Override
    protected Map<String, Schema> getSubSchemaMap() {
      return catalogs;
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

  /** A catalog: one sub-schema per database. */
  private static final class CatalogSchema extends AbstractSchema {
    private final Map<String, Schema> databases;

    CatalogSchema(Map<String, Schema> databases) {
      this.databases = databases;
    }

    @Override
    protected Map<String, Schema> getSubSchemaMap() {
      return databases;
    }

    @Override
    public boolean isMutable() {
      return false;
    }
  }

  /** A database: its concurrent table map. */
  private static final class TableMapSchema extends AbstractSchema {
    private final Map<String, Table> tables;

    TableMapSchema(Map<String, Table> tables) {
      this.tables = tables;
    }

    @Override
    protected Map<String, Table> getTableMap() {
      return tables;
    }

    @Override
    public boolean isMutable() {
      return false;
    }
  }
}

package io.calcitebridge.statement;

import io.calcitebridge.catalog.Catalog;
import io.calcitebridge.catalog.Catalog.CatalogEntry;
import io.calcitebridge.catalog.Catalog.Database;
import io.calcitebridge.errors.CatalogException;
import io.calcitebridge.errors.ErrorKind;
import io.calcitebridge.errors.PositionedException;
import io.calcitebridge.plan.PlannerContext;
import io.calcitebridge.sql.SqlCatalogStatement;
import io.calcitebridge.sql.SqlShowTables;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Flink's statements on catalogs and databases, and SHOW TABLES|VIEWS, with Flink's result columns
 * and messages.
 */
final class CatalogStatements {
  /** The one catalog type: tables and views held in this process. */
  static final String IN_MEMORY = "generic_in_memory";

  private static final String TYPE = "type";
  private static final String DEFAULT_DATABASE = "default-database";
  private static final String PROPERTY_VERSION = "property-version";

  private final PlannerContext context;
  private final Catalog catalog;

  CatalogStatements(PlannerContext context) {
    this.context = context;
    this.catalog = context.catalog();
  }

  /**
   * The full path of the table or view {@code id} names with one, two or three parts; fails at
   * {@code id} when its catalog or database does not exist, unless {@code lenient}.
   */
  static Catalog.Path path(PlannerContext context, SqlIdentifier id, boolean lenient) {
    Catalog catalog = context.catalog();
    Catalog.Path path = catalog.path(id.names);
    if (path == null) {
      throw new PositionedException(
          ErrorKind.VALIDATION,
          "A table or view is named with at most 3 parts (catalog.database.name): " + id,
          id.getParserPosition());
    }
    if (!lenient) {
      database(catalog, path.catalog(), path.database(), id.getParserPosition());
    }
    return path;
  }

  private static Database database(
      Catalog catalog, String catalogName, String db, SqlParserPos pos) {
    CatalogEntry c = catalog(catalog, catalogName, pos);
    Database d = c.database(db);
    if (d == null) {
      throw new PositionedException(
          ErrorKind.VALIDATION,
          "Database " + db + " does not exist in Catalog " + catalogName + ".",
          pos);
    }
    return d;
  }

  private static CatalogEntry catalog(Catalog catalog, String name, SqlParserPos pos) {
    CatalogEntry c = catalog.catalog(name);
    if (c == null) {
      throw new PositionedException(
          ErrorKind.VALIDATION, "Catalog " + name + " does not exist", pos);
    }
    return c;
  }

  /** The catalog and database {@code id} names ({@code db} or {@code catalog.db}). */
  private String[] databaseName(SqlIdentifier id) {
    if (id.names.size() == 1) {
      return new String[] {catalog.currentCatalog(), id.getSimple()};
    }
    if (id.names.size() == 2) {
      return new String[] {id.names.get(0), id.names.get(1)};
    }
    throw new PositionedException(
        ErrorKind.VALIDATION,
        "A database is named with at most 2 parts (catalog.database): " + id,
        id.getParserPosition());
  }

  RowSet run(SqlCatalogStatement st) {
    SqlIdentifier id = st.name();
    SqlParserPos pos = id != null ? id.getParserPosition() : st.getParserPosition();
    switch (st.statement()) {
      case CREATE_CATALOG:
        createCatalog(st);
        return ok();
      case DROP_CATALOG:
        {
          String name = id.getSimple();
          if (catalog.catalog(name) == null && !st.ifExists()) {
            catalog(catalog, name, pos);
          }
          try {
            catalog.dropCatalog(name, st.ifExists());
          } catch (CatalogException e) {
            throw new PositionedException(ErrorKind.VALIDATION, e.getMessage(), pos);
          }
          return ok();
        }
      case ALTER_CATALOG_SET:
        {
          CatalogEntry c = descriptor(id);
          Map<String, String> opts = st.options();
          if (opts.containsKey(TYPE)) {
            throw new PositionedException(
                ErrorKind.VALIDATION,
                "ALTER CATALOG SET does not support changing '" + TYPE + "'",
                st.optionsPosition());
          }
          Map<String, String> merged = new java.util.TreeMap<>(c.options());
          merged.putAll(opts);
          checkInMemoryOptions(st.name().getSimple(), merged, st.optionsPosition());
          c.options().putAll(opts);
          catalog.touched();
          return ok();
        }
      case ALTER_CATALOG_RESET:
        {
          CatalogEntry c = descriptor(id);
          List<String> keys = st.keys();
          if (keys.isEmpty()) {
            throw new PositionedException(
                ErrorKind.VALIDATION,
                "ALTER CATALOG RESET does not support empty key",
                st.optionsPosition());
          }
          if (keys.contains(TYPE)) {
            throw new PositionedException(
                ErrorKind.VALIDATION,
                "ALTER CATALOG RESET does not support changing '" + TYPE + "'",
                st.optionsPosition());
          }
          keys.forEach(c.options()::remove);
          catalog.touched();
          return ok();
        }
      case ALTER_CATALOG_COMMENT:
        {
          CatalogEntry c = descriptor(id);
          c.setComment(st.comment());
          catalog.touched();
          return ok();
        }
      case CREATE_DATABASE:
        {
          String[] name = databaseName(id);
          CatalogEntry c = catalog(catalog, name[0], pos);
          catalog.addDatabase(c, name[1], st.comment(), st.options(), st.ifExists());
          return ok();
        }
      case DROP_DATABASE:
        {
          String[] name = databaseName(id);
          CatalogEntry c = catalog.catalog(name[0]);
          if (c == null && st.ifExists()) {
            return ok();
          }
          c = catalog(catalog, name[0], pos);
          if (c.database(name[1]) == null && !st.ifExists()) {
            database(catalog, name[0], name[1], pos);
          }
          try {
            catalog.dropDatabase(c, name[1], st.ifExists(), st.isCascade());
          } catch (CatalogException e) {
            throw new PositionedException(ErrorKind.VALIDATION, e.getMessage(), pos);
          }
          return ok();
        }
      case ALTER_DATABASE_SET:
        {
          String[] name = databaseName(id);
          Database d = database(catalog, name[0], name[1], pos);
          d.properties().putAll(st.options());
          catalog.touched();
          return ok();
        }
      case USE_CATALOG:
        {
          CatalogEntry c = catalog.catalog(id.getSimple());
          if (c == null) {
            throw new PositionedException(
                ErrorKind.VALIDATION,
                "A catalog with name [" + id.getSimple() + "] does not exist.",
                pos);
          }
          catalog.useCatalog(c);
          return ok();
        }
      case USE_DATABASE:
        {
          String[] name = databaseName(id);
          CatalogEntry c = catalog.catalog(name[0]);
          if (c == null) {
            throw new PositionedException(
                ErrorKind.VALIDATION, "A catalog with name [" + name[0] + "] does not exist.", pos);
          }
          Database d = c.database(name[1]);
          if (d == null) {
            throw new PositionedException(
                ErrorKind.VALIDATION,
                "A database with name ["
                    + name[1]
                    + "] does not exist in the catalog: ["
                    + name[0]
                    + "].",
                pos);
          }
          if (c != catalog.catalog(catalog.currentCatalog())) {
            catalog.useCatalog(c);
          }
          catalog.useDatabase(d);
          return ok();
        }
      case SHOW_CATALOGS:
        return strings("catalog name", filter(catalog.catalogNames(), st));
      case SHOW_DATABASES:
        {
          CatalogEntry c =
              id == null
                  ? catalog.catalog(catalog.currentCatalog())
                  : catalog(catalog, id.getSimple(), pos);
          return strings("database name", filter(c.databaseNames(), st));
        }
      case SHOW_CURRENT_CATALOG:
        return strings("current catalog name", List.of(catalog.currentCatalog()));
      case SHOW_CURRENT_DATABASE:
        return strings("current database name", List.of(catalog.currentDatabase()));
      case SHOW_CREATE_CATALOG:
        return strings("result", List.of(showCreate(descriptor(id))));
      case DESCRIBE_CATALOG:
        return describe(descriptor(id), st.isExtended());
      case LOAD_MODULE:
        if (!id.getSimple().equals("core")) {
          throw new PositionedException(
              ErrorKind.UNSUPPORTED,
              "Could not find any factory for identifier '"
                  + id.getSimple()
                  + "' that implements 'org.apache.flink.table.factories.ModuleFactory'; the one"
                  + " module here is 'core'",
              pos);
        }
        catalog.loadModule(id.getSimple());
        return ok();
      case UNLOAD_MODULE:
        catalog.unloadModule(id.getSimple());
        return ok();
      case USE_MODULES:
        catalog.useModules(st.keys());
        return ok();
      case SHOW_JARS:
        // No statement adds a jar to the session here (ADD JAR is not read): none to list.
        return strings("jars", List.of());
      case SHOW_MODULES:
        {
          if (!st.isExtended()) {
            return strings("module name", catalog.usedModules());
          }
          List<Object[]> rows = new ArrayList<>();
          List<String> used = catalog.usedModules();
          for (String m : used) {
            rows.add(new Object[] {m, true});
          }
          for (String m : catalog.modules()) {
            if (!used.contains(m)) {
              rows.add(new Object[] {m, false});
            }
          }
          org.apache.calcite.rel.type.RelDataType type =
              context
                  .typeFactory()
                  .builder()
                  .add(
                      "module name",
                      context
                          .typeFactory()
                          .createSqlType(org.apache.calcite.sql.type.SqlTypeName.VARCHAR))
                  .add(
                      "used",
                      context
                          .typeFactory()
                          .createSqlType(org.apache.calcite.sql.type.SqlTypeName.BOOLEAN))
                  .build();
          return RowSet.of("show", type, rows);
        }
      case DESCRIBE_DATABASE:
        {
          String[] name = databaseName(id);
          return describe(database(catalog, name[0], name[1], pos), st.isExtended());
        }
      default:
        throw new PositionedException(
            ErrorKind.UNSUPPORTED,
            "Statement " + st.statement().words() + " is not supported",
            st.getParserPosition());
    }
  }

  /** SHOW TABLES and SHOW VIEWS. */
  RowSet showTables(SqlShowTables show) {
    Database db;
    if (show.database() == null) {
      try {
        catalog.checkCurrent();
      } catch (CatalogException e) {
        throw new PositionedException(ErrorKind.CATALOG, e.getMessage(), show.getParserPosition());
      }
      db = catalog.current();
    } else {
      String[] name = databaseName(show.database());
      db = database(catalog, name[0], name[1], show.database().getParserPosition());
    }
    List<String> names = show.isViews() ? db.viewNames() : db.names();
    return strings(
        show.isViews() ? "view name" : "table name",
        filter(names, show.pattern(), show.isNotLike(), show.isIlike()));
  }

  private void createCatalog(SqlCatalogStatement st) {
    Map<String, String> opts = st.options();
    String type = opts.get(TYPE);
    if (type == null) {
      throw new PositionedException(
          ErrorKind.VALIDATION,
          "Catalog options do not contain an option key '" + TYPE + "' for discovering a catalog.",
          st.optionsPosition());
    }
    if (!type.equals(IN_MEMORY)) {
      throw new PositionedException(
          ErrorKind.UNSUPPORTED,
          "Catalog type '" + type + "' is not supported; available: " + IN_MEMORY,
          st.optionsPosition());
    }
    checkInMemoryOptions(st.name().getSimple(), opts, st.optionsPosition());
    catalog.addCatalog(
        st.name().getSimple(),
        st.comment(),
        opts,
        opts.getOrDefault(DEFAULT_DATABASE, Catalog.CATALOG_DEFAULT_DATABASE),
        st.ifExists());
  }

  /**
   * Refuses the options an in-memory catalog does not take, with the message of Flink's factory
   * ({@code 'type'}, {@code 'default-database'} and {@code 'property-version'} are its options).
   */
  private static void checkInMemoryOptions(
      String name, Map<String, String> opts, SqlParserPos pos) {
    java.util.TreeSet<String> unsupported = new java.util.TreeSet<>(opts.keySet());
    unsupported.removeAll(List.of(TYPE, DEFAULT_DATABASE, PROPERTY_VERSION));
    if (!unsupported.isEmpty()) {
      throw new PositionedException(
          ErrorKind.VALIDATION,
          "Unable to create catalog '"
              + name
              + "'. Unsupported options found for '"
              + IN_MEMORY
              + "'.\n\nUnsupported options:\n\n"
              + String.join("\n", unsupported)
              + "\n\nSupported options:\n\n"
              + DEFAULT_DATABASE
              + "\n"
              + PROPERTY_VERSION,
          pos);
    }
  }

  /** The catalog {@code id} names, made by CREATE CATALOG (the default catalog has no DDL). */
  private CatalogEntry descriptor(SqlIdentifier id) {
    CatalogEntry c = catalog(catalog, id.getSimple(), id.getParserPosition());
    if (c.options().isEmpty()) {
      throw new PositionedException(
          ErrorKind.VALIDATION,
          "Cannot obtain metadata information from Catalog " + c.name() + ".",
          id.getParserPosition());
    }
    return c;
  }

  private static String showCreate(CatalogEntry c) {
    StringBuilder b =
        new StringBuilder("CREATE CATALOG `").append(c.name().replace("`", "``")).append("`\n");
    if (c.comment() != null && !c.comment().isEmpty()) {
      b.append("COMMENT '").append(c.comment().replace("'", "''")).append("'\n");
    }
    List<String> opts = new ArrayList<>();
    for (Map.Entry<String, String> e : new LinkedHashMap<>(c.options()).entrySet()) {
      opts.add(
          "  '" + e.getKey().replace("'", "''") + "' = '" + e.getValue().replace("'", "''") + "'");
    }
    b.append("WITH (\n").append(String.join(",\n", opts)).append("\n)\n");
    return b.toString();
  }

  /**
   * DESCRIBE DATABASE [EXTENDED]: in the form of DESCRIBE CATALOG, its name and comment, and with
   * EXTENDED one {@code property:key} row for each property of WITH (...), sorted by key.
   */
  private RowSet describe(Database d, boolean extended) {
    List<Object[]> rows = new ArrayList<>();
    rows.add(new Object[] {"name", d.name()});
    rows.add(new Object[] {"comment", d.comment() == null ? "" : d.comment()});
    if (extended) {
      for (Map.Entry<String, String> e : new LinkedHashMap<>(d.properties()).entrySet()) {
        rows.add(new Object[] {"property:" + e.getKey(), e.getValue()});
      }
    }
    return RowSet.of(
        "show", RowSet.strings(context.typeFactory(), "info name", "info value"), rows);
  }

  private RowSet describe(CatalogEntry c, boolean extended) {
    List<Object[]> rows = new ArrayList<>();
    rows.add(new Object[] {"name", c.name()});
    rows.add(new Object[] {"type", c.options().get(TYPE)});
    // As Flink: NULL when the catalog has no comment.
    rows.add(new Object[] {"comment", c.comment()});
    if (extended) {
      for (Map.Entry<String, String> e : new LinkedHashMap<>(c.options()).entrySet()) {
        if (!e.getKey().equals(TYPE)) {
          rows.add(new Object[] {"option:" + e.getKey(), e.getValue()});
        }
      }
    }
    return RowSet.of(
        "show", RowSet.strings(context.typeFactory(), "info name", "info value"), rows);
  }

  private static List<String> filter(List<String> names, SqlCatalogStatement st) {
    return filter(names, st.pattern(), st.isNotLike(), st.isIlike());
  }

  private static List<String> filter(
      List<String> names, @Nullable String pattern, boolean notLike, boolean ilike) {
    if (pattern == null) {
      return names;
    }
    Pattern like = FlinkTables.likePattern(pattern);
    if (ilike) {
      like = Pattern.compile(like.pattern(), Pattern.DOTALL | Pattern.CASE_INSENSITIVE);
    }
    List<String> kept = new ArrayList<>();
    for (String n : names) {
      if (like.matcher(n).matches() != notLike) {
        kept.add(n);
      }
    }
    return kept;
  }

  private RowSet strings(String column, List<String> values) {
    List<Object[]> rows = new ArrayList<>();
    values.forEach(v -> rows.add(new Object[] {v}));
    return RowSet.of("show", RowSet.strings(context.typeFactory(), column), rows);
  }

  private RowSet ok() {
    return RowSet.ok("ddl", context.typeFactory());
  }
}

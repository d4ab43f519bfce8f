package io.calcitebridge.statement;

import io.calcitebridge.catalog.Catalog;
import io.calcitebridge.catalog.CatalogTable;
import io.calcitebridge.catalog.ColumnDef;
import io.calcitebridge.catalog.ColumnKind;
import io.calcitebridge.catalog.FlinkSpec;
import io.calcitebridge.catalog.TableDef;
import io.calcitebridge.catalog.ViewDef;
import io.calcitebridge.connector.MemoryTable;
import io.calcitebridge.errors.ErrorKind;
import io.calcitebridge.errors.PositionedException;
import io.calcitebridge.plan.PlannerContext;
import io.calcitebridge.plan.QueryPlanner;
import io.calcitebridge.pushdown.BridgeTable;
import io.calcitebridge.sql.SqlAlterTable;
import io.calcitebridge.sql.SqlCreateTable;
import io.calcitebridge.sql.SqlCreateView;
import io.calcitebridge.sql.SqlMetadataColumn;
import io.calcitebridge.sql.SqlPhysicalColumn;
import io.calcitebridge.sql.SqlTableColumn;
import io.calcitebridge.sql.SqlTableConstraint;
import io.calcitebridge.sql.SqlWatermark;
import io.calcitebridge.types.TypeNames;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.calcite.schema.Table;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Flink's ALTER TABLE and ALTER VIEW. A change of a table's columns, keys, watermark or options
 * writes the changed table as one CREATE TABLE and makes it as such (every check of CREATE TABLE
 * applies); a memory table's rows are carried over, each column cast to its new type. A change the
 * rows or a view cannot follow is refused, and the table stays as it was.
 */
final class AlterTables {
  private final DdlExecutor ddl;
  private final PlannerContext context;
  private final Function<Supplier<SqlNode>, List<Object[]>> rowsOf;

  AlterTables(
      DdlExecutor ddl, PlannerContext context, Function<Supplier<SqlNode>, List<Object[]>> rowsOf) {
    this.ddl = ddl;
    this.context = context;
    this.rowsOf = rowsOf;
  }

  private Catalog catalog() {
    return context.catalog();
  }

  /** A table's parts as CREATE TABLE writes them, changed by the statement. */
  private static final class Model {
    final Map<String, String> columns = new LinkedHashMap<>();
    final Map<String, ColumnKind> kinds = new HashMap<>();

    /** New column name to the stored column it takes its rows from. */
    final Map<String, String> source = new HashMap<>();

    @Nullable String watermarkColumn;
    @Nullable String watermark;
    @Nullable String keyName;
    List<String> key = new ArrayList<>();
    List<String> partitions = new ArrayList<>();
    final Map<String, String> options = new LinkedHashMap<>();
    @Nullable String comment;
    boolean temporary;
  }

  void run(SqlAlterTable alter) {
    switch (alter.action()) {
      case VIEW_RENAME:
      case RENAME:
        rename(alter);
        return;
      case VIEW_AS:
        viewAs(alter);
        return;
      default:
        break;
    }
    Catalog.Path path = CatalogStatements.path(context, alter.name(), alter.ifExists());
    if (catalog().view(path) != null) {
      throw validation(
          "ALTER TABLE for a view is not allowed: use ALTER VIEW",
          alter.name().getParserPosition());
    }
    Table found = catalog().table(path);
    if (!(found instanceof BridgeTable table) || catalog().isTemporary(path)) {
      if (alter.ifExists() && found == null) {
        return;
      }
      throw validation(
          "Table " + quoted(path) + " doesn't exist or is a temporary table.",
          alter.name().getParserPosition());
    }
    Model m = model(table.def());
    apply(alter, m);
    rebuild(path, table, m, alter.getParserPosition());
  }

  private static Model model(TableDef def) {
    FlinkSpec flink = def.flink();
    Model m = new Model();
    for (ColumnDef c : def.columns()) {
      if (c.kind() == ColumnKind.SHADOW) {
        continue;
      }
      m.columns.put(c.name(), Describe.columnSql(c, flink));
      m.kinds.put(c.name(), c.kind());
      m.source.put(c.name(), c.name());
    }
    if (flink.watermarkColumn() != null) {
      m.watermarkColumn = flink.watermarkColumn();
      m.watermark = flink.watermarkExpression();
    }
    m.keyName = flink.primaryKeyName();
    m.key = new ArrayList<>(flink.primaryKey());
    m.partitions = new ArrayList<>(flink.partitionKeys());
    m.options.putAll(def.options());
    m.comment = flink.comment();
    m.temporary = flink.temporary();
    return m;
  }

  private void apply(SqlAlterTable alter, Model m) {
    SqlParserPos pos = alter.getParserPosition();
    switch (alter.action()) {
      case SET:
        {
          List<String> kv = alter.texts();
          for (int i = 0; i + 1 < kv.size(); i += 2) {
            m.options.put(kv.get(i), kv.get(i + 1));
          }
          return;
        }
      case RESET:
        {
          List<String> keys = alter.texts();
          if (keys.isEmpty()) {
            throw validation("ALTER TABLE RESET does not support empty key", pos);
          }
          for (String k : keys) {
            if (k.equals("connector")) {
              throw validation("ALTER TABLE RESET does not support changing 'connector'", pos);
            }
            m.options.remove(k);
          }
          return;
        }
      case RENAME_COLUMN:
        {
          String from = alter.column().getSimple();
          String to = alter.target().getSimple();
          if (!m.columns.containsKey(from)) {
            throw validation(
                "The column `" + from + "` does not exist in the base table.",
                alter.column().getParserPosition());
          }
          if (m.columns.containsKey(to)) {
            throw validation(
                "The column `" + to + "` already existed in table schema.",
                alter.target().getParserPosition());
          }
          checkUnreferenced(m, from, alter.column().getParserPosition(), true);
          Map<String, String> cols = new LinkedHashMap<>();
          m.columns.forEach(
              (k, v) ->
                  cols.put(
                      k.equals(from) ? to : k,
                      k.equals(from)
                          ? TypeNames.quote(to) + v.substring(TypeNames.quote(from).length())
                          : v));
          m.columns.clear();
          m.columns.putAll(cols);
          m.kinds.put(to, m.kinds.remove(from));
          m.source.put(to, m.source.remove(from));
          m.key.replaceAll(k -> k.equals(from) ? to : k);
          m.partitions.replaceAll(k -> k.equals(from) ? to : k);
          if (from.equals(m.watermarkColumn)) {
            m.watermarkColumn = to;
            m.watermark = m.watermark.replace(TypeNames.quote(from), TypeNames.quote(to));
          }
          return;
        }
      case DROP_COLUMNS:
        for (SqlNode n : alter.list()) {
          SqlIdentifier id = (SqlIdentifier) n;
          String name = id.getSimple();
          if (!m.columns.containsKey(name)) {
            throw validation(
                "The column `" + name + "` does not exist in the base table.",
                id.getParserPosition());
          }
          m.columns.remove(name);
          m.kinds.remove(name);
          m.source.remove(name);
        }
        for (SqlNode n : alter.list()) {
          checkUnreferenced(m, ((SqlIdentifier) n).getSimple(), n.getParserPosition(), false);
        }
        if (m.columns.isEmpty()) {
          throw validation("Cannot drop all the columns of a table.", pos);
        }
        return;
      case DROP_PRIMARY_KEY:
        if (m.key.isEmpty()) {
          throw validation("The base table does not define any primary key.", pos);
        }
        m.key.clear();
        m.keyName = null;
        return;
      case DROP_CONSTRAINT:
        {
          String name = alter.column().getSimple();
          if (m.key.isEmpty() || !name.equals(m.keyName)) {
            throw validation(
                m.key.isEmpty()
                    ? "The base table does not define any primary key."
                    : "The base table does not define a primary key constraint named '"
                        + name
                        + "'. Available constraint name: ['"
                        + m.keyName
                        + "'].",
                alter.column().getParserPosition());
          }
          m.key.clear();
          m.keyName = null;
          return;
        }
      case DROP_WATERMARK:
        if (m.watermark == null) {
          throw validation("The base table does not define any watermark strategy.", pos);
        }
        m.watermark = null;
        m.watermarkColumn = null;
        return;
      case ADD:
      case MODIFY:
        addOrModify(alter, m);
        return;
      default:
        throw new IllegalStateException(alter.action().name());
    }
  }

  private void addOrModify(SqlAlterTable alter, Model m) {
    boolean add = alter.action() == SqlAlterTable.Action.ADD;
    for (int i = 0; i < alter.list().size(); i++) {
      SqlTableColumn col = (SqlTableColumn) alter.list().get(i);
      String name = col.name();
      if (add && m.columns.containsKey(name)) {
        throw validation(
            "Try to add a column `" + name + "` which already exists in the table.",
            col.getParserPosition());
      }
      if (!add && !m.columns.containsKey(name)) {
        throw validation(
            "Try to modify a column `" + name + "` which does not exist in the table.",
            col.getParserPosition());
      }
      String text = context.unparse(col);
      ColumnKind kind =
          col instanceof SqlPhysicalColumn
              ? ColumnKind.PHYSICAL
              : col instanceof SqlMetadataColumn ? ColumnKind.METADATA : ColumnKind.COMPUTED;
      String position = alter.position(i);
      if (position.isEmpty()) {
        m.columns.put(name, text); // MODIFY keeps the column's place
      } else {
        m.columns.remove(name);
        if (alter.isAfter(i) && !m.columns.containsKey(position)) {
          throw validation(
              "Referenced column `" + position + "` by 'AFTER' does not exist in the table.",
              alter.positionNode(i).getParserPosition());
        }
        Map<String, String> cols = new LinkedHashMap<>();
        if (!alter.isAfter(i)) {
          cols.put(name, text);
        }
        for (Map.Entry<String, String> e : m.columns.entrySet()) {
          cols.put(e.getKey(), e.getValue());
          if (alter.isAfter(i) && e.getKey().equals(position)) {
            cols.put(name, text);
          }
        }
        m.columns.clear();
        m.columns.putAll(cols);
      }
      m.kinds.put(name, kind);
      if (add || kind != ColumnKind.PHYSICAL) {
        m.source.remove(name);
      }
    }
    for (SqlNode n : alter.constraints()) {
      SqlTableConstraint c = (SqlTableConstraint) n;
      if (add && !m.key.isEmpty()) {
        throw validation(
            "The base table has already defined the primary key constraint [`"
                + m.keyName
                + "`]. You might want to drop it before adding a new one.",
            c.getParserPosition());
      }
      if (!add && m.key.isEmpty()) {
        throw validation(
            "The base table does not define any primary key constraint. You might want to add a"
                + " new one.",
            c.getParserPosition());
      }
      m.key = new ArrayList<>(c.columnNames());
      m.keyName = c.name() != null ? c.name() : "PK_" + String.join("_", m.key);
      // The key is written from the constraint itself below.
      m.keyName = "\u0000" + context.unparse(c);
    }
    for (SqlNode n : alter.watermarks()) {
      SqlWatermark w = (SqlWatermark) n;
      if (add && m.watermark != null) {
        throw validation(
            "The base table has already defined the watermark strategy `"
                + m.watermarkColumn
                + "` AS "
                + m.watermark
                + ". You might want to drop it before adding a new one.",
            w.getParserPosition());
      }
      if (!add && m.watermark == null) {
        throw validation(
            "The base table does not define any watermark. You might want to add a new one.",
            w.getParserPosition());
      }
      m.watermarkColumn = w.column().getSimple();
      m.watermark = "\u0000" + context.unparse(w);
    }
  }

  /**
   * Refuses to drop or rename {@code name} while the key, watermark or a computed column use it.
   */
  private static void checkUnreferenced(Model m, String name, SqlParserPos pos, boolean rename) {
    String quoted = TypeNames.quote(name);
    if (m.key.contains(name)) {
      throw validation("The column " + quoted + " is used as the primary key.", pos);
    }
    if (m.partitions.contains(name) && !rename) {
      throw validation("The column " + quoted + " is used as the partition keys.", pos);
    }
    if (name.equals(m.watermarkColumn) && !rename
        || m.watermark != null && !name.equals(m.watermarkColumn) && m.watermark.contains(quoted)) {
      throw validation(
          "The column " + quoted + " is referenced by watermark expression " + m.watermark + ".",
          pos);
    }
    for (Map.Entry<String, String> e : m.columns.entrySet()) {
      if (m.kinds.get(e.getKey()) == ColumnKind.COMPUTED
          && !e.getKey().equals(name)
          && e.getValue().substring(TypeNames.quote(e.getKey()).length()).contains(quoted)) {
        throw validation(
            "The column "
                + quoted
                + " is referenced by computed column "
                + TypeNames.quote(e.getKey())
                + ".",
            pos);
      }
    }
  }

  /** Writes the changed table as CREATE TABLE, makes it, carries the rows over, and swaps. */
  private void rebuild(Catalog.Path path, BridgeTable old, Model m, SqlParserPos pos) {
    List<String> elements = new ArrayList<>(m.columns.values());
    if (m.watermark != null) {
      elements.add(
          m.watermark.startsWith("\u0000")
              ? m.watermark.substring(1)
              : "WATERMARK FOR " + TypeNames.quote(m.watermarkColumn) + " AS " + m.watermark);
    }
    if (!m.key.isEmpty()) {
      elements.add(
          m.keyName.startsWith("\u0000")
              ? m.keyName.substring(1)
              : "CONSTRAINT "
                  + TypeNames.quote(m.keyName)
                  + " PRIMARY KEY ("
                  + String.join(", ", m.key.stream().map(TypeNames::quote).toList())
                  + ") NOT ENFORCED");
    }
    StringBuilder b =
        new StringBuilder(m.temporary ? "CREATE TEMPORARY TABLE " : "CREATE TABLE ")
            .append(quoted(path))
            .append(" (\n  ")
            .append(String.join(",\n  ", elements))
            .append("\n)");
    if (m.comment != null) {
      b.append("\nCOMMENT '").append(m.comment.replace("'", "''")).append('\'');
    }
    if (!m.partitions.isEmpty()) {
      b.append("\nPARTITIONED BY (")
          .append(String.join(", ", m.partitions.stream().map(TypeNames::quote).toList()))
          .append(')');
    }
    if (!m.options.isEmpty()) {
      List<String> opts = new ArrayList<>();
      m.options.forEach(
          (k, v) -> opts.add("'" + k.replace("'", "''") + "' = '" + v.replace("'", "''") + "'"));
      b.append("\nWITH (").append(String.join(", ", opts)).append(')');
    }
    SqlCreateTable create;
    try {
      create = (SqlCreateTable) context.parseStatement(b.toString());
    } catch (SqlParseException e) {
      throw validation("The changed table does not read back: " + e.getMessage(), pos);
    }
    BridgeTable table;
    try {
      table = ddl.alteredTable(create, path.name());
    } catch (PositionedException e) {
      throw new PositionedException(e.kind(), e.getMessage(), pos);
    }
    try {
      if (old.storage() instanceof MemoryTable) {
        carryRows(path, old.def(), table, m, pos);
      }
    } catch (RuntimeException e) {
      table.close();
      throw e;
    }
    Table before = catalog().swapTable(path, table);
    try {
      checkViews(pos);
    } catch (RuntimeException e) {
      catalog().swapTable(path, before);
      table.close();
      throw e;
    }
    if (before instanceof CatalogTable c && before != table) {
      c.close();
    }
  }

  /**
   * Reads the old table's rows as the new columns want them, and writes them into {@code table}.
   */
  private void carryRows(
      Catalog.Path path, TableDef oldDef, BridgeTable table, Model m, SqlParserPos pos) {
    List<String> select = new ArrayList<>();
    for (ColumnDef c : table.def().writableColumns()) {
      String from = m.source.get(c.name());
      ColumnDef was = from == null ? null : column(oldDef, from);
      String type = TypeNames.renderNullable(c.type());
      select.add(
          was == null || !was.isWritable()
              ? "CAST(NULL AS " + type + ")"
              : "CAST(" + TypeNames.quote(from) + " AS " + type + ")");
    }
    String sql = "SELECT " + String.join(", ", select) + " FROM " + quoted(path);
    List<Object[]> rows;
    try {
      rows =
          rowsOf.apply(
              () -> {
                try {
                  return context.parseStatement(sql);
                } catch (SqlParseException e) {
                  throw new IllegalStateException(e);
                }
              });
    } catch (RuntimeException e) {
      throw new PositionedException(
          ErrorKind.VALIDATION,
          "The rows of table "
              + quoted(path)
              + " cannot follow this change, which is refused: "
              + e.getMessage(),
          pos);
    }
    try {
      table.storage().insert(rows);
    } catch (RuntimeException e) {
      throw new PositionedException(
          ErrorKind.VALIDATION,
          "The rows of table "
              + quoted(path)
              + " cannot follow this change, which is refused: "
              + e.getMessage(),
          pos);
    }
  }

  private static @Nullable ColumnDef column(TableDef def, String name) {
    int i = def.indexOf(name);
    return i < 0 ? null : def.columns().get(i);
  }

  /** Fails when a view of any database no longer plans over the changed tables. */
  private void checkViews(SqlParserPos pos) {
    Catalog catalog = catalog();
    for (String c : catalog.catalogNames()) {
      Catalog.CatalogEntry entry = catalog.catalog(c);
      if (entry == null) {
        continue;
      }
      for (String d : entry.databaseNames()) {
        Catalog.Database db = entry.database(d);
        if (db == null) {
          continue;
        }
        for (String v : db.viewNames()) {
          String view = quoted(new Catalog.Path(c, d, v));
          try {
            QueryPlanner planner = new QueryPlanner(context);
            SqlNode validated = planner.validate(context.parseStatement("SELECT * FROM " + view));
            planner.toLogical(validated);
          } catch (Exception | LinkageError e) {
            throw new PositionedException(
                ErrorKind.VALIDATION,
                "View "
                    + view
                    + " could not follow this change, which is refused: "
                    + e.getMessage(),
                pos);
          }
        }
      }
    }
  }

  private void rename(SqlAlterTable alter) {
    boolean view = alter.action() == SqlAlterTable.Action.VIEW_RENAME;
    Catalog.Path from = CatalogStatements.path(context, alter.name(), alter.ifExists());
    boolean isView = catalog().view(from) != null;
    // As in Flink, a temporary table or view is not altered.
    if (catalog().table(from) == null || isView != view || catalog().isTemporary(from)) {
      if (alter.ifExists() && catalog().table(from) == null) {
        return;
      }
      throw validation(
          (view ? "View " : "Table ")
              + quoted(from)
              + " doesn't exist or is a temporary "
              + (view ? "view." : "table."),
          alter.name().getParserPosition());
    }
    Catalog.Path to = CatalogStatements.path(context, alter.target(), false);
    catalog().rename(from, to);
  }

  private void viewAs(SqlAlterTable alter) {
    Catalog.Path path = CatalogStatements.path(context, alter.name(), false);
    ViewDef old = catalog().view(path);
    if (old == null || catalog().isTemporary(path)) {
      throw validation(
          "View " + quoted(path) + " doesn't exist or is a temporary view.",
          alter.name().getParserPosition());
    }
    // As Flink's ALTER VIEW ... AS: the new query's columns, the view's comment kept.
    String comment = old.comment();
    String text =
        "CREATE VIEW "
            + quoted(path)
            + (comment == null ? "" : " COMMENT '" + comment.replace("'", "''") + "'")
            + " AS "
            + context.unparse(alter.query());
    SqlCreateView create;
    try {
      create = (SqlCreateView) context.parseStatement(text);
    } catch (SqlParseException e) {
      throw validation(
          "The changed view does not read back: " + e.getMessage(), alter.getParserPosition());
    }
    Table before = catalog().table(path);
    catalog().drop(path, true, false);
    try {
      ddl.createView(create, text);
    } catch (RuntimeException e) {
      catalog().addView(path, old, java.util.Objects.requireNonNull(before), false);
      throw e;
    }
  }

  private static String quoted(Catalog.Path path) {
    return TypeNames.quote(path.catalog())
        + "."
        + TypeNames.quote(path.database())
        + "."
        + TypeNames.quote(path.name());
  }

  private static PositionedException validation(String message, SqlParserPos pos) {
    return new PositionedException(ErrorKind.VALIDATION, message, pos);
  }
}

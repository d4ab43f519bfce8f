package io.calcitebridge.statement;

import io.calcitebridge.catalog.ColumnDef;
import io.calcitebridge.catalog.ColumnKind;
import io.calcitebridge.catalog.TableDef;
import io.calcitebridge.errors.ErrorKind;
import io.calcitebridge.errors.PositionedException;
import io.calcitebridge.plan.PlannerContext;
import io.calcitebridge.plan.QueryPlanner;
import io.calcitebridge.pushdown.BridgeTable;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.calcite.schema.Table;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.validate.SqlValidatorTable;
import org.apache.calcite.sql.validate.SqlValidatorUtil;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Maps an INSERT onto a table's writable columns (DESIGN §5): physical and persisted metadata
 * columns, in order.
 *
 * <ul>
 *   <li>A virtual metadata or computed column named as a target is an error naming it.
 *   <li>Without a column list the query's columns map to the writable ones by position. When the
 *       query has more, and each extra one is a virtual metadata or computed column that a {@code
 *       *} brought in, those are left out: {@code INSERT INTO t SELECT * FROM t} always works.
 *   <li>Otherwise a count mismatch is an error naming both column lists.
 * </ul>
 */
final class Inserts {
  private Inserts() {}

  static void prepare(SqlInsert insert, PlannerContext context) {
    TableDef def = targetDef(insert, context);
    if (def == null) {
      return;
    }
    if (insert instanceof io.calcitebridge.sql.SqlFlinkInsert flink
        && !flink.partitionKeys().isEmpty()
        && !flink.partitionApplied()) {
      staticPartition(flink, def);
    }
    SqlNodeList columns = insert.getTargetColumnList();
    if (columns != null) {
      checkTargets(def, columns);
      List<String> names = columns.stream().map(n -> ((SqlIdentifier) n).getSimple()).toList();
      checkCount(insert, def, names, context, null, insert.getSource().getParserPosition());
      storeDynamic(insert, def, names, context);
      return;
    }
    // The query's position, kept for the count's error: mapStar may put a query in its place.
    SqlParserPos sourcePos = insert.getSource().getParserPosition();
    StarMapping star = mapStar(insert, def, context);
    List<String> targetNames =
        star != null && star.targets() != null
            ? star.targets()
            : writable(def).stream().map(ColumnDef::name).toList();
    checkCount(
        insert, def, targetNames, context, star == null ? null : star.sourceColumns(), sourcePos);
    SqlNodeList targets = new SqlNodeList(SqlParserPos.ZERO);
    for (String name : targetNames) {
      targets.add(new SqlIdentifier(name, SqlParserPos.ZERO));
    }
    insert.setOperand(3, targets);
  }

  /**
   * Flink's static partition, {@code INSERT INTO t PARTITION (k = v, ...) [(cols)] query}: the
   * query gives the other columns (those listed, else the table's writable columns but the static
   * keys, in order) and each key takes its value, as {@code SELECT *, v AS k FROM (query)}.
   */
  private static void staticPartition(io.calcitebridge.sql.SqlFlinkInsert insert, TableDef def) {
    List<String> partitionKeys = def.flink().partitionKeys();
    List<String> keys = new ArrayList<>();
    for (SqlIdentifier k : insert.partitionKeys()) {
      String name = k.getSimple();
      if (!partitionKeys.contains(name)) {
        throw new PositionedException(
            ErrorKind.VALIDATION,
            "Static partition column "
                + name
                + " should be in the partition keys list "
                + partitionKeys
                + " for table '"
                + def.name()
                + "'",
            k.getParserPosition());
      }
      keys.add(name);
    }
    SqlParserPos pos = insert.getSource().getParserPosition();
    SqlNodeList targets = new SqlNodeList(SqlParserPos.ZERO);
    SqlNodeList columns = insert.getTargetColumnList();
    if (columns != null) {
      for (SqlNode n : columns) {
        if (keys.contains(((SqlIdentifier) n).getSimple())) {
          throw new PositionedException(
              ErrorKind.VALIDATION,
              "Column "
                  + ((SqlIdentifier) n).getSimple()
                  + " is a static partition column of the INSERT and cannot be listed again",
              n.getParserPosition());
        }
        targets.add(n);
      }
    } else {
      for (ColumnDef c : writable(def)) {
        if (!keys.contains(c.name())) {
          targets.add(new SqlIdentifier(c.name(), SqlParserPos.ZERO));
        }
      }
    }
    SqlNodeList select = new SqlNodeList(pos);
    select.add(SqlIdentifier.star(pos));
    List<SqlNode> values = insert.partitionValues();
    for (int i = 0; i < keys.size(); i++) {
      select.add(
          org.apache.calcite.sql.fun.SqlStdOperatorTable.AS.createCall(
              values.get(i).getParserPosition(),
              values.get(i),
              new SqlIdentifier(keys.get(i), SqlParserPos.ZERO)));
      targets.add(new SqlIdentifier(keys.get(i), SqlParserPos.ZERO));
    }
    SqlNode from =
        org.apache.calcite.sql.fun.SqlStdOperatorTable.AS.createCall(
            pos, insert.getSource(), new SqlIdentifier("static_partition_query", pos));
    insert.setOperand(
        2,
        new SqlSelect(
            pos, null, select, from, null, null, null, null, null, null, null, null, null));
    insert.setOperand(3, targets);
    insert.markPartitionApplied();
  }

  /**
   * An INSERT into a table with default dynamic-column storage that names undeclared columns stores
   * them in the row's {@code _dynamic} blob, typed by their values (COLUMN_CREATE).
   */
  private static void storeDynamic(
      SqlInsert insert, TableDef def, List<String> targets, PlannerContext context) {
    int shadow = def.indexOf(ColumnDef.SHADOW_NAME);
    List<String> undeclared = targets.stream().filter(n -> def.indexOf(n) < 0).toList();
    if (shadow < 0 || undeclared.isEmpty() || targets.contains(ColumnDef.SHADOW_NAME)) {
      return;
    }
    List<String> declared = targets.stream().filter(n -> def.indexOf(n) >= 0).toList();
    StringBuilder sql = new StringBuilder("SELECT ");
    for (String n : declared) {
      sql.append(quote(n)).append(", ");
    }
    sql.append("COLUMN_CREATE(");
    for (int i = 0; i < undeclared.size(); i++) {
      String n = undeclared.get(i);
      sql.append(i == 0 ? "" : ", ")
          .append('\'')
          .append(n.replace("'", "''"))
          .append("', ")
          .append(quote(n));
    }
    sql.append(") AS ")
        .append(quote(ColumnDef.SHADOW_NAME))
        .append(" FROM (")
        .append(context.unparse(insert.getSource()))
        .append(") AS `src` (")
        .append(String.join(", ", targets.stream().map(Inserts::quote).toList()))
        .append(")");
    try {
      insert.setSource((SqlSelect) context.parseStatement(sql.toString()));
    } catch (SqlParseException e) {
      throw new IllegalStateException("Cannot store dynamic columns: " + e.getMessage(), e);
    }
    SqlNodeList newTargets = new SqlNodeList(SqlParserPos.ZERO);
    for (String n : declared) {
      newTargets.add(new SqlIdentifier(n, SqlParserPos.ZERO));
    }
    newTargets.add(new SqlIdentifier(ColumnDef.SHADOW_NAME, SqlParserPos.ZERO));
    insert.setOperand(3, newTargets);
  }

  private static String quote(String name) {
    return io.calcitebridge.types.TypeNames.quote(name);
  }

  /** Fails naming both column lists when the query's column count differs from the targets'. */
  private static void checkCount(
      SqlInsert insert,
      TableDef def,
      List<String> targets,
      PlannerContext context,
      @Nullable List<String> knownSourceColumns,
      SqlParserPos pos) {
    SqlNode source = insert.getSource();
    if (!source.isA(SqlKind.QUERY)) {
      return;
    }
    List<String> sourceColumns = knownSourceColumns;
    if (sourceColumns == null) {
      QueryPlanner planner = new QueryPlanner(context);
      SqlNode copy = reparse(context, source);
      sourceColumns = planner.rowType(validate(planner, context, source, copy)).getFieldNames();
    }
    if (sourceColumns.size() != targets.size()) {
      throw new PositionedException(
          ErrorKind.VALIDATION,
          "INSERT INTO "
              + def.name()
              + " writes "
              + targets.size()
              + " columns ("
              + String.join(", ", targets)
              + ") but the query has "
              + sourceColumns.size()
              + " ("
              + String.join(", ", sourceColumns)
              + ")",
          pos);
    }
  }

  private static @Nullable TableDef targetDef(SqlInsert insert, PlannerContext context) {
    if (!(insert.getTargetTable() instanceof SqlIdentifier)) {
      return null;
    }
    SqlIdentifier target = (SqlIdentifier) insert.getTargetTable();
    io.calcitebridge.catalog.Catalog.Path path = context.catalog().path(target.names);
    Table table = path == null ? null : context.catalog().table(path);
    return table instanceof BridgeTable ? ((BridgeTable) table).def() : null;
  }

  private static void checkTargets(TableDef def, SqlNodeList columns) {
    for (SqlNode n : columns) {
      String name = ((SqlIdentifier) n).getSimple();
      int i = def.indexOf(name);
      if (i >= 0 && !def.columns().get(i).isWritable()) {
        throw new PositionedException(
            ErrorKind.VALIDATION,
            "Column '"
                + name
                + "' of table '"
                + def.name()
                + "' is "
                + (def.columns().get(i).kind() == ColumnKind.COMPUTED
                    ? "computed"
                    : "virtual metadata")
                + " and cannot be written",
            n.getParserPosition());
      }
    }
  }

  /** One column of the query's expanded select list, and the catalog column it reads. */
  private record Item(SqlNode node, String alias, @Nullable ColumnDef column, boolean fromTarget) {
    boolean unwritable() {
      return column != null && !column.isWritable();
    }
  }

  /**
   * Maps a {@code SELECT} with a star onto the target's writable columns; returns the target column
   * names, or null for all writable columns by position.
   *
   * <ul>
   *   <li>When the star brings more columns than the target takes, or the query copies the target
   *       into itself, the unwritable columns the star brought (virtual metadata, computed) are
   *       left out.
   *   <li>When the query copies the target into itself and fewer columns remain, each a writable
   *       column of the target in the target's order, they map by name (a strategy hid persisted
   *       metadata from the star). From another table they map by position, as Flink maps them.
   * </ul>
   */
  private static @Nullable StarMapping mapStar(
      SqlInsert insert, TableDef def, PlannerContext context) {
    SqlNode source = insert.getSource();
    if (!(source instanceof SqlSelect) || !hasStar((SqlSelect) source)) {
      return null;
    }
    List<ColumnDef> writable = writable(def);
    Set<String> explicit = explicitNames((SqlSelect) source);
    SqlSelect copy = (SqlSelect) reparse(context, source);
    QueryPlanner planner = new QueryPlanner(context);
    validate(planner, context, source, copy);
    List<Item> items = new ArrayList<>();
    for (SqlNode node : copy.getSelectList()) {
      items.add(item(planner, copy, node, def));
    }
    boolean selfCopy = items.stream().allMatch(i -> i.column() == null || i.fromTarget());
    List<Item> kept = items;
    if (items.size() > writable.size() || selfCopy) {
      kept = items.stream().filter(i -> !i.unwritable() || explicit.contains(i.alias())).toList();
    }
    List<String> names = kept.stream().map(Item::alias).toList();
    List<String> byName = null;
    if (selfCopy && kept.size() < writable.size()) {
      List<String> order = writable.stream().map(ColumnDef::name).filter(names::contains).toList();
      if (order.equals(names)) {
        byName = names;
      }
    }
    if (kept.size() != items.size()) {
      copy.setSelectList(
          new SqlNodeList(kept.stream().map(Item::node).toList(), SqlParserPos.ZERO));
      insert.setSource((SqlSelect) reparse(context, copy));
    }
    return new StarMapping(byName, names);
  }

  /**
   * How a star select maps onto the target: the target columns by name (null: every writable column
   * by position), and the query's columns once the unwritable ones are left out.
   */
  private record StarMapping(@Nullable List<String> targets, List<String> sourceColumns) {}

  /** The columns an INSERT without a column list writes, in order (not the dynamic blob). */
  private static List<ColumnDef> writable(TableDef def) {
    return def.writableColumns().stream().filter(c -> c.kind() != ColumnKind.SHADOW).toList();
  }

  private static Item item(QueryPlanner planner, SqlSelect select, SqlNode node, TableDef def) {
    String alias = SqlValidatorUtil.alias(node);
    SqlNode expr = node.getKind() == SqlKind.AS ? ((SqlCall) node).operand(0) : node;
    if (!(expr instanceof SqlIdentifier)) {
      return new Item(node, alias, null, false);
    }
    var q = planner.validator().getSelectScope(select).fullyQualify((SqlIdentifier) expr);
    SqlValidatorTable table = q.namespace == null ? null : q.namespace.getTable();
    BridgeTable bt = table == null ? null : table.unwrap(BridgeTable.class);
    if (bt == null || q.suffix().size() != 1) {
      return new Item(node, alias, null, false);
    }
    int i = bt.def().indexOf(q.suffix().get(0));
    return new Item(
        node, alias, i < 0 ? null : bt.def().columns().get(i), bt.def().name().equals(def.name()));
  }

  private static boolean hasStar(SqlSelect select) {
    for (SqlNode item : select.getSelectList()) {
      if (item instanceof SqlIdentifier && ((SqlIdentifier) item).isStar()) {
        return true;
      }
    }
    return false;
  }

  private static Set<String> explicitNames(SqlSelect select) {
    Set<String> names = new HashSet<>();
    for (SqlNode item : select.getSelectList()) {
      if (!(item instanceof SqlIdentifier && ((SqlIdentifier) item).isStar())) {
        String alias = SqlValidatorUtil.alias(item);
        if (alias != null) {
          names.add(alias);
        }
      }
    }
    return names;
  }

  /**
   * Validates {@code copy}, a copy of the INSERT's query {@code source} (which stays as it was, for
   * the INSERT's own validation), with {@code planner}. The copy was read again from its unparsed
   * text, where positions are that text's: when it fails, {@code source} itself is validated, so
   * that the error points into the statement as written.
   */
  private static SqlNode validate(
      QueryPlanner planner, PlannerContext context, SqlNode source, SqlNode copy) {
    try {
      return planner.validate(copy);
    } catch (RuntimeException e) {
      new QueryPlanner(context).validate(source);
      throw e;
    }
  }

  private static SqlNode reparse(PlannerContext context, SqlNode node) {
    try {
      return context.parseStatement(context.unparse(node));
    } catch (SqlParseException e) {
      throw new IllegalStateException("Cannot re-read the INSERT's query: " + e.getMessage(), e);
    }
  }
}

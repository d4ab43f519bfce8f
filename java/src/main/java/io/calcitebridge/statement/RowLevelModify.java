package io.calcitebridge.statement;

import io.calcitebridge.catalog.ColumnDef;
import io.calcitebridge.catalog.ColumnKind;
import io.calcitebridge.catalog.RowLevelStorage;
import io.calcitebridge.catalog.TableDef;
import io.calcitebridge.catalog.TableStorage;
import io.calcitebridge.errors.ErrorKind;
import io.calcitebridge.errors.PositionedException;
import io.calcitebridge.plan.PlannerContext;
import io.calcitebridge.pushdown.BridgeTable;
import io.calcitebridge.types.TypeNames;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.schema.Table;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDelete;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlUpdate;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.util.SqlShuttle;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Runs {@code UPDATE t SET ... [WHERE ...]} and {@code DELETE FROM t [WHERE ...]} on a table whose
 * storage has the row-level abilities ({@link RowLevelStorage}, as Flink's {@code
 * SupportsRowLevelUpdate} and {@code SupportsRowLevelDelete}).
 *
 * <p>The statement becomes one query over the table that reads every row: each writable column,
 * with {@code CASE WHEN condition THEN CAST(new value AS column type) ELSE column END} where an
 * UPDATE sets it, and last whether the condition holds. The user's own expressions are placed in
 * that query as parsed, so errors keep their positions. Its rows go to the storage in one {@link
 * RowLevelStorage#overwrite}: a failure while they are computed (a division by zero, an overflow, a
 * failed CAST, a NULL for a NOT NULL column) leaves the table as it was.
 *
 * <ul>
 *   <li>When a column is set more than once, the rightmost assignment wins (as in SQLite).
 *   <li>Computed and virtual metadata columns cannot be set; persisted metadata columns can.
 *   <li>On a table that stores dynamic columns (declared with {@code ...}, the {@code memory}
 *       connector), a column the DDL does not declare is set in the row's dynamic-column blob, as
 *       an INSERT stores it; on any other table it is an unknown column.
 * </ul>
 */
final class RowLevelModify {
  private static final String COND = "$cb_cond";
  private static final String SET = "$cb_set";
  private static final String MATCHED = "$matched";

  private final PlannerContext context;
  private final Function<Supplier<SqlNode>, List<Object[]>> rowsOf;

  /**
   * @param rowsOf plans the query its argument builds (afresh for each validation) and returns its
   *     rows
   */
  RowLevelModify(PlannerContext context, Function<Supplier<SqlNode>, List<Object[]>> rowsOf) {
    this.context = context;
    this.rowsOf = rowsOf;
  }

  /** What an UPDATE or DELETE writes to, and the query that computes the table's new rows. */
  record Prepared(
      boolean update,
      TableDef def,
      RowLevelStorage storage,
      Map<String, Assignment> sets,
      Supplier<SqlNode> query) {
    /** {@code Update(table=[t])} or {@code Delete(table=[t])}, as EXPLAIN shows it. */
    String label() {
      return (update ? "Update" : "Delete") + "(table=[" + def.name() + "])";
    }
  }

  /**
   * Checks the statement (the table, its ability, the SET targets) and builds the query that reads
   * every row of the table with its new values and whether the condition holds.
   */
  Prepared prepare(SqlCall statement) {
    boolean update = statement.getKind() == SqlKind.UPDATE;
    String verb = update ? "UPDATE" : "DELETE";
    SqlNode target =
        update
            ? ((SqlUpdate) statement).getTargetTable()
            : ((SqlDelete) statement).getTargetTable();
    SqlIdentifier alias =
        update ? ((SqlUpdate) statement).getAlias() : ((SqlDelete) statement).getAlias();
    SqlNode condition =
        update ? ((SqlUpdate) statement).getCondition() : ((SqlDelete) statement).getCondition();
    BridgeTable table = table(target, verb);
    TableDef def = table.def();
    io.calcitebridge.catalog.Catalog.Path path =
        target instanceof SqlIdentifier id ? context.catalog().path(id.names) : null;
    String qualified =
        path == null ? def.name() : path.catalog() + "." + path.database() + "." + path.name();
    RowLevelStorage storage =
        storage(
            table,
            def,
            update,
            statement instanceof io.calcitebridge.sql.SqlTruncateTable,
            qualified,
            target.getParserPosition());

    Map<String, Assignment> sets = new LinkedHashMap<>();
    if (update) {
      SqlUpdate u = (SqlUpdate) statement;
      for (int i = 0; i < u.getTargetColumnList().size(); i++) {
        SqlIdentifier column = (SqlIdentifier) u.getTargetColumnList().get(i);
        String name = column.names.get(column.names.size() - 1);
        sets.remove(name); // the rightmost assignment wins
        sets.put(name, new Assignment(i, column, u.getSourceExpressionList().get(i)));
      }
      checkTargets(def, sets, alias);
    }

    String qualifier = TypeNames.quote(alias != null ? alias.getSimple() : def.name());
    List<ColumnDef> writable = def.writableColumns();
    List<String> dynamic = sets.keySet().stream().filter(n -> def.indexOf(n) < 0).toList();
    StringBuilder sql = new StringBuilder("SELECT ");
    for (ColumnDef c : writable) {
      String ref = qualifier + "." + TypeNames.quote(c.name());
      Assignment set = sets.get(c.name());
      String value = ref;
      boolean changed = true;
      if (set != null) {
        value = "CAST(" + placeholder(SET, set.index()) + " AS " + castType(c.type()) + ")";
      } else if (c.kind() == ColumnKind.SHADOW && !dynamic.isEmpty()) {
        value = dynamicBlob(ref, dynamic, sets);
      } else {
        changed = false;
      }
      if (changed) {
        value =
            condition == null
                ? value
                : "CASE WHEN " + placeholder(COND, 0) + " THEN " + value + " ELSE " + ref + " END";
      }
      sql.append(value).append(" AS ").append(TypeNames.quote(c.name())).append(", ");
    }
    sql.append(condition == null ? "TRUE" : placeholder(COND, 0) + " IS TRUE")
        .append(" AS ")
        .append(TypeNames.quote(MATCHED))
        .append(" FROM ")
        .append(TypeNames.quote(def.name()));
    if (alias != null) {
      sql.append(" AS ").append(qualifier);
    }
    String skeleton = sql.toString();
    Supplier<SqlNode> build = () -> substitute(skeleton, condition, statement);
    return new Prepared(update, def, storage, sets, build);
  }

  /** Runs the statement: computes the table's new rows, and hands them to the storage. */
  RowSet run(SqlCall statement) {
    Prepared prepared = prepare(statement);
    boolean update = prepared.update();
    List<ColumnDef> writable = prepared.def().writableColumns();
    Map<String, Assignment> sets = prepared.sets();
    Supplier<SqlNode> build = prepared.query();
    RowLevelStorage storage = prepared.storage();
    List<Object[]> read = rowsOf.apply(build);
    List<Object[]> rows = new ArrayList<>(read.size());
    BitSet deleted = new BitSet();
    long affected = 0;
    for (int r = 0; r < read.size(); r++) {
      Object[] row = read.get(r);
      boolean matched = Boolean.TRUE.equals(row[writable.size()]);
      Object[] out = java.util.Arrays.copyOf(row, writable.size());
      if (matched) {
        affected++;
        if (update) {
          checkNotNull(writable, out, sets);
        } else {
          deleted.set(r);
        }
      }
      rows.add(out);
    }
    if (affected > 0) {
      try {
        storage.overwrite(rows, deleted);
      } catch (IllegalArgumentException e) {
        throw new PositionedException(
            ErrorKind.VALIDATION, e.getMessage(), statement.getParserPosition());
      }
    }
    RelDataType type =
        context
            .typeFactory()
            .builder()
            .add(update ? "rows_updated" : "rows_deleted", SqlTypeName.BIGINT)
            .build();
    return RowSet.of(
        update ? "update" : "delete", type, List.<Object[]>of(new Object[] {affected}));
  }

  /** One {@code column = value} of a SET list; {@code index} is its position there. */
  record Assignment(int index, SqlIdentifier column, SqlNode value) {}

  private BridgeTable table(SqlNode target, String verb) {
    if (target instanceof SqlIdentifier id) {
      String name = id.names.get(id.names.size() - 1);
      io.calcitebridge.catalog.Catalog.Path path = context.catalog().path(id.names);
      Table table = path == null ? null : context.catalog().table(path);
      if (table instanceof BridgeTable bt) {
        return bt;
      }
      if (path != null && context.catalog().view(path) != null) {
        throw new PositionedException(
            ErrorKind.VALIDATION,
            "Cannot " + verb + " view '" + name + "': only tables are modified",
            target.getParserPosition());
      }
      throw new PositionedException(
          ErrorKind.VALIDATION, "Object '" + name + "' not found", target.getParserPosition());
    }
    throw new PositionedException(
        ErrorKind.UNSUPPORTED, verb + " needs a table name here", target.getParserPosition());
  }

  /**
   * The table's storage when it has the ability the statement needs; else Flink's refusal (of a
   * sink without {@code SupportsRowLevelUpdate}, {@code SupportsRowLevelDelete} or {@code
   * SupportsTruncate}), naming the table {@code qualified}.
   */
  private static RowLevelStorage storage(
      BridgeTable table,
      TableDef def,
      boolean update,
      boolean truncate,
      String qualified,
      SqlParserPos pos) {
    TableStorage storage = table.storage();
    boolean able =
        storage instanceof RowLevelStorage r
            && (update ? r.supportsRowLevelUpdate() : r.supportsRowLevelDelete());
    if (!able) {
      String abilities = "org.apache.flink.table.connector.sink.abilities.";
      String message =
          truncate
              ? "TRUNCATE TABLE statement is not supported for the table "
                  + qualified
                  + " since the table hasn't implemented the interface "
                  + abilities
                  + "SupportsTruncate."
              : "Can't perform "
                  + (update ? "update" : "delete")
                  + " operation of the table "
                  + qualified
                  + " because the corresponding dynamic table sink has not yet implemented "
                  + abilities
                  + (update ? "SupportsRowLevelUpdate." : "SupportsRowLevelDelete.");
      if (def.connector().equals("python")) {
        message +=
            " A Python source gains it with "
                + (update ? "supports_row_level_update()" : "supports_row_level_delete()")
                + " and overwrite().";
      }
      throw new PositionedException(ErrorKind.UNSUPPORTED, message, pos);
    }
    return (RowLevelStorage) storage;
  }

  /** Whether {@code column} is {@code table.column} or {@code alias.column}. */
  private static boolean qualifies(
      SqlIdentifier column, TableDef def, @Nullable SqlIdentifier alias) {
    String first = column.names.get(0);
    return column.names.size() == 2
        && (first.equals(def.name()) || (alias != null && first.equals(alias.getSimple())));
  }

  private static void checkTargets(
      TableDef def, Map<String, Assignment> sets, @Nullable SqlIdentifier alias) {
    boolean blob = def.indexOf(ColumnDef.SHADOW_NAME) >= 0;
    for (Map.Entry<String, Assignment> e : sets.entrySet()) {
      String name = e.getKey();
      SqlIdentifier column = e.getValue().column();
      if (column.names.size() > 1 && !qualifies(column, def, alias)) {
        throw new PositionedException(
            ErrorKind.UNSUPPORTED,
            "SET of a field inside column '" + column.names.get(0) + "' is not supported",
            column.getParserPosition());
      }
      int i = def.indexOf(name);
      if (i < 0) {
        if (!blob && def.dynamicColumns()) {
          throw new PositionedException(
              ErrorKind.UNSUPPORTED,
              "Column '"
                  + name
                  + "' is not declared by table '"
                  + def.name()
                  + "': its dynamic columns are read from the source, and UPDATE sets declared"
                  + " columns only",
              column.getParserPosition());
        }
        if (!blob) {
          throw new PositionedException(
              ErrorKind.VALIDATION,
              "Column '" + name + "' not found in table '" + def.name() + "'",
              column.getParserPosition());
        }
        continue;
      }
      ColumnDef c = def.columns().get(i);
      if (!c.isWritable()) {
        String what =
            c.kind() == ColumnKind.COMPUTED
                ? "computed"
                : c.kind() == ColumnKind.DYNAMIC
                    ? "dynamic, read from the source,"
                    : "virtual metadata";
        throw new PositionedException(
            ErrorKind.VALIDATION,
            "Column '" + name + "' of table '" + def.name() + "' is " + what + " and cannot be SET",
            column.getParserPosition());
      }
    }
  }

  /** The row's dynamic-column blob with the undeclared SET columns written into it. */
  private static String dynamicBlob(
      String ref, List<String> dynamic, Map<String, Assignment> sets) {
    StringBuilder pairs = new StringBuilder();
    for (String n : dynamic) {
      pairs
          .append(", '")
          .append(n.replace("'", "''"))
          .append("', ")
          .append(placeholder(SET, sets.get(n).index()));
    }
    return "CASE WHEN "
        + ref
        + " IS NULL THEN COLUMN_CREATE("
        + pairs.substring(2)
        + ") ELSE COLUMN_ADD("
        + ref
        + pairs
        + ") END";
  }

  private static void checkNotNull(
      List<ColumnDef> writable, Object[] row, Map<String, Assignment> sets) {
    for (int i = 0; i < writable.size(); i++) {
      ColumnDef c = writable.get(i);
      Assignment set = sets.get(c.name());
      if (row[i] == null && set != null && !c.type().isNullable()) {
        throw new PositionedException(
            ErrorKind.VALIDATION,
            "Column '" + c.name() + "' is NOT NULL; the UPDATE gives it NULL",
            set.value().getParserPosition());
      }
    }
  }

  private static String castType(RelDataType type) {
    return TypeNames.renderNullable(type);
  }

  private static String placeholder(String kind, int index) {
    return TypeNames.quote(kind + index);
  }

  /**
   * The skeleton query with a fresh copy of the statement's condition and SET values in place of
   * each placeholder: a query validates once, and its nodes keep the statement's positions.
   */
  private SqlNode substitute(String skeleton, @Nullable SqlNode condition, SqlNode statement) {
    SqlNode parsed;
    try {
      parsed = context.parseStatement(skeleton);
    } catch (SqlParseException e) {
      throw new IllegalStateException("Cannot build the " + statement.getKind() + ": " + e, e);
    }
    Map<String, SqlNode> byName = new LinkedHashMap<>();
    if (condition != null) {
      byName.put(COND + 0, condition);
    }
    List<SqlNode> sources =
        statement instanceof SqlUpdate u ? u.getSourceExpressionList() : List.of();
    for (int i = 0; i < sources.size(); i++) {
      byName.put(SET + i, sources.get(i));
    }
    return parsed.accept(
        new SqlShuttle() {
          @Override
          public SqlNode visit(SqlIdentifier id) {
            SqlNode found = id.isSimple() ? byName.get(id.getSimple()) : null;
            return found == null ? id : copy(found);
          }
        });
  }

  /** A deep copy of {@code node}: the validator rewrites the trees it is given. */
  static SqlNode copy(SqlNode node) {
    SqlNode copied =
        node.accept(
            new SqlShuttle() {
              @Override
              public SqlNode visit(SqlIdentifier id) {
                return id.clone(id.getParserPosition());
              }

              @Override
              public @Nullable SqlNode visit(SqlCall call) {
                ArgHandler<@Nullable SqlNode> handler = new CallCopyingArgHandler(call, true);
                call.getOperator().acceptCall(this, call, false, handler);
                return handler.result();
              }

              @Override
              public SqlNode visit(SqlNodeList list) {
                SqlNodeList out = new SqlNodeList(list.getParserPosition());
                for (SqlNode n : list) {
                  out.add(n == null ? null : n.accept(this));
                }
                return out;
              }
            });
    return java.util.Objects.requireNonNull(copied);
  }
}

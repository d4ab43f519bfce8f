package io.calcitebridge.exec;

import io.calcitebridge.catalog.BridgeTable;
import io.calcitebridge.catalog.ColumnDef;
import io.calcitebridge.catalog.ColumnKind;
import io.calcitebridge.catalog.TableDef;
import io.calcitebridge.facade.BridgeException.Kind;
import io.calcitebridge.facade.PositionedException;
import io.calcitebridge.plan.PlannerContext;
import io.calcitebridge.plan.QueryPlanner;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.calcite.rel.type.RelDataType;
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
    SqlNodeList columns = insert.getTargetColumnList();
    if (columns != null) {
      checkTargets(def, columns);
      return;
    }
    List<ColumnDef> writable = def.writableColumns();
    SqlNodeList targets = new SqlNodeList(SqlParserPos.ZERO);
    for (ColumnDef c : writable) {
      targets.add(new SqlIdentifier(c.name(), SqlParserPos.ZERO));
    }
    dropStarredExtras(insert, def, writable, context);
    insert.setOperand(3, targets);
  }

  private static @Nullable TableDef targetDef(SqlInsert insert, PlannerContext context) {
    if (!(insert.getTargetTable() instanceof SqlIdentifier)) {
      return null;
    }
    SqlIdentifier target = (SqlIdentifier) insert.getTargetTable();
    Table table = target.isSimple() ? context.catalog().table(target.getSimple()) : null;
    return table instanceof BridgeTable ? ((BridgeTable) table).def() : null;
  }

  private static void checkTargets(TableDef def, SqlNodeList columns) {
    for (SqlNode n : columns) {
      String name = ((SqlIdentifier) n).getSimple();
      int i = def.indexOf(name);
      if (i >= 0 && !def.columns().get(i).isWritable()) {
        throw new PositionedException(
            Kind.VALIDATION,
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

  /**
   * When the source is a {@code SELECT} with a star whose expansion brings more columns than the
   * table can take, rewrites it without the unwritable columns the star brought.
   */
  private static void dropStarredExtras(
      SqlInsert insert, TableDef def, List<ColumnDef> writable, PlannerContext context) {
    SqlNode source = insert.getSource();
    if (!(source instanceof SqlSelect) || !hasStar((SqlSelect) source)) {
      return;
    }
    Set<String> explicit = explicitNames((SqlSelect) source);
    SqlSelect copy = (SqlSelect) reparse(context, source);
    QueryPlanner planner = new QueryPlanner(context);
    RelDataType rowType = planner.rowType(planner.validate(copy));
    if (rowType.getFieldCount() <= writable.size()) {
      return;
    }
    List<SqlNode> kept = new ArrayList<>();
    List<String> dropped = new ArrayList<>();
    SqlNodeList expanded = copy.getSelectList();
    for (SqlNode item : expanded) {
      ColumnDef col = sourceColumn(planner, copy, item);
      String alias = SqlValidatorUtil.alias(item);
      if (col != null && !col.isWritable() && !explicit.contains(alias)) {
        dropped.add(alias);
      } else {
        kept.add(item);
      }
    }
    if (kept.size() != writable.size()) {
      throw new PositionedException(
          Kind.VALIDATION,
          "INSERT INTO "
              + def.name()
              + " writes "
              + writable.size()
              + " columns ("
              + writable.stream().map(ColumnDef::name).collect(Collectors.joining(", "))
              + ") but the query has "
              + rowType.getFieldCount()
              + " ("
              + String.join(", ", rowType.getFieldNames())
              + ")",
          source.getParserPosition());
    }
    copy.setSelectList(new SqlNodeList(kept, expanded.getParserPosition()));
    insert.setSource((SqlSelect) reparse(context, copy));
  }

  private static @Nullable ColumnDef sourceColumn(
      QueryPlanner planner, SqlSelect select, SqlNode item) {
    SqlNode expr = item.getKind() == SqlKind.AS ? ((SqlCall) item).operand(0) : item;
    if (!(expr instanceof SqlIdentifier)) {
      return null;
    }
    var scope = planner.validator().getSelectScope(select);
    var q = scope.fullyQualify((SqlIdentifier) expr);
    if (q.namespace == null || q.suffix().size() != 1) {
      return null;
    }
    SqlValidatorTable table = q.namespace.getTable();
    BridgeTable bt = table == null ? null : table.unwrap(BridgeTable.class);
    if (bt == null) {
      return null;
    }
    int i = bt.def().indexOf(q.suffix().get(0));
    return i < 0 ? null : bt.def().columns().get(i);
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

  private static SqlNode reparse(PlannerContext context, SqlNode node) {
    try {
      return context.parseStatement(context.unparse(node));
    } catch (SqlParseException e) {
      throw new IllegalStateException("Cannot re-read the INSERT's query: " + e.getMessage(), e);
    }
  }
}

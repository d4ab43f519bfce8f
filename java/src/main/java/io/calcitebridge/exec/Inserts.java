package io.calcitebridge.exec;

import io.calcitebridge.catalog.BridgeTable;
import io.calcitebridge.catalog.ColumnDef;
import io.calcitebridge.catalog.TableDef;
import io.calcitebridge.facade.BridgeException.Kind;
import io.calcitebridge.facade.PositionedException;
import io.calcitebridge.plan.PlannerContext;
import java.util.List;
import org.apache.calcite.schema.Table;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * Maps an INSERT onto a table's writable columns (DESIGN §5): physical and persisted metadata
 * columns, in order. A virtual metadata or computed column named as a target is an error.
 */
final class Inserts {
  private Inserts() {}

  static void prepare(SqlInsert insert, PlannerContext context) {
    if (!(insert.getTargetTable() instanceof SqlIdentifier)) {
      return;
    }
    SqlIdentifier target = (SqlIdentifier) insert.getTargetTable();
    Table table = target.isSimple() ? context.catalog().table(target.getSimple()) : null;
    if (!(table instanceof BridgeTable)) {
      return;
    }
    TableDef def = ((BridgeTable) table).def();
    SqlNodeList columns = insert.getTargetColumnList();
    if (columns != null) {
      for (SqlNode n : columns) {
        String name = ((SqlIdentifier) n).getSimple();
        int i = def.indexOf(name);
        if (i >= 0 && !def.columns().get(i).isWritable()) {
          throw new PositionedException(
              Kind.VALIDATION,
              "Column '" + name + "' of table '" + def.name() + "' is "
                  + (def.columns().get(i).kind() == io.calcitebridge.catalog.ColumnKind.COMPUTED
                      ? "computed"
                      : "virtual metadata")
                  + " and cannot be written",
              n.getParserPosition());
        }
      }
      return;
    }
    List<ColumnDef> writable = def.writableColumns();
    if (writable.size() == def.columns().size()) {
      return;
    }
    SqlNodeList list = new SqlNodeList(SqlParserPos.ZERO);
    for (ColumnDef c : writable) {
      list.add(new SqlIdentifier(c.name(), SqlParserPos.ZERO));
    }
    insert.setOperand(3, list);
  }
}

package io.calcitebridge.translate;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlUtil;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.sql.validate.SqlValidatorUtil;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The sort keys of the SQL written for DuckDB and Spark, read as the plan means them. Both read a
 * bare name in ORDER BY as an item of the select list first, and only then as a column of the FROM
 * clause; Calcite's converter writes a sort key as the column of the FROM clause it sorts by, which
 * a select item of that name then captures. {@code SELECT id, -n AS n FROM t ORDER BY t.n} became
 * {@code SELECT "id", - "n" AS "n" FROM "scan_0" ORDER BY "n"}, sorted by {@code -n}; {@code SELECT
 * s AS n, n AS s FROM t ORDER BY n} sorted by the other column. Such a key is qualified by the
 * relation of the FROM clause ({@code ORDER BY "scan_0"."n"}), which names the column itself.
 * DuckDB matches names without regard to case, so an item whose name differs only in case captures
 * a key too.
 */
final class OrderByColumns {
  private OrderByColumns() {}

  /** Qualifies, in each SELECT of {@code statement}, the sort keys a select item would capture. */
  static SqlNode qualify(SqlNode statement) {
    statement.accept(
        new SqlBasicVisitor<Void>() {
          @Override
          public Void visit(SqlCall call) {
            if (call instanceof SqlSelect select) {
              qualify(select);
            }
            return super.visit(call);
          }
        });
    return statement;
  }

  private static void qualify(SqlSelect select) {
    SqlNodeList order = select.getOrderList();
    List<String> relation = relation(select.getFrom());
    if (order == null || order.isEmpty() || relation == null) {
      return; // a join's columns are written qualified already
    }
    List<SqlNode> keys = new ArrayList<>(order.size());
    boolean changed = false;
    for (SqlNode key : order) {
      SqlNode qualified = qualified(key, select.getSelectList(), relation);
      changed |= qualified != key;
      keys.add(qualified);
    }
    if (changed) {
      select.setOrderBy(new SqlNodeList(keys, order.getParserPosition()));
    }
  }

  /** The name of the one relation of a FROM clause, or null (a join, or no FROM clause). */
  static @Nullable List<String> relation(@Nullable SqlNode from) {
    if (from instanceof SqlIdentifier table) {
      return table.names;
    }
    if (from instanceof SqlCall as
        && as.getKind() == SqlKind.AS
        && as.operand(1) instanceof SqlIdentifier alias) {
      return alias.names;
    }
    return null;
  }

  private static SqlNode qualified(SqlNode key, SqlNodeList items, List<String> relation) {
    if (key instanceof SqlCall call
        && (call.getKind() == SqlKind.DESCENDING
            || call.getKind() == SqlKind.NULLS_FIRST
            || call.getKind() == SqlKind.NULLS_LAST)) {
      SqlNode operand = call.operand(0);
      SqlNode qualified = qualified(operand, items, relation);
      return qualified == operand
          ? key
          : call.getOperator().createCall(call.getParserPosition(), qualified);
    }
    if (key instanceof SqlIdentifier column
        && column.isSimple()
        && captured(column.getSimple(), items)) {
      List<String> names = new ArrayList<>(relation);
      names.add(column.getSimple());
      return new SqlIdentifier(names, column.getParserPosition());
    }
    return key;
  }

  /** Whether a select item other than the column {@code name} itself is named {@code name}. */
  private static boolean captured(String name, SqlNodeList items) {
    for (SqlNode item : items) {
      String alias = SqlValidatorUtil.alias(item);
      if (alias != null
          && alias.equalsIgnoreCase(name)
          && !(SqlUtil.stripAs(item) instanceof SqlIdentifier value
              && value.isSimple()
              && value.getSimple().equals(name))) {
        return true;
      }
    }
    return false;
  }
}

package io.calcitebridge.translate;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The fields of ROW columns in the Spark SQL written, read as fields. Spark reads {@code t.x} (and
 * {@code (t).x}, whose parentheses its parser drops) as the column x of a relation t first, and the
 * converter names its relations {@code t}, {@code t0}, {@code scan_0}, ... as a user may name a ROW
 * column: {@code SELECT q.t.x FROM (SELECT t, x, ... ) AS q} read the sub-query's column x. So the
 * column of each field ({@link SparkOperators#FIELD}) that a SELECT reads from the one relation of
 * its FROM clause is qualified by that relation ({@code (`t`.`t`).`x`}); in a join the columns are
 * written qualified already.
 */
final class SparkFieldColumns {
  private SparkFieldColumns() {}

  static SqlNode qualify(SqlNode statement) {
    qualify(statement, null);
    return statement;
  }

  /** Qualifies the fields' columns of {@code node}, read from {@code relation} where not null. */
  private static void qualify(@Nullable SqlNode node, @Nullable List<String> relation) {
    if (node instanceof SqlSelect select) {
      List<String> from = OrderByColumns.relation(select.getFrom());
      qualify(select.getFrom(), null); // its sub-queries, each with its own FROM clause
      qualify(select.getSelectList(), from);
      qualify(select.getWhere(), from);
      qualify(select.getGroup(), from);
      qualify(select.getHaving(), from);
      qualify(select.getQualify(), from);
      qualify(select.getWindowList(), from);
      qualify(select.getOrderList(), from);
      return;
    }
    if (node instanceof SqlNodeList list) {
      for (SqlNode item : list) {
        qualify(item, relation);
      }
      return;
    }
    if (!(node instanceof SqlCall call)) {
      return;
    }
    if (call.getOperator() == SparkOperators.FIELD
        && relation != null
        && call instanceof SqlBasicCall field
        && field.operand(0) instanceof SqlIdentifier column
        && column.isSimple()) {
      List<String> names = new ArrayList<>(relation);
      names.add(column.getSimple());
      field.setOperand(0, new SqlIdentifier(names, column.getParserPosition()));
      return;
    }
    for (SqlNode operand : call.getOperandList()) {
      qualify(operand, relation);
    }
  }
}

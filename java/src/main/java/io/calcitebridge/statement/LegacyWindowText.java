package io.calcitebridge.statement;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlIntervalLiteral;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.util.SqlShuttle;
import org.apache.calcite.util.Litmus;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A view's stored query with its legacy group windows written as the user wrote them, as Flink's
 * {@code SHOW CREATE VIEW} prints them: the planner rewrites {@code GROUP BY TUMBLE(ts, size)} into
 * a grouping by {@code $TUMBLE($WINDOWED_TIME(ts), size)} of the rows whose {@code ts IS NOT NULL},
 * and {@code GROUP BY HOP(ts, slide, size)} into a grouping by {@code $GROUP_HOP(...)} over {@code
 * CROSS JOIN UNNEST($WINDOWS(...))}, with {@code HOP_START}, {@code HOP_END} and {@code *_ROWTIME}
 * as expressions of the key. This gives back {@code $TUMBLE(ts, size)}, {@code $HOP(ts, slide,
 * size)} and the auxiliary functions by their names.
 */
final class LegacyWindowText {
  private LegacyWindowText() {}

  /** The alias LegacyHop gives the windows of a row. */
  private static final String WINDOWS = "w$hop";

  /** {@code node} (parsed from a view's stored text) with its legacy windows as written. */
  static SqlNode restore(SqlNode node) {
    SqlNode out = node.accept(new Restorer());
    return out == null ? node : out;
  }

  private static String name(SqlCall call) {
    return call.getOperator().getName().toUpperCase(Locale.ROOT);
  }

  private static SqlOperator function(String name) {
    return new SqlFunction(
        name, SqlKind.OTHER_FUNCTION, ReturnTypes.ARG0, null, null, SqlFunctionCategory.SYSTEM);
  }

  private static final class Restorer extends SqlShuttle {
    @Override
    public @Nullable SqlNode visit(SqlCall call) {
      if (call instanceof SqlSelect select) {
        restoreSelect(select);
      }
      String name = name(call);
      if (name.equals("$WINDOWED_TIME") && call.operandCount() == 1) {
        return call.operand(0).accept(this);
      }
      if (name.equals("$ROWTIME") && call.operandCount() == 1) {
        SqlNode end = call.operand(0);
        if (end instanceof SqlCall e && name(e).equals("TUMBLE_END")) {
          return function("TUMBLE_ROWTIME").createCall(e.getParserPosition(), operands(e, this));
        }
        SqlCall hop = end instanceof SqlCall e ? hopEnd(e) : null;
        if (hop != null) {
          return function("HOP_ROWTIME").createCall(end.getParserPosition(), hopWindow(hop, this));
        }
      }
      SqlCall key = hopEnd(call);
      if (key != null) {
        return SqlStdOperatorTable.HOP_END.createCall(
            call.getParserPosition(), hopWindow(key, this));
      }
      if (name.equals("$GROUP_HOP") && call.operandCount() == 6) {
        return SqlStdOperatorTable.HOP_START.createCall(
            call.getParserPosition(), hopWindow(call, this));
      }
      return super.visit(call);
    }

    /**
     * The {@code FROM}, {@code WHERE} and {@code GROUP BY} of a select grouped by a rewritten
     * window: without the windows' {@code UNNEST} and the {@code IS NOT NULL} of the time, with
     * {@code $HOP(...)} as its key.
     */
    private void restoreSelect(SqlSelect select) {
      SqlNodeList group = select.getGroup();
      if (group == null) {
        return;
      }
      for (int i = 0; i < group.size(); i++) {
        SqlNode key = group.get(i);
        if (key instanceof SqlCall call && name(call).equals("$GROUP_HOP")) {
          group.set(
              i,
              SqlStdOperatorTable.HOP_OLD.createCall(
                  call.getParserPosition(), hopWindow(call, this)));
          if (select.getFrom() instanceof SqlJoin join && isWindows(join.getRight())) {
            select.setFrom(join.getLeft());
          }
        } else if (key instanceof SqlCall call
            && name(call).equals("$TUMBLE")
            && call.operandCount() >= 2
            && call.operand(0) instanceof SqlCall windowed
            && name(windowed).equals("$WINDOWED_TIME")
            && windowed.operandCount() == 1) {
          select.setWhere(withoutNotNull(select.getWhere(), windowed.operand(0)));
        }
      }
    }
  }

  private static boolean isWindows(SqlNode node) {
    return node instanceof SqlCall as
        && as.getKind() == SqlKind.AS
        && as.operandCount() >= 2
        && as.operand(1) instanceof SqlIdentifier alias
        && alias.getSimple().equals(WINDOWS);
  }

  /** The key of {@code $GROUP_HOP(...) + size} (HOP_END's rewrite), or null. */
  private static @Nullable SqlCall hopEnd(SqlCall call) {
    if (call.getKind() == SqlKind.PLUS
        && call.operandCount() == 2
        && call.operand(0) instanceof SqlCall key
        && name(key).equals("$GROUP_HOP")
        && key.operandCount() == 6
        && call.operand(1).equalsDeep(key.operand(3), Litmus.IGNORE)) {
      return key;
    }
    return null;
  }

  /**
   * The window of {@code $GROUP_HOP(kind, ts, slide, size, offset, key)}: ts, slide, size[,
   * offset].
   */
  private static SqlNode[] hopWindow(SqlCall key, SqlShuttle shuttle) {
    List<SqlNode> window = new ArrayList<>();
    for (int i = 1; i <= 3; i++) {
      window.add(key.operand(i).accept(shuttle));
    }
    SqlNode offset = key.operand(4);
    if (!(offset instanceof SqlIntervalLiteral interval && isZero(interval))) {
      window.add(offset);
    }
    return window.toArray(new SqlNode[0]);
  }

  private static boolean isZero(SqlIntervalLiteral interval) {
    return interval.getValue() instanceof SqlIntervalLiteral.IntervalValue value
        && value.getIntervalLiteral().strip().matches("0+");
  }

  private static SqlNode[] operands(SqlCall call, SqlShuttle shuttle) {
    List<SqlNode> out = new ArrayList<>();
    for (SqlNode o : call.getOperandList()) {
      out.add(o.accept(shuttle));
    }
    return out.toArray(new SqlNode[0]);
  }

  /** {@code where} without its first conjunct {@code time IS NOT NULL}; null when that was all. */
  private static @Nullable SqlNode withoutNotNull(@Nullable SqlNode where, SqlNode time) {
    if (where == null) {
      return null;
    }
    List<SqlNode> conjuncts = new ArrayList<>();
    flatten(where, conjuncts);
    SqlNode first = conjuncts.get(0);
    if (!(first instanceof SqlCall isNotNull
        && isNotNull.getKind() == SqlKind.IS_NOT_NULL
        && isNotNull.operand(0).equalsDeep(time, Litmus.IGNORE))) {
      return where;
    }
    conjuncts.remove(0);
    SqlNode out = null;
    for (SqlNode c : conjuncts) {
      out = out == null ? c : SqlStdOperatorTable.AND.createCall(where.getParserPosition(), out, c);
    }
    return out;
  }

  private static void flatten(SqlNode node, List<SqlNode> out) {
    if (node instanceof SqlBasicCall call && call.getKind() == SqlKind.AND) {
      for (SqlNode o : call.getOperandList()) {
        flatten(o, out);
      }
    } else {
      out.add(node);
    }
  }
}

package io.calcitebridge.functions;

import java.util.List;
import java.util.Locale;
import org.apache.calcite.avatica.util.TimeUnit;
import org.apache.calcite.sql.JoinConditionType;
import org.apache.calcite.sql.JoinType;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlWith;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlShuttle;
import org.apache.calcite.util.Litmus;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Flink's legacy hopping group window in batch queries, {@code GROUP BY HOP(ts, slide, size[,
 * offset])} with {@code HOP_START}, {@code HOP_END} and {@code HOP_ROWTIME}, rewritten before
 * validation into a grouping by the windows of each row, as the window table-valued function {@code
 * HOP} makes them ({@link WindowFunctions}):
 *
 * <pre>
 * SELECT HOP_START(ts, slide, size), COUNT(*) FROM t GROUP BY HOP(ts, slide, size), k
 *   becomes
 * SELECT $GROUP_HOP(1, ts, slide, size, offset, w$hop.k), COUNT(*)
 * FROM t CROSS JOIN UNNEST($WINDOWS(1, ts, slide, size, offset)) AS w$hop(k)
 * GROUP BY $GROUP_HOP(1, ts, slide, size, offset, w$hop.k), k
 * </pre>
 *
 * <p>A row belongs to each window that holds its time (none for a NULL time, so the row drops out,
 * as in Flink). The key is the window's start, of the time's type, as for {@code GROUP BY
 * TUMBLE(...)}: it is {@code HOP_START}; {@code HOP_END} is {@code size} after it, and {@code
 * HOP_ROWTIME} one millisecond before that, nullable as Flink types it ({@link
 * WindowFunctions#ROWTIME}).
 */
public final class LegacyHop {
  private LegacyHop() {}

  /** The alias of the windows of a row. */
  private static final String WINDOWS = "w$hop";

  /**
   * {@code node} with each legacy {@code GROUP BY HOP(...)} rewritten (see the class comment), with
   * its auxiliary functions in the select list, {@code HAVING} and {@code ORDER BY}.
   */
  public static SqlNode rewrite(SqlNode node) {
    SqlNode out =
        node.accept(
            new SqlShuttle() {
              @Override
              public @Nullable SqlNode visit(SqlCall call) {
                if (call instanceof SqlOrderBy order
                    && (order.query instanceof SqlWith with ? with.body : order.query)
                        instanceof SqlSelect select) {
                  // ORDER BY HOP_START(ts, ...) of a query grouped by HOP(ts, ...).
                  SqlShuttle hop = auxiliaries(select);
                  if (hop != null) {
                    WindowFunctions.replace(order.orderList, hop);
                  }
                }
                if (call instanceof SqlSelect select && select.getGroup() != null) {
                  SqlNodeList keys = select.getGroup();
                  singleGroupWindow(keys);
                  for (int i = 0; i < keys.size(); i++) {
                    if (keys.get(i) instanceof SqlCall group && isHop(group)) {
                      keys.set(i, rewrite(select, group));
                    }
                  }
                }
                return super.visit(call);
              }
            });
    return out == null ? node : out;
  }

  /**
   * Rewrites {@code select}, grouped by {@code group} ({@code HOP(ts, slide, size[, offset])}): its
   * {@code FROM} joined with the windows of each row, its auxiliary functions of the window as
   * expressions of the window's key; gives the key that replaces {@code group} in the {@code GROUP
   * BY}.
   */
  private static SqlNode rewrite(SqlSelect select, SqlCall group) {
    SqlParserPos pos = group.getParserPosition();
    WindowFunctions.replaceAll(select, auxiliaries(group));
    List<SqlNode> args = arguments(group);
    SqlNode windows =
        WindowFunctions.WINDOWS.createCall(
            pos,
            SqlLiteral.createExactNumeric(Integer.toString(WindowFunctions.HOP), pos),
            copy(args.get(0)),
            copy(args.get(1)),
            copy(args.get(2)),
            copy(args.get(3)));
    SqlNode unnest =
        SqlStdOperatorTable.AS.createCall(
            pos,
            SqlStdOperatorTable.UNNEST.createCall(pos, windows),
            new SqlIdentifier(WINDOWS, pos),
            new SqlIdentifier("k", pos));
    SqlNode from = select.getFrom();
    select.setFrom(
        new SqlJoin(
            pos,
            from == null ? unnest : from,
            SqlLiteral.createBoolean(false, pos),
            JoinType.CROSS.symbol(pos),
            unnest,
            JoinConditionType.NONE.symbol(pos),
            null));
    return key(group);
  }

  /**
   * The shuttle that replaces {@code HOP_START}, {@code HOP_END} and {@code HOP_ROWTIME} of the
   * legacy {@code GROUP BY HOP(...)} of {@code select} by expressions of its key, or null when
   * {@code select} has no such window.
   */
  private static @Nullable SqlShuttle auxiliaries(SqlSelect select) {
    if (select.getGroup() == null) {
      return null;
    }
    for (SqlNode key : select.getGroup()) {
      if (key instanceof SqlCall group && isHop(group)) {
        return auxiliaries(group);
      }
    }
    return null;
  }

  /** The group windows of legacy {@code GROUP BY}: {@code TUMBLE}, {@code HOP}, {@code SESSION}. */
  private static final java.util.Set<String> GROUP_WINDOWS =
      java.util.Set.of("TUMBLE", "HOP", "SESSION");

  /**
   * Refuses a {@code GROUP BY} of more than one group window ({@code TUMBLE(...), HOP(...)}) as
   * Flink does, at the second one.
   */
  private static void singleGroupWindow(SqlNodeList keys) {
    boolean seen = false;
    for (SqlNode key : keys) {
      if (key instanceof SqlCall group
          && !(group instanceof SqlSelect)
          && GROUP_WINDOWS.contains(
              group.getOperator().getName().toUpperCase(Locale.ROOT).replace("$", ""))) {
        if (seen) {
          throw org.apache.calcite.sql.SqlUtil.newContextException(
              group.getParserPosition(), WindowFunctions.Messages.RESOURCE.singleGroupWindow());
        }
        seen = true;
      }
    }
  }

  private static boolean isHop(SqlCall group) {
    return group.getOperator().getName().toUpperCase(Locale.ROOT).replace("$", "").equals("HOP")
        && group.operandCount() >= 3;
  }

  private static SqlShuttle auxiliaries(SqlCall group) {
    List<SqlNode> window = group.getOperandList();
    return new SqlShuttle() {
      @Override
      public @Nullable SqlNode visit(SqlCall call) {
        String name = call.getOperator().getName().toUpperCase(Locale.ROOT);
        if ((name.equals("HOP_START") || name.equals("HOP_END") || name.equals("HOP_ROWTIME"))
            && sameWindow(call.getOperandList(), window)) {
          SqlParserPos pos = call.getParserPosition();
          SqlNode end =
              SqlStdOperatorTable.PLUS.createCall(pos, key(group), copy(arguments(group).get(2)));
          return switch (name) {
            case "HOP_ROWTIME" -> WindowFunctions.ROWTIME.createCall(pos, end);
            case "HOP_END" -> end;
            default -> key(group);
          };
        }
        return super.visit(call);
      }
    };
  }

  private static boolean sameWindow(List<SqlNode> a, List<SqlNode> b) {
    if (a.size() != b.size()) {
      return false;
    }
    for (int i = 0; i < a.size(); i++) {
      if (!a.get(i).equalsDeep(b.get(i), Litmus.IGNORE)) {
        return false;
      }
    }
    return true;
  }

  /** The key of a row's window: its start, of the time's type. */
  private static SqlNode key(SqlCall group) {
    SqlParserPos pos = group.getParserPosition();
    List<SqlNode> args = arguments(group);
    return WindowFunctions.GROUP_HOP.createCall(
        pos,
        SqlLiteral.createExactNumeric(Integer.toString(WindowFunctions.HOP), pos),
        copy(args.get(0)),
        copy(args.get(1)),
        copy(args.get(2)),
        copy(args.get(3)),
        new SqlIdentifier(List.of(WINDOWS, "k"), pos));
  }

  /** Time, slide, size and offset (zero when the window has none). */
  private static List<SqlNode> arguments(SqlCall group) {
    SqlParserPos pos = group.getParserPosition();
    SqlNode offset =
        group.operandCount() > 3
            ? group.operand(3)
            : SqlLiteral.createInterval(
                1, "0", new SqlIntervalQualifier(TimeUnit.SECOND, null, pos), pos);
    return List.of(group.operand(0), group.operand(1), group.operand(2), offset);
  }

  private static SqlNode copy(SqlNode node) {
    return node.clone(node.getParserPosition());
  }
}

package io.calcitebridge.sql;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlShuttle;

/**
 * A row of VALUES written {@code (ROW(a, b))} is one column, a ROW of two fields, as Flink's users
 * mean it: {@code INSERT INTO t VALUES (ROW(1, 'x'))} into a table of one ROW column.
 *
 * <p>Calcite's grammar reads {@code (ROW(...))} as the row itself (the extra parentheses are
 * accepted "as a hack for unparse"), so that INSERT had two columns for one. The parser marks such
 * a row with a position that starts at the opening parenthesis, where {@code ROW(a, b)} alone
 * starts at {@code ROW}: only the rows written with the parentheses become one column.
 */
public final class ParenthesizedRows extends SqlShuttle {
  private static final Pattern PARENTHESIZED_ROW =
      Pattern.compile("\\(\\s*ROW\\s*\\(", Pattern.CASE_INSENSITIVE);

  private final String sql;
  private final int[] lineStarts;

  private ParenthesizedRows(String sql) {
    this.sql = sql;
    java.util.List<Integer> starts = new java.util.ArrayList<>();
    starts.add(0);
    for (int i = 0; i < sql.length(); i++) {
      if (sql.charAt(i) == '\n') {
        starts.add(i + 1);
      }
    }
    this.lineStarts = starts.stream().mapToInt(Integer::intValue).toArray();
  }

  /**
   * {@code node} parsed from {@code sql}, with its VALUES rows written {@code (ROW(...))} as one
   * ROW column.
   */
  public static SqlNode apply(String sql, SqlNode node) {
    if (!PARENTHESIZED_ROW.matcher(sql).find()) {
      return node;
    }
    SqlNode out = node.accept(new ParenthesizedRows(sql));
    return out == null ? node : out;
  }

  @Override
  public SqlNode visit(SqlCall call) {
    if (call.getKind() == SqlKind.VALUES) {
      for (int i = 0; i < call.operandCount(); i++) {
        if (call.operand(i) instanceof SqlCall row
            && row.getKind() == SqlKind.ROW
            && parenthesized(row.getParserPosition())) {
          SqlParserPos pos = row.getParserPosition();
          call.setOperand(i, SqlStdOperatorTable.ROW.createCall(pos, row));
        }
      }
    }
    return super.visit(call);
  }

  /** Whether the text at {@code pos} is {@code (ROW(}: a row written in parentheses. */
  private boolean parenthesized(SqlParserPos pos) {
    int line = pos.getLineNum();
    if (line < 1 || line > lineStarts.length || pos.getColumnNum() < 1) {
      return false;
    }
    int offset = lineStarts[line - 1] + pos.getColumnNum() - 1;
    if (offset >= sql.length()) {
      return false;
    }
    Matcher m = PARENTHESIZED_ROW.matcher(sql);
    m.region(offset, sql.length());
    return m.lookingAt();
  }
}

package io.calcitebridge.dyncol;

import io.calcitebridge.dyncol.DynColOperators.DynColFunction;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * The parser's side of the dynamic-columns functions: the generated parser hands a call's parsed
 * arguments to {@link #call}, which lays them out as {@link DynColOperators} expects them (a type
 * literal after each value, '' when the SQL gave no {@code AS type}) and checks their count.
 */
public final class DynColCalls {
  private DynColCalls() {}

  /**
   * Builds a call from parsed arguments: {@code parts} holds SqlNodes and, after a value, the type
   * name that followed {@code AS} (a String).
   */
  public static SqlCall call(String name, List<Object> parts, SqlParserPos pos) {
    DynColFunction f = DynColOperators.byName(name);
    DynColShape shape = f.shape();
    List<SqlNode> ops = new ArrayList<>();
    int i = 0;
    if (shape == DynColShape.ADD || shape == DynColShape.GET) {
      i = take(parts, i, ops, name);
      if (i >= parts.size()) {
        throw new IllegalArgumentException(
            "Incorrect parameter count in the call to native function '" + name + "'");
      }
    }
    if (shape == DynColShape.CREATE || shape == DynColShape.ADD || shape == DynColShape.GET) {
      while (i < parts.size()) {
        i = take(parts, i, ops, name);
        if (shape == DynColShape.GET) {
          if (i >= parts.size() || !(parts.get(i) instanceof String)) {
            throw new IllegalArgumentException("COLUMN_GET needs 'AS type' after the column name");
          }
          ops.add(typeLiteral((String) parts.get(i++), pos));
          break;
        }
        if (i >= parts.size() || parts.get(i) instanceof String) {
          throw new IllegalArgumentException(
              "Incorrect parameter count in the call to native function '" + name + "'");
        }
        i = take(parts, i, ops, name);
        if (i < parts.size() && parts.get(i) instanceof String) {
          ops.add(typeLiteral((String) parts.get(i++), pos));
        } else {
          ops.add(SqlLiteral.createCharString("", pos));
        }
      }
      if (i < parts.size()) {
        throw new IllegalArgumentException(
            "Incorrect parameter count in the call to native function '" + name + "'");
      }
    } else {
      while (i < parts.size()) {
        i = take(parts, i, ops, name);
      }
    }
    f.checkCount(ops.size());
    return f.createCall(pos, ops);
  }

  private static int take(List<Object> parts, int i, List<SqlNode> ops, String name) {
    Object p = parts.get(i);
    if (!(p instanceof SqlNode)) {
      throw new IllegalArgumentException("Unexpected 'AS " + p + "' in " + name);
    }
    ops.add((SqlNode) p);
    return i + 1;
  }

  private static SqlLiteral typeLiteral(String text, SqlParserPos pos) {
    return SqlLiteral.createCharString(DynType.parse(text).toString(), pos);
  }
}

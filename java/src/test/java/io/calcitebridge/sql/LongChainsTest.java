package io.calcitebridge.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.calcitebridge.errors.PositionedException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.IntFunction;
import org.apache.calcite.sql.SqlNode;
import org.junit.jupiter.api.Test;

/**
 * {@link LongChains} skips its walks of a statement whose text's words ({@link TextChecks#check})
 * rule out a long chain, a deep type and deep queries: it then gives what its walks give, for
 * statements at and around each limit, written the ways the parser reads them.
 */
class LongChainsTest {
  /** What balancing the statement gives, with the text's words or without: its text or error. */
  private static String balanced(String sql, boolean withWords) throws Exception {
    TextChecks.Words words = TextChecks.check(sql);
    SqlNode parsed = BridgeParser.parseStatement(sql);
    try {
      return LongChains.balance(parsed, withWords ? words : null).toString();
    } catch (PositionedException e) {
      return "error: " + e.getMessage();
    }
  }

  private static void same(String sql) throws Exception {
    assertEquals(balanced(sql, false), balanced(sql, true), sql);
  }

  private static String repeat(int n, IntFunction<String> part, String separator) {
    List<String> parts = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      parts.add(part.apply(i));
    }
    return String.join(separator, parts);
  }

  private static String nested(int depth, String open, String inner, String close) {
    return open.repeat(depth) + inner + close.repeat(depth);
  }

  @Test
  void chainsAroundTheLimitAreBalancedAsWithoutTheWords() throws Exception {
    for (int terms : new int[] {LongChains.MIN_TERMS, LongChains.MIN_TERMS + 1, 200}) {
      for (String op : new String[] {"OR", "and"}) {
        same("SELECT * FROM t WHERE " + repeat(terms, i -> "a = " + i, " " + op + " "));
        // After a digit the parser starts a new token: 1OR is 1, then OR.
        same("SELECT * FROM t WHERE " + repeat(terms, i -> "a=" + i, op + " "));
        same("SELECT * FROM t WHERE " + repeat(terms, i -> "(a=" + i + ")", op));
      }
    }
    String chain = "SELECT * FROM t WHERE " + repeat(65, i -> "a = " + i, " OR ");
    assertFalse(balanced(chain, true).contains("OR `A` = 1 OR"));
  }

  @Test
  void deepTypesAreRefusedAsWithoutTheWords() throws Exception {
    int limit = LongChains.MAX_TYPE_DEPTH;
    for (int depth :
        new int[] {limit / 2 - 1, limit / 2, limit / 2 + 1, limit - 1, limit, limit + 1}) {
      same("SELECT CAST(NULL AS " + nested(depth, "ARRAY<", "INT", ">") + ") FROM t");
      same("SELECT CAST(NULL AS " + nested(depth, "MAP<INT, ", "INT", ">") + ") FROM t");
      same("SELECT CAST(NULL AS " + nested(depth, "ROW<a ", "INT", ">") + ") FROM t");
      same("SELECT CAST(NULL AS INT" + " ARRAY".repeat(depth) + ") FROM t");
      same("SELECT CAST(NULL AS INT" + " MULTISET".repeat(depth) + ") FROM t");
      same("CREATE TABLE x (c " + nested(depth, "MAP<INT,", "INT", ">") + ")");
    }
    String deep =
        "SELECT CAST(NULL AS " + nested(limit / 2 + 1, "MAP<INT,", "INT", ">") + ") FROM t";
    assertTrue(balanced(deep, true).startsWith("error: The type nests"), balanced(deep, true));
  }

  @Test
  void deepQueriesAreRefusedAsWithoutTheWords() throws Exception {
    int limit = LongChains.MAX_QUERY_DEPTH;
    for (int depth : new int[] {limit / 2, limit - 1, limit, limit + 1}) {
      same(nested(depth, "SELECT * FROM (", "SELECT 1", ")"));
      // Each LIMIT makes an ORDER BY node around its query: two levels a SELECT.
      same(nested(depth / 2 + 1, "SELECT * FROM (", "SELECT 1", ") LIMIT 1"));
      same(nested(depth, "SELECT 1 UNION ALL (", "VALUES (1)", ")"));
    }
    String deep = nested(limit / 2 + 1, "SELECT * FROM (", "SELECT 1", ") LIMIT 1");
    assertTrue(balanced(deep, true).startsWith("error: The statement nests"), balanced(deep, true));
  }

  /** Random statements mixing the three near their limits. */
  @Test
  void randomStatementsAreBalancedAsWithoutTheWords() throws Exception {
    Random random = new Random(35);
    String[] ops = {" OR ", " AND ", "OR ", ")AND("};
    for (int k = 0; k < 200; k++) {
      int terms = 50 + random.nextInt(30);
      String op = ops[random.nextInt(ops.length)];
      String where = "(" + repeat(terms, i -> "a=" + i, op) + ")";
      String type =
          nested(25 + random.nextInt(10), random.nextBoolean() ? "MAP<INT," : "ARRAY<", "INT", ">");
      String query = "SELECT CAST(NULL AS " + type + ") AS c FROM t WHERE " + where;
      same(nested(random.nextInt(3), "SELECT * FROM (", query, ")"));
    }
  }
}

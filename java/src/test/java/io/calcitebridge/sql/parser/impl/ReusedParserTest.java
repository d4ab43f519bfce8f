package io.calcitebridge.sql.parser.impl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.calcitebridge.sql.BridgeParser;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.util.SqlShuttle;
import org.junit.jupiter.api.Test;

/**
 * Tests of {@link ReusedParser}: the parser a thread keeps gives each statement the tree and the
 * error a new parser gives, whatever the statements parsed before it on that thread.
 */
class ReusedParserTest {
  /** Statements of different lengths, with placeholders, hints, comments and an INSERT. */
  private static final List<String> STATEMENTS =
      List.of(
          "SELECT a, `b`.c FROM t WHERE a > ? AND d = ?",
          "SELECT /*+ hint(x) */ 1 AS x -- a comment",
          "SELECT * FROM t WHERE a IN (SELECT b FROM u WHERE c = ?)",
          "INSERT INTO t (a, b) VALUES (1, 'x'), (2, 'y')",
          "SELECT 'a long text literal " + "x".repeat(5_000) + "' AS s FROM t ORDER BY s LIMIT 3",
          "SELECT ?",
          "VALUES 1");

  private static String fresh(String sql) throws SqlParseException {
    return BridgeParser.parseStatement(sql).toString();
  }

  private static String reused(String sql) throws SqlParseException {
    return ReusedParser.parseStatement(sql).toString();
  }

  @Test
  void eachStatementParsesAsWithANewParser() throws SqlParseException {
    for (int round = 0; round < 3; round++) {
      for (String sql : STATEMENTS) {
        assertEquals(fresh(sql), reused(sql), sql);
      }
    }
  }

  /**
   * A parse whose statement is stopped (its timeout, a cancel) ends with the stop's error within a
   * few hundred tokens, for the thread's parser, a parser of its own (a long statement) and a
   * script's; the thread's next parse is whole.
   */
  @Test
  void aStoppedStatementStopsItsParse() throws Exception {
    String chain = "SELECT * FROM t WHERE " + "a = 1 OR ".repeat(3_000) + "a = 2";
    io.calcitebridge.errors.Stop stop = new io.calcitebridge.errors.Stop();
    stop.stop(io.calcitebridge.errors.ErrorKind.TIMEOUT, "The statement ran out of time");
    io.calcitebridge.errors.Stop.setCurrent(stop);
    try {
      for (String sql : List.of("SELECT 1 + " + "1 + ".repeat(300) + "1", chain)) {
        io.calcitebridge.errors.BridgeError e =
            assertThrows(io.calcitebridge.errors.BridgeError.class, () -> reused(sql));
        assertEquals("The statement ran out of time", e.getMessage());
      }
      assertThrows(
          io.calcitebridge.errors.BridgeError.class,
          () -> BridgeParser.parseStatements(chain + "; SELECT 1"));
      assertEquals("SELECT 1", reused("SELECT 1"));
    } finally {
      io.calcitebridge.errors.Stop.setCurrent(null);
    }
    assertEquals(fresh(chain), reused(chain));
  }

  @Test
  void placeholdersAreNumberedFromZeroInEachStatement() throws SqlParseException {
    for (int i = 0; i < 3; i++) {
      assertEquals(List.of(0, 1), placeholders(ReusedParser.parseStatement("SELECT ? + ? AS s")));
    }
  }

  @Test
  void aFailedParseLeavesTheNextOneAsItWas() throws SqlParseException {
    reused("SELECT 1");
    SqlParseException unclosed =
        assertThrows(SqlParseException.class, () -> reused("SELECT (1 FROM t"));
    SqlParseException expected =
        assertThrows(SqlParseException.class, () -> fresh("SELECT (1 FROM t"));
    assertEquals(expected.getMessage(), unclosed.getMessage());
    assertEquals(expected.getPos(), unclosed.getPos());
    assertThrows(SqlParseException.class, () -> reused("SELECT /*+ hint( FROM t"));
    for (String sql : STATEMENTS) {
      assertEquals(fresh(sql), reused(sql), sql);
    }
  }

  @Test
  void errorsAtTheEndOfTheTextKeepTheirPosition() {
    for (String sql : List.of("SELECT a FROM", "SELECT a FROM t WHERE", "SELECT 'open")) {
      SqlParseException ours = assertThrows(SqlParseException.class, () -> reused(sql));
      SqlParseException theirs = assertThrows(SqlParseException.class, () -> fresh(sql));
      assertEquals(theirs.getMessage(), ours.getMessage(), sql);
      assertEquals(theirs.getPos(), ours.getPos(), sql);
    }
  }

  @Test
  void threadsParseAtTheSameTime() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<List<String>>> results = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        results.add(
            pool.submit(
                () -> {
                  List<String> out = new ArrayList<>();
                  for (int i = 0; i < 200; i++) {
                    String sql = STATEMENTS.get(i % STATEMENTS.size());
                    out.add(reused(sql));
                  }
                  return out;
                }));
      }
      for (Future<List<String>> result : results) {
        List<String> got = result.get();
        for (int i = 0; i < got.size(); i++) {
          assertEquals(fresh(STATEMENTS.get(i % STATEMENTS.size())), got.get(i));
        }
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private static List<Integer> placeholders(SqlNode node) {
    List<Integer> out = new ArrayList<>();
    node.accept(
        new SqlShuttle() {
          @Override
          public SqlNode visit(SqlDynamicParam param) {
            out.add(param.getIndex());
            return param;
          }
        });
    return out;
  }
}

package io.calcitebridge.repair;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.calcitebridge.plan.PlanningSession;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@link SubQueryRules}: NULL IN a correlated sub-query, and plans simplified without any. */
class SubQueryRulesTest {
  private PlanningSession session;

  @BeforeEach
  void createTables() {
    session = new PlanningSession();
    session.exec("CREATE TABLE ts (a INT, b INT)");
    session.exec("INSERT INTO ts VALUES (1, 1), (2, 5)");
    session.exec("CREATE TABLE fa (d DATE)");
    session.exec("INSERT INTO fa VALUES (CAST(NULL AS DATE))");
  }

  @Test
  void nullNotInACorrelatedSubQueryIsTrueOverNoRows() {
    List<Object[]> rows =
        session.exec(
            "SELECT a, CAST(NULL AS INT) NOT IN (SELECT b FROM ts AS u WHERE u.b = ts.a)"
                + " FROM ts ORDER BY a");
    assertArrayEquals(new Object[] {1, null}, rows.get(0));
    assertArrayEquals(new Object[] {2, true}, rows.get(1));
  }

  @Test
  void aCaseOverNotDistinctFromACaseIsUnknownForNull() {
    String p =
        "CASE WHEN (DATE '2024-01-01' IS NOT DISTINCT FROM CASE WHEN TRUE THEN d ELSE d END)"
            + " THEN DATE '2024-01-01' ELSE d END = d";
    assertEquals(0L, session.exec("SELECT COUNT(*) FROM fa WHERE " + p).get(0)[0]);
    assertEquals(1L, session.exec("SELECT COUNT(*) FROM fa WHERE (" + p + ") IS NULL").get(0)[0]);
  }

  @Test
  void aPlanWithoutSubQueriesIsSimplified() {
    String logical = session.logical("SELECT a FROM ts WHERE CAST(2 AS DOUBLE) < b AND a = NULL");
    assertFalse(logical.contains("CAST(2)"), logical);
    String kept = session.logical("SELECT a FROM ts WHERE a IN (SELECT b FROM ts) AND 1 = 1");
    assertTrue(kept.contains("IN"), kept);
  }

  @Test
  void aCorrelatedSubQueryInTheLeftOfAnInIsRemovedOnItsOwn() {
    session.exec("CREATE TABLE l (a INT)");
    session.exec("INSERT INTO l VALUES (4)");
    session.exec("CREATE TABLE tb (b BIGINT)");
    session.exec("INSERT INTO tb VALUES (3), (CAST(NULL AS BIGINT))");
    String inner = "CASE WHEN 3 NOT IN (SELECT b FROM tb WHERE tb.b >= ts.b) THEN a ELSE 4 END";
    List<Object[]> rows =
        session.exec("SELECT a FROM ts WHERE " + inner + " NOT IN (SELECT a FROM l)");
    assertEquals(1, rows.size());
    assertEquals(2, rows.get(0)[0]);
    rows = session.exec("SELECT a, " + inner + " IN (SELECT a FROM l) FROM ts ORDER BY a");
    assertArrayEquals(new Object[] {1, true}, rows.get(0));
    assertArrayEquals(new Object[] {2, false}, rows.get(1));
  }

  @Test
  void anOuterJoinOnASubQueryOfBothInputsKeepsEachSideAndItsDuplicates() {
    session.exec("CREATE TABLE r (a INT)");
    session.exec("INSERT INTO r VALUES (5), (5), (CAST(NULL AS INT))");
    String on = " ON r.a IN (SELECT b FROM ts AS u WHERE u.a = ts.a)";
    List<Object[]> rows =
        session.exec(
            "SELECT ts.a, r.a FROM ts FULL JOIN r" + on + " ORDER BY ts.a NULLS LAST, r.a");
    assertEquals(4, rows.size());
    assertArrayEquals(new Object[] {1, null}, rows.get(0));
    assertArrayEquals(new Object[] {2, 5}, rows.get(1));
    assertArrayEquals(new Object[] {2, 5}, rows.get(2));
    assertArrayEquals(new Object[] {null, null}, rows.get(3));
  }

  @Test
  void anUnknownConditionMatchesNoRow() {
    session.exec("CREATE TABLE s (a INT)");
    session.exec("INSERT INTO s VALUES (CAST(NULL AS INT))");
    List<Object[]> rows =
        session.exec(
            "SELECT ts.a, s.a FROM ts LEFT JOIN s ON ts.b NOT IN (SELECT a FROM s AS u)"
                + " ORDER BY ts.a");
    assertEquals(2, rows.size());
    assertArrayEquals(new Object[] {1, null}, rows.get(0));
    assertArrayEquals(new Object[] {2, null}, rows.get(1));
  }

  @Test
  void aSelectedSubQueryOverAJoinOnALeftColumnReadsTheRightColumns() {
    session.exec("CREATE TABLE pn (b BIGINT, e BOOLEAN)");
    session.exec("INSERT INTO pn VALUES (1, TRUE), (CAST(NULL AS BIGINT), FALSE)");
    List<Object[]> rows =
        session.exec(
            "SELECT pn.e, EXISTS (SELECT 1 FROM fa WHERE ts.b <= ts.b) FROM ts FULL JOIN pn"
                + " ON ts.a IS NULL ORDER BY pn.e NULLS LAST, ts.a");
    assertEquals(4, rows.size());
    assertArrayEquals(new Object[] {false, false}, rows.get(0));
    assertArrayEquals(new Object[] {true, false}, rows.get(1));
    assertArrayEquals(new Object[] {null, true}, rows.get(2));
    assertArrayEquals(new Object[] {null, true}, rows.get(3));
  }

  @Test
  void aSubQueryCorrelatedWithTwoLevelsKeepsItsCorrelations() {
    session.exec("CREATE TABLE l (a INT)");
    session.exec("INSERT INTO l VALUES (4)");
    session.exec("CREATE TABLE r (a INT)");
    session.exec("INSERT INTO r VALUES (5), (5)");
    String sql =
        "SELECT a FROM l WHERE EXISTS (SELECT 1 FROM r WHERE NOT EXISTS"
            + " (SELECT 1 FROM ts WHERE ts.a > l.a + r.a))";
    List<Object[]> rows = session.exec(sql);
    assertEquals(1, rows.size());
    assertEquals(4, rows.get(0)[0]);
    assertTrue(session.plan(sql).contains("Correlate"), session.plan(sql));
    String negated =
        "SELECT a FROM l WHERE NOT EXISTS (SELECT 1 FROM r WHERE NOT EXISTS"
            + " (SELECT 1 FROM ts WHERE ts.b = l.a + r.a - 9))";
    assertEquals(0, session.exec(negated).size());
    String skipping =
        "SELECT a FROM l WHERE EXISTS (SELECT 1 FROM r WHERE NOT EXISTS"
            + " (SELECT 1 FROM ts WHERE ts.a > l.a))";
    assertEquals(1, session.exec(skipping).size());
    assertFalse(session.plan(skipping).contains("Correlate"), session.plan(skipping));
  }
}

package io.calcitebridge.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.calcitebridge.plan.PlanningSession;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link BridgeSqlValidator}'s star expansion under {@code table.column-expansion-strategy}: a star
 * leaves out the columns the strategy hides, while every explicit reference still resolves.
 */
class StarExpansionTest {
  /** One column of each kind the strategies tell apart. */
  private static final String DDL =
      "CREATE TABLE t (\n"
          + "  id INT,\n"
          + "  name STRING,\n"
          + "  c AS id + 1,\n"
          + "  `offset` BIGINT METADATA VIRTUAL,\n"
          + "  rt TIMESTAMP_LTZ(3) METADATA FROM 'timestamp' VIRTUAL,\n"
          + "  tag STRING METADATA\n"
          + ")";

  private PlanningSession session;

  @BeforeEach
  void createTable() {
    session = new PlanningSession();
    session.exec(DDL);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "NONE | id,name,c,offset,rt,tag",
        "EXCLUDE_DEFAULT_VIRTUAL_METADATA_COLUMNS | id,name,c,rt,tag",
        "EXCLUDE_ALIASED_VIRTUAL_METADATA_COLUMNS | id,name,c,offset,tag",
        "EXCLUDE_COMPUTED_COLUMNS | id,name,offset,rt,tag",
        "EXCLUDE_PERSISTED_METADATA_COLUMNS | id,name,c,offset,rt",
      })
  void starUnderEachStrategy(String strategy, String expected) {
    session.strategy(strategy.equals("NONE") ? "" : strategy);
    List<String> columns = List.of(expected.split(","));
    assertEquals(columns, session.columns("SELECT * FROM t"));
    assertEquals(columns, session.columns("SELECT x.* FROM t AS x"));
    assertEquals(columns, session.columns("SELECT t.* FROM t"));
  }

  @Test
  void strategiesCombine() {
    session.strategy("EXCLUDE_COMPUTED_COLUMNS;EXCLUDE_PERSISTED_METADATA_COLUMNS");
    assertEquals(List.of("id", "name", "offset", "rt"), session.columns("SELECT * FROM t"));
    session.strategy(
        "EXCLUDE_DEFAULT_VIRTUAL_METADATA_COLUMNS;EXCLUDE_ALIASED_VIRTUAL_METADATA_COLUMNS;"
            + "EXCLUDE_COMPUTED_COLUMNS;EXCLUDE_PERSISTED_METADATA_COLUMNS");
    assertEquals(List.of("id", "name"), session.columns("SELECT * FROM t"));
  }

  @Test
  void hiddenColumnsResolveWhenNamed() {
    hideEverything();
    assertEquals(
        List.of("id", "c", "offset", "rt", "tag"),
        session.columns("SELECT id, c, `offset`, rt, tag FROM t"));
    assertEquals(List.of("id", "name", "rt"), session.columns("SELECT *, rt FROM t"));
    assertEquals(List.of("tag", "id", "name"), session.columns("SELECT x.tag, x.* FROM t AS x"));
    assertEquals(
        List.of("id", "name"),
        session.columns(
            "SELECT * FROM t WHERE c > 1 AND rt IS NOT NULL AND tag IS NULL"
                + " ORDER BY `offset` DESC, c"));
  }

  @Test
  void hiddenColumnsAreReadWhenNamed() {
    hideEverything();
    session.exec("INSERT INTO t (id, name, tag) VALUES (1, 'a', 'x'), (2, 'b', 'y')");
    List<Object[]> rows =
        session.exec("SELECT c, `offset`, tag FROM t WHERE c > 2 ORDER BY `offset` DESC");
    assertEquals(1, rows.size());
    assertEquals(List.of(3, 1L, "y"), List.of(rows.get(0)));
    List<Object[]> star = session.exec("SELECT * FROM t WHERE tag = 'x'");
    assertEquals(List.of(List.of(1, "a")), lists(star));
  }

  @Test
  void starInSubqueryAndViewHidesToo() {
    hideEverything();
    assertEquals(List.of("id", "name"), session.columns("SELECT * FROM (SELECT * FROM t)"));
    assertEquals(
        List.of("id", "name", "c"), session.columns("SELECT * FROM (SELECT t.*, c FROM t)"));
    session.exec("CREATE VIEW v AS SELECT * FROM t");
    session.strategy("");
    assertEquals(List.of("id", "name"), session.columns("SELECT * FROM v"));
  }

  @Test
  void naturalJoinMatchesVisibleColumnsOnly() {
    session.exec("CREATE TABLE a (k INT, v STRING, tag STRING METADATA)");
    session.exec("CREATE TABLE b (k INT, w STRING, tag STRING METADATA)");
    session.exec("INSERT INTO a (k, v, tag) VALUES (1, 'a1', 'left'), (2, 'a2', 'same')");
    session.exec("INSERT INTO b (k, w, tag) VALUES (1, 'b1', 'right'), (2, 'b2', 'same')");

    // Without a strategy the metadata column is an ordinary common column.
    assertEquals(List.of("k", "tag", "v", "w"), session.columns("SELECT * FROM a NATURAL JOIN b"));
    assertEquals(List.of(List.of(2, "same", "a2", "b2")), lists(session.exec(naturalJoin())));

    // Hidden, it neither shows nor takes part in the join condition.
    session.strategy("EXCLUDE_PERSISTED_METADATA_COLUMNS");
    assertEquals(List.of("k", "v", "w"), session.columns("SELECT * FROM a NATURAL JOIN b"));
    assertEquals(
        List.of(List.of(1, "a1", "b1"), List.of(2, "a2", "b2")),
        lists(session.exec(naturalJoin())));
    // ... and both sides' copies stay reachable by name.
    assertEquals(
        List.of(List.of(1, "left", "right")),
        lists(session.exec("SELECT k, a.tag, b.tag FROM a NATURAL JOIN b WHERE a.k = 1")));
  }

  @Test
  void joinsUsingAndOnExpandVisibleColumns() {
    session.exec("CREATE TABLE a (k INT, v STRING, tag STRING METADATA, c AS k + 1)");
    session.exec("CREATE TABLE b (k INT, w STRING, tag STRING METADATA)");
    session.exec("INSERT INTO a (k, v, tag) VALUES (1, 'a1', 'left')");
    session.exec("INSERT INTO b (k, w, tag) VALUES (1, 'b1', 'right')");
    session.strategy("EXCLUDE_PERSISTED_METADATA_COLUMNS;EXCLUDE_COMPUTED_COLUMNS");
    assertEquals(List.of("k", "v", "w"), session.columns("SELECT * FROM a JOIN b USING (k)"));
    assertEquals(
        List.of(List.of(1, "a1", "b1")), lists(session.exec("SELECT * FROM a JOIN b USING (k)")));
    assertEquals(
        List.of("k", "v", "k0", "w"), session.columns("SELECT * FROM a JOIN b ON a.k = b.k"));
    assertEquals(
        List.of("k", "v", "w"), session.columns("SELECT * FROM (SELECT * FROM a) NATURAL JOIN b"));
    assertEquals(List.of("k", "v"), session.columns("WITH q AS (SELECT * FROM a) SELECT * FROM q"));
  }

  @Test
  void insertSelectStarOfAnotherTableThatTheStrategyShortenedIsACountMismatch() {
    // DESIGN §5: only INSERT INTO t SELECT * FROM t leaves the hidden columns to their defaults;
    // from another table a count mismatch names both column lists, as Flink refuses it.
    session.exec("CREATE TABLE a (k INT, v STRING, tag STRING METADATA)");
    session.exec("CREATE TABLE a2 (k INT, v STRING, tag STRING METADATA)");
    session.exec("INSERT INTO a (k, v, tag) VALUES (1, 'a1', 'left')");
    session.strategy("EXCLUDE_PERSISTED_METADATA_COLUMNS");
    RuntimeException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            RuntimeException.class, () -> session.exec("INSERT INTO a2 SELECT * FROM a"));
    assertTrue(e.getMessage().contains("writes 3 columns (k, v, tag) but the query has 2 (k, v)"));
    session.exec("INSERT INTO a SELECT * FROM a");
    assertEquals(
        List.of(java.util.Arrays.asList(1, "a1", "left"), java.util.Arrays.asList(1, "a1", null)),
        lists(session.exec("SELECT k, v, tag FROM a ORDER BY tag NULLS LAST")));
  }

  @Test
  void naturalJoinWithoutVisibleCommonColumnsIsACrossJoin() {
    session.exec("CREATE TABLE a (x INT, tag STRING METADATA)");
    session.exec("CREATE TABLE b (y INT, tag STRING METADATA)");
    session.exec("INSERT INTO a (x, tag) VALUES (1, 'p'), (2, 'q')");
    session.exec("INSERT INTO b (y, tag) VALUES (10, 'r')");
    session.strategy("EXCLUDE_PERSISTED_METADATA_COLUMNS");
    assertEquals(List.of("x", "y"), session.columns("SELECT * FROM a NATURAL JOIN b"));
    assertEquals(2, session.exec("SELECT * FROM a NATURAL JOIN b").size());
  }

  @Test
  void dynamicAndShadowColumnsNeverExpand() {
    session.exec("CREATE TABLE d (id INT, ...)");
    assertEquals(List.of("id"), session.columns("SELECT * FROM d"));
    assertEquals(List.of("id", "_dynamic"), session.columns("SELECT *, _dynamic FROM d"));
  }

  @Test
  void discoveredColumnsNeverExpand() {
    session.exec("CREATE TABLE d (id INT, ...)");
    assertEquals(List.of("id", "extra"), session.columns("SELECT *, extra FROM d"));
    assertEquals(List.of("id"), session.columns("SELECT * FROM d WHERE extra = 'x'"));
    assertEquals(List.of("id"), session.columns("SELECT d.* FROM d ORDER BY extra"));
  }

  @Test
  void logicalPlanReadsOnlyTheNamedColumns() {
    hideEverything();
    String plan = session.logical("SELECT * FROM t");
    assertTrue(plan.contains("LogicalProject(id=[$0], name=[$1])"), plan);
  }

  private void hideEverything() {
    session.strategy(
        "EXCLUDE_DEFAULT_VIRTUAL_METADATA_COLUMNS;EXCLUDE_ALIASED_VIRTUAL_METADATA_COLUMNS;"
            + "EXCLUDE_COMPUTED_COLUMNS;EXCLUDE_PERSISTED_METADATA_COLUMNS");
  }

  private static String naturalJoin() {
    return "SELECT * FROM a NATURAL JOIN b ORDER BY k";
  }

  private static List<List<Object>> lists(List<Object[]> rows) {
    List<List<Object>> out = new ArrayList<>();
    for (Object[] r : rows) {
      out.add(java.util.Arrays.asList(r));
    }
    return out;
  }
}

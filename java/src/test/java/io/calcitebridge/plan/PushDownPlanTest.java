package io.calcitebridge.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.calcitebridge.catalog.ColumnDef;
import io.calcitebridge.catalog.FilterableStorage.Decision;
import io.calcitebridge.catalog.TableDef;
import io.calcitebridge.catalog.TableStorage;
import io.calcitebridge.errors.SourceException;
import io.calcitebridge.pushdown.BridgeTableScan;
import io.calcitebridge.pushdown.FilterPushDownRule;
import io.calcitebridge.pushdown.LimitPushDownRule;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.calcite.rel.RelNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The pushdown rules ({@link FilterPushDownRule}, {@link LimitPushDownRule}, {@link
 * NestedProjectionRule}) against a {@link RecordingStorage} that records what it is offered.
 *
 * <p>Whole optimized plans are compared with the sections of {@code
 * src/test/resources/io/calcitebridge/plan/plans.txt}. After a deliberate change of the planner,
 * rewrite them with {@code mvn -B -q test -Dtest=PushDownPlanTest -Dgolden.update=true} (run from
 * {@code java/}; {@code make golden} does it too) and review the diff before committing.
 */
class PushDownPlanTest {
  private static final Golden GOLDEN =
      new Golden("src/test/resources/io/calcitebridge/plan/plans.txt");

  private PlanningSession session;

  @BeforeEach
  void newSession() {
    session = new PlanningSession();
  }

  @AfterAll
  static void writeGolden() {
    GOLDEN.write();
  }

  /** Table {@code src} (id, name, u ROW&lt;name, age&gt;, score) over {@code storage}. */
  private <S extends TableStorage> S src(S storage) {
    PlannerContext c = session.context();
    TableDef def =
        new TableDef(
            "src",
            List.of(
                ColumnDef.physical("id", c.parseType("INT")),
                ColumnDef.physical("name", c.parseType("STRING")),
                ColumnDef.physical("u", c.parseType("ROW<name STRING, age INT>")),
                ColumnDef.physical("score", c.parseType("DOUBLE"))),
            Map.of("connector", "recording"),
            false,
            null);
    session.addTable(def, storage);
    return storage;
  }

  // ----- Filters --------------------------------------------------------------------------

  @Test
  void acceptedFiltersLeaveThePlan() {
    RecordingStorage s = src(new RecordingStorage(true, false, RecordingStorage::acceptAll));
    String sql = "SELECT id, name FROM src WHERE id > 1 AND name = 'a'";
    GOLDEN.check("filter", session.plan(sql));
    assertEquals(List.of(List.of(">(id, 1)", "=(name, 'a')")), s.offers);
  }

  @Test
  void nestedFiltersAreOfferedWhenSupported() {
    RecordingStorage s = src(new RecordingStorage(true, true, RecordingStorage::acceptAll));
    String sql = "SELECT id FROM src AS s WHERE s.u.age > 30 AND s.u.name LIKE 'a%'";
    GOLDEN.check("nested_filter", session.plan(sql));
    assertEquals(List.of(List.of(">(u.age, 30)", "LIKE(u.name, 'a%')")), s.offers);
  }

  @Test
  void nestedFiltersAreNotOfferedWithoutSupport() {
    RecordingStorage s = src(new RecordingStorage(true, false, RecordingStorage::acceptAll));
    String sql = "SELECT id FROM src AS s WHERE s.u.age > 30 AND id = 1";
    GOLDEN.check("nested_filter_unsupported", session.plan(sql));
    assertEquals(List.of(List.of("=(id, 1)")), s.offers);
  }

  @Test
  void onlyNestedFiltersWithoutSupportMeansNoOffer() {
    RecordingStorage s = src(new RecordingStorage(true, false, RecordingStorage::acceptAll));
    String plan = session.plan("SELECT id FROM src AS s WHERE s.u.age > 30");
    assertEquals(List.of(), s.offers);
    assertFalse(plan.contains("filter=["), plan);
  }

  @Test
  void partiallyAcceptedFiltersKeepTheRestAbove() {
    RecordingStorage s =
        src(new RecordingStorage(true, false, f -> new Decision(List.of(0), List.of(1))));
    String sql = "SELECT id FROM src WHERE id > 1 AND score < 1.5";
    GOLDEN.check("partial", session.plan(sql));
    assertEquals(List.of(List.of(">(id, 1)", "<(score, 1.5)")), s.offers);
  }

  @Test
  void filterBothAcceptedAndRemainingIsCheckedAgainAbove() {
    src(new RecordingStorage(true, false, f -> new Decision(List.of(0), List.of(0))));
    String sql = "SELECT id FROM src WHERE id > 1";
    GOLDEN.check("accepted_and_remaining", session.plan(sql));
  }

  @Test
  void nothingAcceptedLeavesThePlanAsItWas() {
    RecordingStorage s = src(new RecordingStorage(true, false, RecordingStorage::acceptNone));
    String plan = session.plan("SELECT id FROM src WHERE id > 1 AND name = 'a'");
    assertEquals(1, s.offers.size());
    assertFalse(plan.contains("filter=["), plan);
    assertTrue(plan.contains("EnumerableCalc"), plan);
  }

  @Test
  void untranslatableConjunctsStayAboveAndAreNotOffered() {
    RecordingStorage s = src(new RecordingStorage(true, false, RecordingStorage::acceptAll));
    String plan = session.plan("SELECT id FROM src WHERE ABS(id) > 1 AND id < 10");
    assertEquals(List.of(List.of("<(id, 10)")), s.offers);
    // ABS(id) > 1 stays in a condition above the scan (ABS written as a checked CASE there).
    assertTrue(plan.contains("$condition="), plan);
    assertTrue(plan.contains("filter=[<(id, 10)]"), plan);
  }

  @Test
  void disjunctionsOfEqualitiesAreOfferedAsIn() {
    RecordingStorage s = src(new RecordingStorage(true, false, RecordingStorage::acceptAll));
    session.plan("SELECT id FROM src WHERE id IN (1, 2, 3)");
    assertEquals(List.of(List.of("IN(id, 1, 2, 3)")), s.offers);
  }

  @Test
  void sourceWithoutFilterPushDownIsNeverAsked() {
    RecordingStorage s = src(new RecordingStorage(false, true, RecordingStorage::acceptAll));
    String plan = session.plan("SELECT id FROM src WHERE id > 1");
    assertEquals(List.of(), s.offers);
    assertFalse(plan.contains("filter=["), plan);
  }

  @Test
  void filtersAreOfferedOncePerScan() {
    RecordingStorage s = src(new RecordingStorage(true, false, RecordingStorage::acceptAll));
    session.plan("SELECT * FROM (SELECT * FROM src WHERE id > 1) AS q WHERE q.name = 'a'");
    assertEquals(1, s.offers.size(), s.offers.toString());
    assertEquals(2, s.offers.get(0).size(), s.offers.toString());

    s.offers.clear();
    session.plan(
        "SELECT a.id FROM src AS a JOIN src AS b ON a.id = b.id WHERE a.id > 1 AND b.name = 'x'");
    assertEquals(2, s.offers.size(), s.offers.toString());
  }

  @Test
  void answerNamingAnUnofferedFilterFails() {
    src(new RecordingStorage(true, false, f -> new Decision(List.of(5), List.of())));
    SourceException e =
        assertThrows(SourceException.class, () -> session.plan("SELECT id FROM src WHERE id > 1"));
    assertTrue(
        e.getMessage().contains("answered filter #5, which was never offered"), e.getMessage());
  }

  @Test
  void acceptedFiltersReachTheScan() {
    RecordingStorage s = src(new RecordingStorage(true, false, RecordingStorage::acceptAll));
    s.rows.add(new Object[] {1, "a", null, 0.5});
    s.rows.add(new Object[] {2, "b", null, 2.5});
    // The source promised to apply `id > 1` but does not: both rows come back, which shows the
    // filter left the plan and went to the scan.
    List<Object[]> rows = session.exec("SELECT id FROM src WHERE id > 1");
    assertEquals(2, rows.size());
    assertEquals(List.of(List.of(">(id, 1)")), s.scans);
  }

  // ----- Limits ---------------------------------------------------------------------------

  @Test
  void limitWithoutOrderByReachesTheScan() {
    src(new RecordingStorage.Arrow(false, false, RecordingStorage::acceptAll));
    GOLDEN.check("limit", session.plan("SELECT id, name FROM src LIMIT 5"));
    assertEquals(5, scan(session.optimized("SELECT id FROM src LIMIT 3 OFFSET 2")).limit());
    assertEquals(
        4,
        scan(session.optimized("SELECT id FROM src WHERE id > 1 FETCH FIRST 4 ROWS ONLY")).limit());
  }

  @Test
  void limitWithOrderByStaysAbove() {
    src(new RecordingStorage.Arrow(false, false, RecordingStorage::acceptAll));
    String sql = "SELECT id FROM src ORDER BY name LIMIT 5";
    GOLDEN.check("limit_order_by", session.plan(sql));
    assertNull(scan(session.optimized(sql)).limit());
  }

  @Test
  void limitIsNotPushedIntoARowStorage() {
    src(new RecordingStorage(true, false, RecordingStorage::acceptAll));
    assertNull(scan(session.optimized("SELECT id FROM src LIMIT 5")).limit());
  }

  // ----- Nested projection ----------------------------------------------------------------

  @Test
  void nestedFieldsAreReadAlone() {
    src(new RecordingStorage.Arrow(false, true, RecordingStorage::acceptAll));
    String sql = "SELECT s.u.age, id, s.u.age + 1 AS age1 FROM src AS s";
    GOLDEN.check("nested_projection", session.plan(sql));
    assertEquals(List.of(List.of(2, 1), List.of(0)), scan(session.optimized(sql)).nested());
  }

  @Test
  void nestedProjectionNeedsSupport() {
    src(new RecordingStorage.Arrow(false, false, RecordingStorage::acceptAll));
    BridgeTableScan scan = scan(session.optimized("SELECT s.u.age, id FROM src AS s"));
    assertNull(scan.nested());
    assertEquals(List.of("id", "u"), scan.getRowType().getFieldNames());
  }

  @Test
  void topLevelColumnsOnlyUseTheFieldTrimmersProjection() {
    src(new RecordingStorage.Arrow(false, true, RecordingStorage::acceptAll));
    BridgeTableScan scan = scan(session.optimized("SELECT name, id FROM src"));
    assertNull(scan.nested());
    assertEquals(List.of("id", "name"), scan.getRowType().getFieldNames());
  }

  @Test
  void nestedProjectionWithFilterAndLimit() {
    RecordingStorage.Arrow s =
        src(new RecordingStorage.Arrow(true, true, RecordingStorage::acceptAll));
    String sql = "SELECT s.u.name FROM src AS s WHERE s.u.age > 30 LIMIT 10";
    GOLDEN.check("nested_projection_filter_limit", session.plan(sql));
    assertEquals(List.of(List.of(">(u.age, 30)")), s.offers);
  }

  // ----- Window functions -------------------------------------------------------------------

  @Test
  void cumeDistAndPercentRankComeFromCountAndRank() {
    src(new RecordingStorage(true, false, RecordingStorage::acceptAll));
    String sql =
        "SELECT id, CUME_DIST() OVER (PARTITION BY name ORDER BY score),"
            + " PERCENT_RANK() OVER (PARTITION BY name ORDER BY score) FROM src";
    GOLDEN.check("rank_distributions", session.plan(sql));
  }

  /** The one scan of {@code rel}. */
  static BridgeTableScan scan(RelNode rel) {
    List<BridgeTableScan> found = new ArrayList<>();
    collect(rel, found);
    assertEquals(1, found.size(), "scans in " + QueryPlanner.render(rel, "text"));
    return found.get(0);
  }

  private static void collect(RelNode rel, List<BridgeTableScan> found) {
    if (rel instanceof BridgeTableScan scan) {
      found.add(scan);
    }
    for (RelNode input : rel.getInputs()) {
      collect(input, found);
    }
  }
}

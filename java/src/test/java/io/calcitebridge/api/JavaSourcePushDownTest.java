package io.calcitebridge.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.calcitebridge.expr.Call;
import io.calcitebridge.expr.Literal;
import io.calcitebridge.expr.NestedFieldReference;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Filters on Java sources, checked three ways: the plan (what the scan took and what stayed above
 * it), the result (against the same table behind a source without pushdown), and NULLs at every
 * nesting level (a NULL user, a NULL name or age).
 */
class JavaSourcePushDownTest {
  private BridgeEnvironment env;
  private FilteringSource nested;
  private FilteringSource flat;

  @BeforeEach
  void setUp() {
    env = BridgeEnvironment.create();
    nested = new FilteringSource(Users.SCHEMA, Users.ROWS, true);
    flat = new FilteringSource(Users.SCHEMA, Users.ROWS, false);
    env.registerSource("users", nested);
    env.registerSource("flat", flat);
    env.registerSource("oracle", new RowSource(Users.SCHEMA, Users.ROWS));
  }

  @AfterEach
  void tearDown() {
    env.close();
  }

  private List<String> rows(String sql) {
    return Users.rows(env.sql(sql));
  }

  @Test
  void theScanTakesTheNestedFilterAndTheRestStaysAbove() {
    String plan =
        env.explain("SELECT id FROM users WHERE user.age < 30 AND UPPER(user.name) LIKE 'A%'");
    String[] lines = plan.split("\n");
    String scan = lines[lines.length - 1];
    assertTrue(scan.contains("BridgeTableScan(table=[[users]]"), plan);
    assertTrue(scan.contains("filter=[<(user.age, 30)]"), plan);
    assertFalse(scan.contains("LIKE"), plan);
    String above = String.join("\n", List.of(lines).subList(0, lines.length - 1));
    assertTrue(above.contains("LIKE(") && above.contains("UPPER("), plan);
    assertFalse(above.contains("<($"), plan);
  }

  @Test
  void theSourceReceivesTheFilterAsANestedFieldReference() {
    rows("SELECT id FROM users WHERE user.age < 30");
    Call accepted = (Call) nested.requests.get(0).filters().get(0);
    assertEquals("<", accepted.function());
    NestedFieldReference ref = (NestedFieldReference) accepted.args().get(0);
    assertEquals(List.of("user", "age"), ref.fieldNames());
    assertEquals(List.of(1, 1), ref.fieldIndices());
    assertEquals(30L, ((Literal) accepted.args().get(1)).value());
  }

  @Test
  void severalAcceptedFiltersShowJoinedInTheScan() {
    String plan = env.explain("SELECT id FROM users WHERE user.age < 30 AND id > 1");
    assertTrue(plan.contains("filter=[and(<(user.age, 30), >(id, 1))]"), plan);
  }

  @Test
  void aSourceWithoutNestedSupportIsNeverOfferedNestedFilters() {
    String plan = env.explain("SELECT id FROM flat WHERE user.age < 30 AND id > 1");
    assertTrue(plan.contains("filter=[>(id, 1)]"), plan);
    assertTrue(plan.contains("BridgeTableScan(table=[[flat]]"), plan);
    assertEquals(List.of("[5]", "[7]"), rows("SELECT id FROM flat WHERE user.age < 30 AND id > 1"));
    assertEquals(1, flat.offered.get(0).size(), flat.offered.toString());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "user.age < 30",
        "user.age < 30 AND id > 1",
        "user.age IS NULL",
        "user.age IS NOT NULL",
        "`user` IS NULL",
        "`user` IS NOT NULL AND user.name IS NULL",
        "user.name = 'ann' OR user.age >= 41",
        "NOT (user.age < 30)",
        "user.age <> 30",
        "user.age < 30 AND UPPER(user.name) LIKE 'A%'",
        "user.age + 1 > 30",
        "score > 2 AND user.age > 20",
        "score IS NULL OR user.name IS NULL",
      })
  void resultsMatchASourceWithoutPushDown(String where) {
    String sql = "SELECT * FROM $t WHERE " + where + " ORDER BY id";
    List<String> expected = rows(sql.replace("$t", "oracle"));
    assertEquals(expected, rows(sql.replace("$t", "users")), where);
    assertEquals(expected, rows(sql.replace("$t", "flat")), where);
  }

  /** A bare {@code user} is SQL's USER function; the column needs backticks there. */
  @Test
  void nullsAtEveryLevel() {
    assertEquals(
        List.of("[3]", "[4]"), rows("SELECT id FROM users WHERE user.age IS NULL ORDER BY id"));
    assertEquals(List.of("[3]"), rows("SELECT id FROM users WHERE `user` IS NULL"));
    assertEquals(
        List.of("[1, ann, 25]", "[5, null, 29]", "[7, abe, 17]"),
        rows("SELECT id, user.name, user.age FROM users WHERE user.age < 30 ORDER BY id"));
    assertEquals(
        List.of("[3, null]", "[4, [carl, null]]"),
        rows("SELECT id, `user` FROM users WHERE user.age IS NULL ORDER BY id"));
  }

  @Test
  void theWholeResultComesFromTheSourceWhenItTakesEverything() {
    assertEquals(
        List.of("[1, [ann, 25], 1.5]", "[5, [null, 29], 5.0]", "[7, [abe, 17], null]"),
        rows("SELECT * FROM users WHERE user.age < 30"));
  }
}

package io.calcitebridge.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.calcitebridge.catalog.CatalogTable;
import io.calcitebridge.catalog.ColumnDef;
import io.calcitebridge.catalog.TableDef;
import io.calcitebridge.catalog.TableStorage;
import io.calcitebridge.errors.ErrorKind;
import io.calcitebridge.errors.PositionedException;
import io.calcitebridge.plan.PlanningSession;
import io.calcitebridge.plan.QueryPlanner;
import java.util.List;
import java.util.Map;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.sql.SqlNode;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Field discovery: a name no table in scope declares is asked of the tables with dynamic columns
 * ({@link BridgeSqlValidator} raises a {@link DiscoveryRequest}, {@link FieldDiscovery} asks, the
 * {@link QueryPlanner} validates again).
 */
class FieldDiscoveryTest {
  private PlanningSession session;

  @BeforeEach
  void createTables() {
    session = new PlanningSession();
    session.exec("CREATE TABLE d1 (id INT, ... INT)");
    session.exec("CREATE TABLE d2 (id2 INT, ...)");
    session.exec("CREATE TABLE plain (x INT, y STRING)");
  }

  // ----- Through the planner ---------------------------------------------------------------

  @Test
  void nameFoundInOneTableResolvesWithItsType() {
    assertEquals("INTEGER", columnType("SELECT id, extra FROM d1", 1));
    assertEquals("VARCHAR", columnType("SELECT extra FROM d2", 0));
    // in WHERE and ORDER BY too, and beside a table without dynamic columns
    assertEquals(
        List.of("id", "y"),
        session.columns("SELECT id, y FROM d1, plain WHERE extra > 1 ORDER BY other"));
  }

  @Test
  void qualifiedNameAsksOnlyThatTable() {
    assertEquals("VARCHAR", columnType("SELECT d2.extra FROM d1, d2", 0));
    assertEquals("INTEGER", columnType("SELECT d1.extra FROM d1, d2", 0));
    assertEquals("INTEGER", columnType("SELECT a.extra FROM d1 AS a", 0));
  }

  @Test
  void nameFoundInTwoTablesIsAmbiguous() {
    PositionedException e = ambiguous();
    assertEquals(ErrorKind.VALIDATION, e.kind());
    assertEquals("Column 'extra' is ambiguous: tables d1, d2 all have it", e.getMessage());
    assertEquals(2, e.pos().getEndLineNum());
    assertEquals(7, e.pos().getEndColumnNum());
  }

  @Test
  void ambiguousNameIsReportedWhereItIs() {
    PositionedException e = ambiguous();
    assertEquals(2, e.pos().getLineNum());
    assertEquals(3, e.pos().getColumnNum());
  }

  private PositionedException ambiguous() {
    String sql = "SELECT id,\n  extra FROM d1, d2";
    QueryPlanner planner = session.planner(sql);
    return assertThrows(PositionedException.class, () -> planner.validate(session.parse(sql)));
  }

  @Test
  void nameFoundNowhereIsTheUsualError() {
    String sql = "SELECT nope FROM plain";
    QueryPlanner planner = session.planner(sql);
    CalciteContextException e =
        assertThrows(CalciteContextException.class, () -> planner.validate(session.parse(sql)));
    assertTrue(e.getMessage().contains("Column 'nope' not found in any table"), e.getMessage());
    assertEquals(1, e.getPosLine());
    assertEquals(8, e.getPosColumn());
  }

  @Test
  void qualifiedNameFoundNowhereNamesTheTable() {
    String sql = "SELECT plain.nope FROM plain, d1";
    QueryPlanner planner = session.planner(sql);
    CalciteContextException e =
        assertThrows(CalciteContextException.class, () -> planner.validate(session.parse(sql)));
    assertTrue(e.getMessage().contains("Column 'nope' not found in table 'plain'"), e.getMessage());
  }

  @Test
  void declaredColumnWinsOverDiscovery() {
    // `x` is declared by plain; d1 (which would answer any name) is never asked.
    assertEquals("INTEGER", columnType("SELECT x FROM d1, plain", 0));
    // `id2` is declared by d2; d1 would answer it as well.
    assertEquals("INTEGER", columnType("SELECT id2 FROM d1, d2", 0));
    // the declared type, not the dynamic default STRING
    assertEquals("INTEGER", columnType("SELECT id2 FROM d2", 0));
  }

  @Test
  void withoutReparseNothingIsDiscovered() {
    QueryPlanner planner = new QueryPlanner(session.context());
    CalciteContextException e =
        assertThrows(
            CalciteContextException.class,
            () -> planner.validate(session.parse("SELECT extra FROM d1")));
    assertTrue(e.getMessage().contains("Column 'extra' not found"), e.getMessage());
  }

  @Test
  void discoveredColumnsAreReadFromTheRows() {
    session.exec("CREATE TABLE d3 (id INT, ...)");
    session.exec(
        "INSERT INTO d3 (id, _dynamic) VALUES (1, COLUMN_CREATE('color', 'red')), (2, NULL)");
    List<Object[]> rows = session.exec("SELECT id, color FROM d3 ORDER BY id");
    assertEquals(List.of(1, "red"), List.of(rows.get(0)));
    assertEquals(2, rows.get(1)[0]);
    assertNull(rows.get(1)[1]);
  }

  @Test
  void discoveryWorksAcrossTheWholeStatement() {
    session.exec("CREATE TABLE d3 (id INT, ...)");
    session.exec("INSERT INTO d3 (id, _dynamic) VALUES (1, COLUMN_CREATE('color', 'red'))");
    assertEquals(
        List.of(1),
        ids(
            "SELECT id FROM d3 WHERE EXISTS (SELECT 1 FROM plain WHERE color = 'red')"
                + " OR id = 1"));
    assertEquals(List.of("red"), ids("SELECT color FROM d3 GROUP BY color"));
    assertEquals(List.of(1), ids("SELECT id FROM d3 ORDER BY color"));
    assertEquals(
        List.of(1),
        ids("SELECT id FROM d3 WHERE color = 'red' UNION ALL SELECT id FROM d3 WHERE shade = 'x'"));
    session.exec("CREATE VIEW dv AS SELECT id, color FROM d3");
    assertEquals(List.of("red"), ids("SELECT color FROM dv"));
  }

  private List<Object> ids(String sql) {
    return session.exec(sql).stream().map(r -> r[0]).toList();
  }

  // ----- The validator alone ------------------------------------------------------------

  @Test
  void validatorRaisesADiscoveryRequestOnlyWhenEnabled() throws Exception {
    CalciteCatalogReader reader = session.context().catalogReader();
    BridgeSqlValidator plain = session.context().validator(reader);
    assertThrows(
        CalciteContextException.class, () -> plain.validate(session.parse("SELECT extra FROM d1")));

    BridgeSqlValidator discovering = session.context().validator(reader);
    discovering.enableDiscovery();
    DiscoveryRequest request =
        assertThrows(
            DiscoveryRequest.class,
            () -> discovering.validate(session.parse("SELECT extra FROM d1")));
    assertEquals("extra", request.name());
    assertNull(request.qualifier());
    assertTrue(request.original().getMessage().contains("Column 'extra' not found"));

    BridgeSqlValidator qualified = session.context().validator(reader);
    qualified.enableDiscovery();
    DiscoveryRequest q =
        assertThrows(
            DiscoveryRequest.class,
            () -> qualified.validate(session.parse("SELECT d2.extra FROM d1, d2")));
    assertEquals("extra", q.name());
    assertEquals("d2", q.qualifier());
  }

  // ----- FieldDiscovery over a scope ----------------------------------------------------

  @Test
  void fieldDiscoveryAddsTheColumnToItsOnlyOwner() {
    DiscoveryScope scope = new DiscoveryScope();
    scope.saw(new Stub("a", Map.of("k", "BIGINT")));
    scope.saw(new Stub("b", null));
    scope.saw(new Stub("c", Map.of()));
    FieldDiscovery discovery = discovery(scope);

    assertTrue(discovery.discover(request("k", null)));
    List<ColumnDef> found = scope.discovered("a");
    assertEquals(1, found.size());
    assertEquals("k", found.get(0).name());
    assertEquals(io.calcitebridge.catalog.ColumnKind.DYNAMIC, found.get(0).kind());
    assertEquals("BIGINT", found.get(0).type().getSqlTypeName().getName());
    assertTrue(found.get(0).type().isNullable());
    assertNull(scope.discovered("b"));
    assertNull(scope.discovered("c"));

    assertFalse(discovery.discover(request("missing", null)));
  }

  @Test
  void fieldDiscoveryFailsWhenSeveralTablesAnswer() {
    DiscoveryScope scope = new DiscoveryScope();
    scope.saw(new Stub("a", Map.of("k", "BIGINT")));
    scope.saw(new Stub("b", Map.of("k", "STRING")));
    PositionedException e =
        assertThrows(
            PositionedException.class, () -> discovery(scope).discover(request("k", null)));
    assertEquals("Column 'k' is ambiguous: tables a, b all have it", e.getMessage());
    assertNull(scope.discovered("a"));
    // a qualifier that names one of the tables asks that table only
    assertTrue(discovery(scope).discover(request("k", "b")));
    assertEquals("VARCHAR", scope.discovered("b").get(0).type().getSqlTypeName().getName());
  }

  @Test
  void fieldDiscoveryDoesNotAskForADeclaredColumn() {
    DiscoveryScope scope = new DiscoveryScope();
    Stub declares = new Stub("a", Map.of("id", "BIGINT"));
    scope.saw(declares);
    assertFalse(discovery(scope).discover(request("id", null)));
    assertEquals(0, declares.asked);
  }

  @Test
  void scopeIsCurrentOnlyWhileEntered() {
    DiscoveryScope outer = new DiscoveryScope();
    DiscoveryScope inner = new DiscoveryScope();
    assertNull(DiscoveryScope.current());
    try (DiscoveryScope.Entered a = outer.enter()) {
      assertSame(outer, DiscoveryScope.current());
      try (DiscoveryScope.Entered b = inner.enter()) {
        assertSame(inner, DiscoveryScope.current());
      }
      assertSame(outer, DiscoveryScope.current());
    }
    assertNull(DiscoveryScope.current());
  }

  private String columnType(String sql, int column) {
    QueryPlanner planner = session.planner(sql);
    SqlNode validated = planner.validate(session.parse(sql));
    return planner
        .rowType(validated)
        .getFieldList()
        .get(column)
        .getType()
        .getSqlTypeName()
        .getName();
  }

  private FieldDiscovery discovery(DiscoveryScope scope) {
    return new FieldDiscovery(scope, session.context().typeFactory(), session.context()::parseType);
  }

  /** A request as the validator raises it, for {@code qualifier.name} or {@code name}. */
  private DiscoveryRequest request(String name, @Nullable String qualifier) {
    org.apache.calcite.sql.SqlIdentifier id =
        new org.apache.calcite.sql.SqlIdentifier(
            name, new org.apache.calcite.sql.parser.SqlParserPos(1, 8, 1, 8 + name.length() - 1));
    CalciteContextException original =
        new CalciteContextException(
            "Column '" + name + "' not found",
            new org.apache.calcite.sql.validate.SqlValidatorException("not found", null),
            1,
            8,
            1,
            8);
    return new DiscoveryRequest(id, qualifier, original);
  }

  /**
   * A catalog table with one declared column {@code id}, whose storage answers discovery from
   * {@code answers} (no discovery at all when null).
   */
  private final class Stub implements CatalogTable, TableStorage {
    private final TableDef def;
    private final @Nullable Map<String, String> answers;
    int asked;

    Stub(String name, @Nullable Map<String, String> answers) {
      RelDataType bigint = session.context().parseType("BIGINT");
      this.def =
          new TableDef(
              name, List.of(ColumnDef.physical("id", bigint)), Map.of(), answers != null, null);
      this.answers = answers;
    }

    @Override
    public TableDef def() {
      return def;
    }

    @Override
    public TableStorage storage() {
      return this;
    }

    @Override
    public Enumerable<Object[]> scan() {
      return Linq4j.emptyEnumerable();
    }

    @Override
    public long insert(List<Object[]> rows) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void close() {}

    @Override
    public boolean discovers() {
      return answers != null;
    }

    @Override
    public @Nullable String discover(String name) {
      asked++;
      return answers == null ? null : answers.get(name);
    }
  }
}

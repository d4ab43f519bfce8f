package io.calcitebridge.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.calcitebridge.facade.BridgeSession;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** BridgeEnvironment end to end: statements, plans, schemas, the catalog, config and errors. */
class BridgeEnvironmentTest {
  private static final String STRATEGY = "table.column-expansion-strategy";

  private BridgeEnvironment env;

  @BeforeEach
  void setUp() {
    env = BridgeEnvironment.create();
    run(
        "CREATE TABLE t (i INT NOT NULL, s STRING,"
            + " rt1 TIMESTAMP_LTZ(3) METADATA VIRTUAL,"
            + " rt2 TIMESTAMP_LTZ(3) METADATA FROM 'timestamp' VIRTUAL,"
            + " doubled AS i * 2) WITH ('connector' = 'memory')");
    run("INSERT INTO t (i, s) VALUES (1, 'a'), (2, NULL)");
  }

  @AfterEach
  void tearDown() {
    env.close();
  }

  private void run(String sql) {
    Users.rows(env.execute(sql));
  }

  private List<String> rows(String sql) {
    return Users.rows(env.sql(sql));
  }

  private List<String> names(ArrowReader reader) throws Exception {
    try (reader) {
      return reader.getVectorSchemaRoot().getSchema().getFields().stream()
          .map(Field::getName)
          .toList();
    }
  }

  @Test
  void aDivisionByZeroWhileRowsStreamIsAnExecutionError() throws Exception {
    run("CREATE TABLE d (i INT) WITH ('connector' = 'memory')");
    run("INSERT INTO d VALUES (1), (2), (0)");
    try (ArrowReader reader = env.sql("SELECT 10 / i AS q FROM d")) {
      BridgeException e =
          assertThrows(
              BridgeException.class,
              () -> {
                while (reader.loadNextBatch()) {
                  reader.getVectorSchemaRoot();
                }
              });
      assertEquals("EXECUTION", e.kind());
      assertEquals("The query failed while it ran: Division by zero", e.getMessage());
    }
    assertEquals(List.of("[1]"), rows("SELECT COUNT(*) AS n FROM d WHERE i = 0"));
  }

  @Test
  void aJvmWithoutJavaNioOpenedToArrowIsToldWhatToAdd() {
    // The tests run with the option (pom.xml), so java.nio is open to this jar's classes.
    assertEquals(null, BridgeEnvironment.missingOpens(BridgeEnvironment.class.getModule()));
    // java.base opens java.nio to no other module: the message a JVM without the option gets.
    String message = BridgeEnvironment.missingOpens(java.sql.Connection.class.getModule());
    assertTrue(
        message != null && message.contains("--add-opens=java.base/java.nio=java.sql"), message);
  }

  @Test
  void statementsReturnTheirRows() {
    assertEquals(List.of("[OK]"), Users.rows(env.execute("CREATE VIEW v AS SELECT i FROM t")));
    assertEquals(List.of("[1]"), Users.rows(env.execute("INSERT INTO t (i) VALUES (3)")));
    assertEquals(
        List.of("[1, a, 2]", "[2, null, 4]", "[3, null, 6]"),
        rows("SELECT i, s, doubled FROM t ORDER BY i"));
    assertEquals(3, env.executeScript("DROP VIEW v; CREATE VIEW w AS SELECT s FROM t; SELECT 1"));
    assertEquals(List.of("t", "w"), env.tables());
  }

  @Test
  void aScriptsDryRunRunsDefinitionsAndNoDataChange() {
    List<CheckedStatement> steps =
        env.checkScript(
            "CREATE TABLE k (i INT, s STRING);\n"
                + "INSERT INTO k SELECT i, s FROM t;\n"
                + "SELECT i, s FROM k WHERE i > 1;\n"
                + "DELETE FROM t WHERE i = 1",
            true);
    assertEquals(
        List.of("ran", "validated", "validated", "validated"),
        steps.stream().map(CheckedStatement::outcome).toList());
    assertEquals(List.of(1, 2, 3, 4), steps.stream().map(CheckedStatement::line).toList());
    assertEquals(List.of("i INT", "s STRING"), steps.get(2).columns());
    assertTrue(steps.get(1).plan() != null && steps.get(1).plan().startsWith("Insert(table=[k])"));
    // Nothing was written: k is empty and t keeps its rows.
    assertEquals(List.of(), rows("SELECT * FROM k"));
    assertEquals(List.of("[2]"), rows("SELECT COUNT(*) FROM t"));
    BridgeException e =
        assertThrows(BridgeException.class, () -> env.checkScript("SELECT 1;\nSELECT nope", false));
    assertEquals("VALIDATION", e.kind());
    assertEquals(2, e.line());
  }

  @Test
  void charLengthCountsCodePointsAndCaseMappingIsJavas() {
    run("CREATE TABLE u (s STRING) WITH ('connector' = 'memory')");
    run("INSERT INTO u VALUES ('中😀'), ('straße'), (NULL)");
    assertEquals(
        List.of("[6, STRASSE]", "[2, 中😀]", "[null, null]"),
        rows("SELECT CHAR_LENGTH(s), UPPER(s) FROM u ORDER BY s NULLS LAST"));
    assertEquals(List.of("[2, 3]"), rows("SELECT CHAR_LENGTH('中😀'), CHARACTER_LENGTH('a😀b')"));
  }

  @Test
  void hiddenMetadataColumnsFollowTheExpansionStrategy() throws Exception {
    assertEquals(List.of("i", "s", "rt1", "rt2", "doubled"), names(env.sql("SELECT * FROM t")));
    env.setConfig(STRATEGY, "EXCLUDE_DEFAULT_VIRTUAL_METADATA_COLUMNS");
    assertEquals(List.of("i", "s", "rt2", "doubled"), names(env.sql("SELECT * FROM t")));
    assertEquals(
        List.of("rt1", "i", "s", "rt2", "doubled"), names(env.sql("SELECT rt1, * FROM t")));
    env.setConfig(
        STRATEGY, List.of("EXCLUDE_ALIASED_VIRTUAL_METADATA_COLUMNS", "EXCLUDE_COMPUTED_COLUMNS"));
    assertEquals(List.of("i", "s", "rt1"), names(env.sql("SELECT * FROM t")));
    assertEquals(List.of("[1]"), rows("SELECT i FROM t WHERE rt2 IS NOT NULL AND doubled = 2"));
    try (BridgeEnvironment other =
        BridgeEnvironment.create(Map.of(STRATEGY, "exclude_computed_columns"))) {
      assertEquals("EXCLUDE_COMPUTED_COLUMNS", other.getConfig(STRATEGY));
      assertEquals("", env.getConfig("python.allowed-modules"));
    }
  }

  @Test
  void dynamicColumnsOfAMemoryTableAreDiscovered() throws Exception {
    run("CREATE TABLE d (id INT, ...) WITH ('connector' = 'memory')");
    run("INSERT INTO d (id, color, size) VALUES (1, 'red', 42), (2, 'blue', NULL)");
    assertEquals(List.of("id"), names(env.sql("SELECT * FROM d")));
    assertEquals(List.of("[2, blue]"), rows("SELECT id, color FROM d WHERE color = 'blue'"));
    assertEquals(List.of("[1, 42]", "[2, null]"), rows("SELECT id, size FROM d ORDER BY id"));
  }

  @Test
  void sqlTakesStatementsThatAnswerWithRowsOnly() {
    BridgeException e =
        assertThrows(BridgeException.class, () -> env.sql("INSERT INTO t (i) VALUES (9)"));
    assertEquals("VALIDATION", e.kind());
    assertTrue(e.getMessage().contains("not INSERT; use execute()"), e.getMessage());
    assertEquals(List.of("[2]"), rows("SELECT COUNT(*) FROM t"));
    assertEquals(List.of("[t]"), rows("SHOW TABLES"));
    assertEquals(5, rows("DESCRIBE t").size());
  }

  @Test
  void explainInEveryFormat() {
    String sql = "SELECT s FROM t WHERE i = 1";
    assertTrue(env.explain(sql).contains("BridgeTableScan(table=[[t]]"), env.explain(sql));
    assertTrue(env.explain(sql, "json").strip().startsWith("{"), env.explain(sql, "json"));
    assertTrue(env.explain(sql, "dot").contains("digraph"), env.explain(sql, "dot"));
    BridgeException e = assertThrows(BridgeException.class, () -> env.explain(sql, "yaml"));
    assertEquals("CONFIG", e.kind());
    assertTrue(e.getMessage().contains("text, json, dot"), e.getMessage());
  }

  @Test
  void validateReturnsTheSchemaWithoutRunning() {
    Schema schema = env.validate("SELECT i, s AS name, CAST(i AS DOUBLE) AS x FROM t");
    assertEquals(
        List.of("i", "name", "x"), schema.getFields().stream().map(Field::getName).toList());
    assertEquals(new ArrowType.Int(32, true), schema.getFields().get(0).getType());
    assertEquals(false, schema.getFields().get(0).isNullable());
    assertEquals(ArrowType.Utf8.INSTANCE, schema.getFields().get(1).getType());
  }

  @Test
  void describeListsEveryColumnWithItsKind() {
    assertEquals(
        List.of(
            new ColumnInfo("i", "INT", false, "PHYSICAL", null, null, null),
            new ColumnInfo("s", "STRING", true, "PHYSICAL", null, null, null),
            new ColumnInfo("rt1", "TIMESTAMP_LTZ(3)", true, "METADATA", "rt1", true, null),
            new ColumnInfo("rt2", "TIMESTAMP_LTZ(3)", true, "METADATA", "timestamp", true, null),
            new ColumnInfo("doubled", "INT", false, "COMPUTED", null, null, "`i` * 2")),
        env.describe("t"));
    assertEquals("CATALOG", assertThrows(BridgeException.class, () -> env.describe("nope")).kind());
  }

  @Test
  void aLockedConfigurationKeepsItsSecuritySettings() {
    // lock-config first in the map: it is applied last all the same
    Map<String, String> config = new java.util.LinkedHashMap<>();
    config.put("lock-config", "true");
    config.put("filesystem.allowed-paths", "/data;/scratch");
    config.put("python.allowed-modules", "pkg");
    try (BridgeEnvironment locked = BridgeEnvironment.create(config)) {
      assertEquals("/data;/scratch", locked.getConfig("filesystem.allowed-paths"));
      for (String sql :
          List.of(
              "SET 'python.allowed-modules' = 'os;subprocess;builtins'",
              "SET 'filesystem.allowed-paths' = '/'",
              "SET 'external-access' = 'true'",
              "SET 'lock-config' = 'false'",
              "RESET 'filesystem.allowed-paths'",
              "RESET")) {
        BridgeException e = assertThrows(BridgeException.class, () -> locked.execute(sql).close());
        assertEquals("CONFIG", e.kind(), sql);
        assertTrue(e.getMessage().contains("The configuration is locked"), e.getMessage());
      }
      BridgeException api =
          assertThrows(
              BridgeException.class, () -> locked.setConfig("python.allowed-modules", "os"));
      assertEquals("CONFIG", api.kind());
      assertThrows(BridgeException.class, () -> locked.resetConfig("external-access"));
      assertThrows(BridgeException.class, locked::resetConfig);
      assertEquals("pkg", locked.getConfig("python.allowed-modules"));
      locked.setConfig("table.local-time-zone", "Europe/Paris"); // other settings still change
      locked.lockConfig(); // locking again changes nothing
    }
    try (BridgeEnvironment locked = BridgeEnvironment.create(Map.of(), true)) {
      assertEquals("true", locked.getConfig("lock-config"));
      assertThrows(BridgeException.class, () -> locked.setConfig("external-access", "false"));
    }
    env.lockConfig();
    assertThrows(BridgeException.class, () -> env.setConfig("filesystem.allowed-paths", "/"));
  }

  @Test
  void externalAccessOffRefusesTheFileAndPythonConnectorsWithAPosition() {
    env.registerConnector("filesystem", (table, options, schema) -> null);
    env.setConfig("external-access", "false");
    for (String connector : List.of("filesystem", "python")) {
      BridgeException e =
          assertThrows(
              BridgeException.class,
              () ->
                  run(
                      "CREATE TABLE f (a INT) WITH ('connector' = '"
                          + connector
                          + "', 'path' = '/')"));
      assertEquals("ACCESS", e.kind());
      assertEquals(1, e.line());
      assertTrue(e.getMessage().contains("'external-access' = 'false'"), e.getMessage());
    }
    run("CREATE TABLE m (a INT) WITH ('connector' = 'memory')"); // the application's own
  }

  @Test
  void configGetSetResetAndEntries() {
    assertEquals(
        Map.ofEntries(
            Map.entry(STRATEGY, ""),
            Map.entry("table.local-time-zone", "UTC"),
            Map.entry("python.allowed-modules", ""),
            Map.entry("execution.backend", "auto"),
            Map.entry("planner.plan-cache.size", "256"),
            Map.entry("execution.timeout", "0"),
            Map.entry("planner.timeout", "0"),
            Map.entry("execution.memory-limit", "0"),
            Map.entry(
                "execution.threads", Integer.toString(Runtime.getRuntime().availableProcessors())),
            Map.entry("filesystem.allowed-paths", ""),
            Map.entry("java.allowed-jars", ""),
            Map.entry("external-access", "true"),
            Map.entry("lock-config", "false")),
        env.configEntries());
    env.setConfig("table.local-time-zone", "Europe/Paris");
    run("SET 'table.column-expansion-strategy' = 'EXCLUDE_COMPUTED_COLUMNS'");
    assertEquals("Europe/Paris", env.getConfig("table.local-time-zone"));
    assertEquals("EXCLUDE_COMPUTED_COLUMNS", env.configEntries().get(STRATEGY));
    env.resetConfig("table.local-time-zone");
    assertEquals("UTC", env.getConfig("table.local-time-zone"));
    env.resetConfig();
    assertEquals("", env.getConfig(STRATEGY));
    BridgeException unknown = assertThrows(BridgeException.class, () -> env.getConfig("nope"));
    assertEquals("CONFIG", unknown.kind());
    BridgeException bad =
        assertThrows(BridgeException.class, () -> env.setConfig(STRATEGY, "EXCLUDE_NOTHING"));
    assertEquals("CONFIG", bad.kind());
    assertTrue(
        bad.getMessage().contains("EXCLUDE_DEFAULT_VIRTUAL_METADATA_COLUMNS"), bad.getMessage());
    assertEquals(
        "CONFIG",
        assertThrows(BridgeException.class, () -> BridgeEnvironment.create(Map.of("nope", "x")))
            .kind());
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = ';',
      value = {
        "SELECT nme FROM t; VALIDATION; 1; 8; 1; 10",
        "SELECT i\\nFROM nope; VALIDATION; 2; 6; 2; 9",
        "SELECT FROM t; PARSE; 1; 8; 1; 11",
        "SELECT i FROM t\\nWHERE s >> 1; PARSE; 2; 9; 2; 9",
        "SELECT i FROM t WHERE s + 1; VALIDATION; 1; 23; 1; 27",
      })
  void errorsCarryTheirKindAndSqlPosition(
      String sql, String kind, int line, int col, int endLine, int endCol) {
    BridgeException e =
        assertThrows(BridgeException.class, () -> env.sql(sql.replace("\\n", "\n")));
    assertEquals(kind, e.kind(), e.getMessage());
    assertEquals(
        List.of(line, col, endLine, endCol),
        List.of(e.line(), e.column(), e.endLine(), e.endColumn()),
        e.getMessage());
  }

  @Test
  void closeDropsTheTables() {
    env.close();
    assertEquals(List.of(), env.tables());
    assertEquals(
        "VALIDATION", assertThrows(BridgeException.class, () -> env.sql("SELECT * FROM t")).kind());
  }

  @Test
  void environmentsAreIndependent() {
    try (BridgeEnvironment other = BridgeEnvironment.create()) {
      assertEquals(List.of(), other.tables());
      other.setConfig(STRATEGY, "EXCLUDE_COMPUTED_COLUMNS");
      assertEquals("", env.getConfig(STRATEGY));
    }
    assertEquals(List.of("t"), env.tables());
  }

  @Test
  void arrowMemoryIsReleasedOnceReadersAreClosed() {
    rows("SELECT * FROM t");
    assertEquals(0, BridgeSession.allocatedBytes());
    assertEquals(BridgeSession.VERSION, BridgeEnvironment.version());
  }

  @Test
  void theIdleWarmUpTakesZeroOrMoreStatementsAndSaysWhatItDoes() {
    BridgeException e =
        assertThrows(BridgeException.class, () -> BridgeEnvironment.warmUpWhenIdle(-1));
    assertEquals("CONFIG", e.kind());
    assertFalse(BridgeEnvironment.warmUpWhenIdle(0), "0 statements start nothing");
    String status = BridgeEnvironment.idleWarmUpStatus();
    assertTrue(
        status.equals("off") || status.matches("(waiting|running|done|stopped) \\d+/\\d+"), status);
  }
}

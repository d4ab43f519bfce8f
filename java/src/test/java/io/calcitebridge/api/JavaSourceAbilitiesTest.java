package io.calcitebridge.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.calcitebridge.api.source.ScanRequest;
import io.calcitebridge.api.source.SupportsDynamicColumns;
import io.calcitebridge.api.source.SupportsProjectionPushDown;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** INSERT, metadata, dynamic columns, nested projection and limits through Java sources. */
class JavaSourceAbilitiesTest {
  private static final String DDL =
      "CREATE TABLE s (id INT, name STRING,"
          + " origin STRING METADATA,"
          + " pos BIGINT METADATA FROM 'offset' VIRTUAL)"
          + " WITH ('connector' = 'store', 'region' = 'eu')";

  private BridgeEnvironment env;
  private final List<StoreSource> created = new ArrayList<>();
  private final List<Map<String, String>> options = new ArrayList<>();

  @BeforeEach
  void setUp() {
    env = BridgeEnvironment.create();
    env.registerConnector(
        "store",
        (table, opts, schema) -> {
          options.add(opts);
          StoreSource source = new StoreSource(schema);
          created.add(source);
          return source;
        });
  }

  @AfterEach
  void tearDown() {
    env.close();
  }

  private List<String> rows(String sql) {
    return Users.rows(env.execute(sql));
  }

  @Test
  void insertWritesThroughTheSourceWithMetadataByKey() {
    env.executeScript(DDL);
    assertEquals(Map.of("connector", "store", "region", "eu"), options.get(0));
    assertEquals(List.of("[2]"), rows("INSERT INTO s VALUES (1, 'a', 'web'), (2, NULL, NULL)"));
    assertEquals(List.of(List.of("origin")), created.get(0).writtenKeys);
    assertEquals(
        List.of("[1, web, 0]", "[2, null, 1]"), rows("SELECT id, origin, pos FROM s ORDER BY id"));
    ScanRequest read = created.get(0).requests.get(0);
    assertEquals(List.of("origin", "offset"), read.metadataKeys());
    assertEquals(Optional.of(List.of("id")), read.columns());
    env.setConfig("table.column-expansion-strategy", "EXCLUDE_PERSISTED_METADATA_COLUMNS");
    assertEquals(List.of("[1, a, 0]", "[2, null, 1]"), rows("SELECT * FROM s ORDER BY id"));
    assertEquals(List.of("[1, a, web]"), rows("SELECT id, name, origin FROM s WHERE pos = 0"));
  }

  @Test
  void aFailingWriteAppendsNothing() {
    env.executeScript(DDL);
    rows("INSERT INTO s (id, name) VALUES (1, 'a')");
    BridgeException e =
        assertThrows(
            BridgeException.class,
            () -> env.execute("INSERT INTO s (id, name) VALUES (2, 'b'), (NULL, 'c')"));
    assertEquals("SOURCE", e.kind());
    assertTrue(e.getMessage().contains("a row without a key"), e.getMessage());
    assertEquals(List.of("[1, a]"), rows("SELECT id, name FROM s"));
  }

  @Test
  void aReadOnlySourceRefusesInserts() {
    env.registerSource("users", new RowSource(Users.SCHEMA, Users.ROWS));
    BridgeException e =
        assertThrows(BridgeException.class, () -> env.execute("INSERT INTO users (id) VALUES (9)"));
    assertTrue(e.getMessage().contains("read-only"), e.getMessage());
  }

  @Test
  void anUnknownMetadataKeyFailsAtCreateTableNamingTheOfferedOnes() {
    BridgeException e =
        assertThrows(
            BridgeException.class,
            () ->
                env.executeScript(
                    "CREATE TABLE s (id INT,\n k STRING METADATA FROM 'nope')"
                        + " WITH ('connector' = 'store')"));
    assertEquals("VALIDATION", e.kind());
    assertTrue(e.getMessage().contains("it offers: origin, offset"), e.getMessage());
    assertEquals(2, e.line());
  }

  /** A source that knows a column its schema does not list. */
  private static final class Discovering extends RowSource implements SupportsDynamicColumns {
    final List<String> asked = new ArrayList<>();

    Discovering() {
      super(Users.SCHEMA, Users.ROWS);
    }

    @Override
    public Optional<String> discoverColumn(String name) {
      asked.add(name);
      return name.equals("tier") ? Optional.of("STRING") : Optional.empty();
    }

    @Override
    Field extraField(String name) {
      return Field.nullable(name, ArrowType.Utf8.INSTANCE);
    }

    @Override
    Object extraValue(String name, Object[] row) {
      return (long) row[0] % 2 == 0 ? "gold" : null;
    }
  }

  @Test
  void aDiscoveredColumnWorksInEveryClause() {
    Discovering source = new Discovering();
    env.registerSource("users", source);
    assertEquals(
        List.of("[2, gold]", "[4, gold]", "[6, gold]"),
        rows("SELECT id, tier FROM users WHERE tier = 'gold' ORDER BY id"));
    assertEquals(
        List.of("[null, 4]", "[gold, 3]"),
        rows("SELECT tier, COUNT(*) FROM users GROUP BY tier ORDER BY tier"));
    assertEquals(List.of("tier"), source.asked.stream().distinct().toList());
    assertEquals(3, env.validate("SELECT * FROM users").getFields().size());
    BridgeException e =
        assertThrows(BridgeException.class, () -> env.sql("SELECT nope FROM users"));
    assertEquals("VALIDATION", e.kind());
    assertEquals(8, e.column());
  }

  /** A filtering source that also reads fields inside ROW columns on their own. */
  private static final class Projecting extends FilteringSource
      implements SupportsProjectionPushDown {
    Projecting() {
      super(Users.SCHEMA, Users.ROWS, true);
    }

    @Override
    public boolean supportsNestedProjection() {
      return true;
    }
  }

  @Test
  void nestedProjectionAsksForIndexPaths() {
    Projecting source = new Projecting();
    env.registerSource("users", source);
    String sql = "SELECT id, user.name FROM users WHERE user.age < 30";
    String plan = env.explain(sql);
    assertTrue(plan.contains("project=[[id, user.name]]"), plan);
    assertTrue(plan.contains("filter=[<(user.age, 30)]"), plan);
    assertEquals(List.of("[1, ann]", "[5, null]", "[7, abe]"), rows(sql + " ORDER BY id"));
    assertEquals(
        Optional.of(List.of(List.of(0), List.of(1, 0))), source.requests.get(0).projection());
    assertEquals(List.of("id", "user.name"), source.requests.get(0).outputNames(Users.SCHEMA));
  }

  @Test
  void aLimitArrivesAsAHint() {
    RowSource source = new RowSource(Users.SCHEMA, Users.ROWS);
    env.registerSource("users", source);
    assertEquals(2, rows("SELECT id FROM users LIMIT 2").size());
    assertEquals(OptionalLong.of(2), source.requests.get(0).limit());
  }

  @Test
  void replacingASourceNeedsReplace() {
    env.registerSource("users", new RowSource(Users.SCHEMA, Users.ROWS));
    BridgeException e =
        assertThrows(
            BridgeException.class,
            () -> env.registerSource("users", new RowSource(Users.SCHEMA, List.of())));
    assertEquals("CATALOG", e.kind());
    env.registerSource("users", new RowSource(Users.SCHEMA, List.of()), true);
    assertEquals(List.of(), rows("SELECT id FROM users"));
    assertEquals(
        "CONFIG",
        assertThrows(
                BridgeException.class, () -> env.registerConnector("memory", (t, o, s) -> null))
            .kind());
  }
}

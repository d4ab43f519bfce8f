package io.calcitebridge.examples;

import io.calcitebridge.api.BridgeEnvironment;
import io.calcitebridge.api.BridgeException;
import io.calcitebridge.api.source.ArrowRows;
import io.calcitebridge.examples.UsersSource.Account;
import io.calcitebridge.examples.UsersSource.Person;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * Runs calcite-bridge's three signature features from Java and checks every answer; exits with 1 on
 * the first mismatch.
 */
public final class Main {
  private Main() {}

  /** Runs every example; exits with 1 at the first answer that differs from the expected one. */
  public static void main(String[] args) throws IOException {
    hiddenMetadataColumns();
    discoveredDynamicColumns();
    nestedFilterPushDown();
    errorsCarryTheirPosition();
    System.out.println("All examples passed.");
  }

  /** (a) Metadata columns that SELECT * leaves out, while an explicit reference still works. */
  static void hiddenMetadataColumns() throws IOException {
    Map<String, String> config =
        Map.of("table.column-expansion-strategy", "EXCLUDE_ALIASED_VIRTUAL_METADATA_COLUMNS");
    try (BridgeEnvironment env = BridgeEnvironment.create(config)) {
      env.executeScript(
          "CREATE TABLE t (i INT, s STRING,"
              + " pos BIGINT METADATA FROM 'offset' VIRTUAL,"
              + " inserted TIMESTAMP_LTZ(3) METADATA FROM 'timestamp' VIRTUAL"
              + ") WITH ('connector' = 'memory');"
              + "INSERT INTO t (i, s) VALUES (1, 'a'), (2, 'b')");
      check("SELECT * columns", List.of("i", "s"), columns(env.sql("SELECT * FROM t")));
      check(
          "an explicit reference",
          List.of("pos", "i", "s"),
          columns(env.sql("SELECT pos, * FROM t")));
      check(
          "hidden columns in WHERE",
          List.of("[2, b, 1]"),
          rows(env.sql("SELECT i, s, pos FROM t WHERE pos >= 1 AND inserted IS NOT NULL")));
      env.resetConfig("table.column-expansion-strategy");
      check(
          "the default strategy",
          List.of("i", "s", "pos", "inserted"),
          columns(env.sql("SELECT * FROM t")));
    }
  }

  /** (b) A column no DDL declares, found by field discovery. */
  static void discoveredDynamicColumns() throws IOException {
    try (BridgeEnvironment env = BridgeEnvironment.create()) {
      env.executeScript(
          "CREATE TABLE events (id INT) DYNAMIC_COLUMNS = ON WITH ('connector' = 'memory');"
              + "INSERT INTO events (id, kind, score) VALUES (1, 'click', 3), (2, 'view', NULL)");
      check(
          "SELECT * of declared columns", List.of("id"), columns(env.sql("SELECT * FROM events")));
      check(
          "discovered columns",
          List.of("[1, click, 3]"),
          rows(env.sql("SELECT id, kind, score FROM events WHERE kind = 'click'")));
    }
  }

  /** (c) A Java source that applies {@code user.age < 30} itself. */
  static void nestedFilterPushDown() throws IOException {
    UsersSource users =
        new UsersSource(
            List.of(
                new Account(1, new Person("ann", 25)),
                new Account(2, new Person("bob", 41)),
                new Account(3, null),
                new Account(4, new Person("carl", null)),
                new Account(5, new Person("abe", 17))));
    try (BridgeEnvironment env = BridgeEnvironment.create()) {
      env.registerSource("users", users);
      String sql = "SELECT id, user.name FROM users WHERE user.age < 30 AND user.name LIKE 'a%'";
      String plan = env.explain(sql);
      System.out.println(plan);
      String scan = plan.lines().filter(l -> l.contains("BridgeTableScan")).findFirst().orElse("");
      check(
          "the scan took the nested filter",
          "BridgeTableScan(table=[[users]], filter=[<(user.age, 30)])",
          scan.strip());
      check("LIKE stays above the scan", true, plan.contains("LIKE(") && !scan.contains("LIKE"));
      check("rows", List.of("[1, ann]", "[5, abe]"), rows(env.sql(sql + " ORDER BY id")));
      check(
          "NULL users and ages",
          List.of("[3, null]", "[4, [carl, null]]"),
          rows(env.sql("SELECT id, `user` FROM users WHERE user.age IS NULL ORDER BY id")));
    }
  }

  /** SQL errors name their kind and position. */
  static void errorsCarryTheirPosition() {
    try (BridgeEnvironment env = BridgeEnvironment.create()) {
      env.sql("SELECT 1\nFROM nowhere");
      check("an error", "BridgeException", "no exception");
    } catch (BridgeException e) {
      check("error kind", "VALIDATION", e.kind());
      check("error position", List.of(2, 6), List.of(e.line(), e.column()));
    }
  }

  private static List<String> columns(ArrowReader reader) throws IOException {
    try (reader) {
      return reader.getVectorSchemaRoot().getSchema().getFields().stream()
          .map(Field::getName)
          .toList();
    }
  }

  private static List<String> rows(ArrowReader reader) throws IOException {
    try (reader) {
      List<String> out = new ArrayList<>();
      for (Object[] row : ArrowRows.read(reader)) {
        out.add(Arrays.deepToString(row));
      }
      return out;
    }
  }

  private static void check(String what, Object expected, Object actual) {
    if (!expected.equals(actual)) {
      System.err.println("MISMATCH in " + what + ": expected " + expected + ", got " + actual);
      System.exit(1);
    }
    System.out.println("ok  " + what + ": " + actual);
  }
}

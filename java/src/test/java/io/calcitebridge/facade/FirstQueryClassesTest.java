package io.calcitebridge.facade;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A new JVM's first validate and first query on DuckDB (the default backend of a Python session)
 * initialise neither Calcite's {@code CoreRules} and {@code Programs}, whose two hundred rules only
 * Calcite's own engine needs, nor Jackson's mapper: each cost a first query about a tenth of a
 * second. A new JVM is needed, since the test JVM has initialised them already; its
 * class-initialisation log says which classes it initialised.
 */
class FirstQueryClassesTest {
  private static final String QUERY =
      "SELECT s, COUNT(*) AS n FROM (VALUES (1, 'a'), (2, 'b'), (3, 'a')) AS t(i, s)"
          + " WHERE i > 1 GROUP BY s ORDER BY s";

  /** What a Python session's first statements do: a validate, then a query DuckDB runs. */
  static String firstStatements() {
    try (BridgeSession session = new BridgeSession()) {
      session.setHostBackends("duckdb");
      Object schema = session.validateSchemaWithin("SELECT 1 AS x", 60_000);
      if (!(schema instanceof byte[])) {
        throw new AssertionError("no schema: " + schema);
      }
      try (StatementResult r = session.query(QUERY).result()) {
        return r.describe();
      }
    }
  }

  public static void main(String[] args) {
    System.out.println(firstStatements());
    System.exit(0);
  }

  @Test
  void aNewJvmsFirstQueryOnDuckDbInitialisesNeitherCoreRulesNorJackson(@TempDir Path dir)
      throws IOException, InterruptedException {
    Path log = dir.resolve("init.log");
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("--add-opens=java.base/java.nio=ALL-UNNAMED");
    command.add("-Xshare:off");
    command.add("-Xlog:class+init=info:file=" + log);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(FirstQueryClassesTest.class.getName());
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(2, TimeUnit.MINUTES), out);
    assertEquals(0, p.exitValue(), out);

    // The query was planned for DuckDB, and described as this JVM describes it.
    JsonNode described = new ObjectMapper().readTree(out.strip());
    assertEquals(new ObjectMapper().readTree(firstStatements()), described);
    assertEquals("duckdb", described.get("backend").asText());
    assertTrue(described.get("backendSql").asText().contains("GROUP BY"), out);

    List<String> initialised =
        Files.readAllLines(log, StandardCharsets.UTF_8).stream()
            .filter(l -> l.contains("Initializing '"))
            .toList();
    assertTrue(
        initialised.stream().anyMatch(l -> l.contains("'io/calcitebridge/plan/OptimizerProgram'")),
        "the log names the classes initialised");
    for (String unwanted :
        List.of(
            "'org/apache/calcite/rel/rules/CoreRules'",
            "'org/apache/calcite/tools/Programs'",
            "'org/apache/calcite/plan/RelOptRules'",
            "/jackson/databind/ObjectMapper'")) {
      assertEquals(
          List.of(),
          initialised.stream().filter(l -> l.contains(unwanted)).toList(),
          unwanted + " initialised by a first query on DuckDB");
    }
  }
}

package io.calcitebridge.facade;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A new JVM's first validate, explain and query on DuckDB (the default backend of a Python session)
 * initialise neither Calcite's {@code CoreRules} and {@code Programs}, whose two hundred rules only
 * Calcite's own engine needs, nor its table of the engine's implementors ({@code RexImpTable}), nor
 * Jackson's mapper: each cost a first query tens of milliseconds or more. A new JVM is needed,
 * since the test JVM has initialised them already; its class-initialisation log says which classes
 * it initialised.
 */
class FirstQueryClassesTest {
  private static final String QUERY =
      "SELECT s, COUNT(*) AS n FROM (VALUES (1, 'a'), (2, 'b'), (3, 'a')) AS t(i, s)"
          + " WHERE i > 1 GROUP BY s ORDER BY s";

  /**
   * What a Python session's first statements do: a validate, an explain in text, then a query
   * DuckDB runs; the query's description and the explain, one a line.
   */
  static List<String> firstStatements() {
    try (BridgeSession session = new BridgeSession()) {
      session.setHostBackends("duckdb");
      Object schema = session.validateSchemaWithin("SELECT 1 AS x", 60_000);
      if (!(schema instanceof byte[])) {
        throw new AssertionError("no schema: " + schema);
      }
      String explained = String.valueOf(session.explainWithin(QUERY, "text", null, 60_000));
      try (StatementResult r = session.query(QUERY).result()) {
        return List.of(r.describe(), explained.strip().replace('\n', ' '));
      }
    }
  }

  public static void main(String[] args) {
    firstStatements().forEach(System.out::println);
    System.exit(0);
  }

  @Test
  void aNewJvmsFirstQueryOnDuckDbInitialisesNeitherCoreRulesNorJackson(@TempDir Path dir)
      throws IOException, InterruptedException {
    Path log = dir.resolve("init.log");
    String out =
        io.calcitebridge.NewJvm.run(
            FirstQueryClassesTest.class, "-Xlog:class+init=info:file=" + log);

    // The query was planned for DuckDB, described and explained as this JVM does it.
    List<String> lines = out.strip().lines().toList();
    List<String> here = firstStatements();
    assertEquals(2, lines.size(), out);
    JsonNode described = new ObjectMapper().readTree(lines.get(0));
    assertEquals(new ObjectMapper().readTree(here.get(0)), described);
    assertEquals("duckdb", described.get("backend").asText());
    assertTrue(described.get("backendSql").asText().contains("GROUP BY"), out);
    assertEquals(here.get(1), lines.get(1));
    assertTrue(lines.get(1).startsWith("DuckDB(sql=[SELECT"), out);

    io.calcitebridge.NewJvm.assertInitialised(
        log,
        "'io/calcitebridge/plan/OptimizerProgram'",
        List.of(
            "'org/apache/calcite/rel/rules/CoreRules'",
            "'org/apache/calcite/tools/Programs'",
            "'org/apache/calcite/plan/RelOptRules'",
            "'org/apache/calcite/adapter/enumerable/RexImpTable'",
            "/jackson/databind/ObjectMapper'"),
        "a first query on DuckDB");
  }
}

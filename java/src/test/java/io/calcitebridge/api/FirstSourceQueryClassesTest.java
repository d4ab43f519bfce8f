package io.calcitebridge.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A new JVM's first registration of a source and its first queries over it that the source answers
 * on its own (a selection of columns, the filter taken by the source) initialise neither Calcite's
 * {@code CoreRules} and {@code Programs} (the cost-based pass has no choice to make for such a
 * plan) nor Jackson's data binding (Arrow's schema, the offers and answers of filters, errors and a
 * table's options need no mapper); nor do a first error and a first CREATE TABLE. Each cost such a
 * first statement tens of milliseconds or more. ({@code test_startup.py} checks a Python session's
 * first statements, parameters among them.)
 */
class FirstSourceQueryClassesTest {
  private static final String SELECTION = "SELECT score, id FROM users WHERE id > 4";

  /**
   * The explain of the filtered selection, the rows of it and of the whole table, a validation
   * error's position, and the rows of a table a connector made.
   */
  static List<String> firstStatements() {
    try (BridgeEnvironment env = BridgeEnvironment.create()) {
      env.registerSource("users", new FilteringSource(Users.SCHEMA, Users.ROWS, true));
      List<String> out = new ArrayList<>();
      out.add(env.explain(SELECTION).strip().replace('\n', ' '));
      out.add(String.join(" ", Users.rows(env.sql(SELECTION))));
      out.add(String.join(" ", Users.rows(env.sql("SELECT * FROM users"))));
      // A mistake: its error may travel as JSON.
      try {
        env.sql("SELECT nosuch FROM users");
        out.add("no error");
      } catch (BridgeException e) {
        out.add(e.kind() + " at " + e.line() + ":" + e.column());
      }
      // A table of a connector (its options travel as JSON), read.
      env.registerConnector(
          "rows",
          (table, options, schema) -> new RowSource(schema, List.<Object[]>of(new Object[] {9L})));
      Users.rows(
          env.execute(
              "CREATE TABLE more (id BIGINT) WITH ('connector' = 'rows', 'region' = 'eu')"));
      out.add(String.join(" ", Users.rows(env.sql("SELECT id FROM more"))));
      return out;
    }
  }

  public static void main(String[] args) {
    firstStatements().forEach(System.out::println);
    System.exit(0);
  }

  @Test
  void aNewJvmsFirstSelectionFromASourceInitialisesNeitherCoreRulesNorJacksonsMapper(
      @TempDir Path dir) throws IOException, InterruptedException {
    Path log = dir.resolve("init.log");
    String out =
        io.calcitebridge.NewJvm.run(
            FirstSourceQueryClassesTest.class, "-Xlog:class+init=info:file=" + log);

    List<String> lines = out.strip().lines().toList();
    assertEquals(firstStatements(), lines, out);
    assertTrue(lines.get(0).contains("filter=[>(id, 4)]"), out);
    assertEquals("[5.0, 5] [6.5, 6] [null, 7]", lines.get(1), out);
    assertEquals(7, lines.get(2).split("\\] \\[", -1).length, out);
    assertEquals("VALIDATION at 1:8", lines.get(3), out);
    assertEquals("[9]", lines.get(4), out);

    io.calcitebridge.NewJvm.assertInitialised(
        log,
        "'io/calcitebridge/connector/SourceStorage'",
        List.of(
            "'org/apache/calcite/rel/rules/CoreRules'",
            "'org/apache/calcite/tools/Programs'",
            "'org/apache/calcite/plan/RelOptRules'",
            "/jackson/databind/ObjectMapper'",
            "/jackson/databind/util/StdDateFormat'"),
        "a first selection from a source");
  }
}

package io.calcitebridge.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A new JVM's first registration of a source and its first queries over it that the source answers
 * on its own (a selection of columns, the filter taken by the source) initialise neither Calcite's
 * {@code CoreRules} and {@code Programs} (the cost-based pass has no choice to make for such a
 * plan) nor Jackson's data binding (Arrow's schema and the offers and answers of filters need no
 * mapper). Each cost such a first statement tens of milliseconds or more.
 */
class FirstSourceQueryClassesTest {
  private static final String SELECTION = "SELECT score, id FROM users WHERE id > 4";

  /** The explain of the filtered selection, then the rows of it and of the whole table. */
  static List<String> firstStatements() {
    try (BridgeEnvironment env = BridgeEnvironment.create()) {
      env.registerSource("users", new FilteringSource(Users.SCHEMA, Users.ROWS, true));
      List<String> out = new ArrayList<>();
      out.add(env.explain(SELECTION).strip().replace('\n', ' '));
      out.add(String.join(" ", Users.rows(env.sql(SELECTION))));
      out.add(String.join(" ", Users.rows(env.sql("SELECT * FROM users"))));
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

    List<String> initialised =
        Files.readAllLines(log, StandardCharsets.UTF_8).stream()
            .filter(l -> l.contains("Initializing '"))
            .toList();
    assertTrue(
        initialised.stream()
            .anyMatch(l -> l.contains("'io/calcitebridge/connector/SourceStorage'")),
        "the log names the classes initialised");
    for (String unwanted :
        List.of(
            "'org/apache/calcite/rel/rules/CoreRules'",
            "'org/apache/calcite/tools/Programs'",
            "'org/apache/calcite/plan/RelOptRules'",
            "/jackson/databind/ObjectMapper'",
            "/jackson/databind/util/StdDateFormat'")) {
      assertEquals(
          List.of(),
          initialised.stream().filter(l -> l.contains(unwanted)).toList(),
          unwanted + " initialised by a first selection from a source");
    }
  }
}

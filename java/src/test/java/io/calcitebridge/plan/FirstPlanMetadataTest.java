package io.calcitebridge.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.calcitebridge.api.BridgeEnvironment;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A new JVM's first plans use the metadata handlers compiled with the jar for every kind they ask
 * for, cost and original rows included: no handler is generated and compiled by Janino while they
 * are planned. A new JVM is needed, since any earlier plan of the test JVM would have made the
 * handlers already; its class-loading log says which classes it loaded and from where.
 */
class FirstPlanMetadataTest {
  private static final String JOIN =
      "SELECT t.s, COUNT(*) AS n, SUM(u.v) AS total FROM t JOIN u ON t.i = u.i"
          + " WHERE u.v > 1 GROUP BY t.s";

  /** The plans of this JVM's first statements, one a line. */
  static List<String> firstPlans() {
    try (BridgeEnvironment env = BridgeEnvironment.create()) {
      env.executeScript(
          "CREATE TABLE t (i INT, s STRING) WITH ('connector' = 'memory');"
              + "CREATE TABLE u (i INT, v INT) WITH ('connector' = 'memory');");
      env.validate("SELECT i, s FROM t WHERE i > 1");
      return List.of(env.explain("SELECT s FROM t WHERE i > 1").strip(), env.explain(JOIN).strip());
    }
  }

  public static void main(String[] args) {
    for (String plan : firstPlans()) {
      System.out.println(plan);
    }
    System.exit(0);
  }

  @Test
  void aNewJvmsFirstPlansCompileNoMetadataHandler(@TempDir Path dir)
      throws IOException, InterruptedException {
    Path log = dir.resolve("classes.log");
    String out =
        io.calcitebridge.NewJvm.run(
            FirstPlanMetadataTest.class, "-Xlog:class+load=info:file=" + log);
    // the same plans as this JVM makes
    assertEquals(String.join("\n", firstPlans()), out.strip());

    List<String> loaded = Files.readAllLines(log, StandardCharsets.UTF_8);
    String ours = PrecompiledMetadata.class.getPackageName() + ".metadata.GeneratedMetadata_";
    List<String> handlers = loaded.stream().filter(l -> l.contains("GeneratedMetadata_")).toList();
    assertTrue(
        handlers.stream().anyMatch(l -> l.contains(ours + "CumulativeCostHandler ")),
        String.join("\n", handlers));
    assertTrue(
        handlers.stream().anyMatch(l -> l.contains(ours + "RowCountHandler ")),
        String.join("\n", handlers));
    List<String> generated = handlers.stream().filter(l -> !l.contains(ours)).toList();
    assertEquals(List.of(), generated, "metadata handlers generated in the new JVM");
    List<String> compiler =
        loaded.stream().filter(l -> l.contains("org.codehaus.janino.")).toList();
    assertEquals(List.of(), compiler, "Janino's compiler loaded by the first plans");
  }
}

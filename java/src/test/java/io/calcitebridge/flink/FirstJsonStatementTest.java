package io.calcitebridge.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.calcitebridge.api.BridgeEnvironment;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.Test;

/**
 * Calcite's JSON functions read and write JSON as Flink's from a new JVM's first statement on:
 * Jackson is started when the first plan is made, not with the operator table, and a JSON function
 * of constants is folded while that first statement is planned. A new JVM is needed, since any
 * earlier statement of the test JVM would have started it.
 */
class FirstJsonStatementTest {
  static final String SQL =
      "SELECT JSON_VALUE('{\"a\": 1.50, \"b\": 1E+400}', '$.a'),"
          + " JSON_QUERY('{\"a\": [1.50, 2]}', '$.a'),"
          + " JSON_OBJECT('k' VALUE CAST(100000000000000000000 AS DOUBLE)),"
          + " JSON_STRING(CAST(0.00001 AS DOUBLE))";

  /** The rows of {@link #SQL} as this JVM's first statement. */
  public static void main(String[] args) throws Exception {
    try (BridgeEnvironment env = BridgeEnvironment.create();
        ArrowReader reader = env.sql(SQL)) {
      for (Object[] row : io.calcitebridge.api.source.ArrowRows.read(reader)) {
        System.out.println(Arrays.deepToString(row));
      }
    }
    System.exit(0);
  }

  @Test
  void aNewJvmsFirstStatementReadsAndWritesJsonAsFlink() throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("--add-opens=java.base/java.nio=ALL-UNNAMED");
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(FirstJsonStatementTest.class.getName());
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    p.waitFor(2, TimeUnit.MINUTES);
    assertEquals(0, p.exitValue(), out);
    assertEquals("[1.50, [1.50,2], {\"k\":1.0E+20}, 0.000010]", out.strip(), out);
  }
}

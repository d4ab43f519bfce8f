package io.calcitebridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a class's {@code main} in a new JVM, on this JVM's class path, without a class-data-sharing
 * archive: tests of what a new process loads or initialises first, which this JVM has done already.
 */
public final class NewJvm {
  private NewJvm() {}

  /**
   * What {@code main}'s {@code main} printed (stdout and stderr), once it exited with 0 within two
   * minutes; {@code log} (such as {@code -Xlog:class+load=info:file=...}) is given to the JVM.
   */
  public static String run(Class<?> main, String log) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("--add-opens=java.base/java.nio=ALL-UNNAMED");
    command.add("-Xshare:off");
    command.add(log);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(main.getName());
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(2, TimeUnit.MINUTES), out);
    assertEquals(0, p.exitValue(), out);
    return out;
  }

  /**
   * Asserts, from the class-initialisation log {@code log} ({@code -Xlog:class+init=info:file=...})
   * of a JVM that {@link #run} started, that it initialised {@code expected} and none of {@code
   * unwanted} (parts of a class's line, such as {@code "'org/apache/calcite/tools/Programs'"});
   * {@code what} names the JVM's work in the failure.
   */
  public static void assertInitialised(
      Path log, String expected, List<String> unwanted, String what) throws IOException {
    List<String> initialised =
        java.nio.file.Files.readAllLines(log, StandardCharsets.UTF_8).stream()
            .filter(l -> l.contains("Initializing '"))
            .toList();
    assertTrue(
        initialised.stream().anyMatch(l -> l.contains(expected)),
        "the log names the classes initialised");
    for (String name : unwanted) {
      assertEquals(
          List.of(),
          initialised.stream().filter(l -> l.contains(name)).toList(),
          name + " initialised by " + what);
    }
  }
}

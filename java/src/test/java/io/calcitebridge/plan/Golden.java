package io.calcitebridge.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Expected plans kept in a text file of {@code -- name:} sections. With {@code
 * -Dgolden.update=true}, {@link #check} records the actual plan instead of comparing, and {@link
 * #write} rewrites the file (sections sorted by name).
 */
final class Golden {
  static final boolean UPDATE = Boolean.getBoolean("golden.update");
  private static final String MARK = "-- name: ";

  private final Path file;
  private final Map<String, String> sections = new LinkedHashMap<>();
  private boolean changed;

  /** The golden file at {@code path}, relative to the Maven module. */
  Golden(String path) {
    this.file = Path.of(path);
    if (Files.exists(file)) {
      read();
    }
  }

  private void read() {
    String name = null;
    StringBuilder body = new StringBuilder();
    try {
      for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
        if (line.startsWith(MARK)) {
          if (name != null) {
            sections.put(name, body.toString().strip());
          }
          name = line.substring(MARK.length()).strip();
          body.setLength(0);
        } else if (name != null) {
          body.append(line).append('\n');
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    if (name != null) {
      sections.put(name, body.toString().strip());
    }
  }

  /** Compares {@code actual} with section {@code name} (or records it when updating). */
  synchronized void check(String name, String actual) {
    String plan = actual.strip();
    if (UPDATE) {
      if (!plan.equals(sections.get(name))) {
        sections.put(name, plan);
        changed = true;
      }
      return;
    }
    String expected = sections.get(name);
    if (expected == null) {
      throw new AssertionError(
          "No section '"
              + name
              + "' in "
              + file
              + "; run the test with -Dgolden.update=true to add it. Actual plan:\n"
              + plan);
    }
    assertEquals(expected, plan, "plan '" + name + "' (rewrite with -Dgolden.update=true)");
  }

  /** Writes the file back when updating and something changed. */
  synchronized void write() {
    if (!UPDATE || !changed) {
      return;
    }
    StringBuilder out = new StringBuilder();
    out.append("# Expected optimized plans of PushDownPlanTest; rewrite them with\n");
    out.append("# `mvn test -Dtest=PushDownPlanTest -Dgolden.update=true` (or `make golden`).\n");
    for (Map.Entry<String, String> e : new TreeMap<>(sections).entrySet()) {
      out.append('\n').append(MARK).append(e.getKey()).append('\n').append(e.getValue());
      out.append('\n');
    }
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(file, out.toString(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

package io.calcitebridge.javasource;

import io.calcitebridge.api.source.FilterPushDownResult;
import io.calcitebridge.errors.SourceException;
import io.calcitebridge.expr.Expression;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Checks a source's {@link FilterPushDownResult} against the offered filters and turns it into the
 * indices the planner takes: every offered filter must come back at least once, and nothing that
 * was not offered may come back.
 */
final class FilterContract {
  private FilterContract() {}

  /** {@code {"accepted": [i, ...], "remaining": [i, ...]}}, or a contract violation. */
  static Map<String, List<Integer>> check(
      String source, List<Expression> offered, @Nullable FilterPushDownResult result) {
    if (result == null) {
      throw violation("Source '" + source + "' answered applyFilters() with null");
    }
    TreeSet<Integer> accepted = indices(source, offered, result.accepted(), "accepted");
    TreeSet<Integer> remaining = indices(source, offered, result.remaining(), "remaining");
    TreeSet<Integer> lost = new TreeSet<>();
    for (int i = 0; i < offered.size(); i++) {
      if (!accepted.contains(i) && !remaining.contains(i)) {
        lost.add(i);
      }
    }
    if (!lost.isEmpty()) {
      throw violation(
          "Source '"
              + source
              + "' lost the filter "
              + lost.stream().map(i -> offered.get(i).toString()).collect(Collectors.joining(", "))
              + ": every offered filter must come back in accepted, remaining or both");
    }
    return Map.of("accepted", List.copyOf(accepted), "remaining", List.copyOf(remaining));
  }

  private static TreeSet<Integer> indices(
      String source, List<Expression> offered, List<Expression> answered, String label) {
    TreeSet<Integer> found = new TreeSet<>();
    for (Expression e : answered) {
      boolean hit = false;
      for (int i = 0; i < offered.size(); i++) {
        if (offered.get(i) == e || offered.get(i).equals(e)) {
          found.add(i);
          hit = true;
        }
      }
      if (!hit) {
        throw violation(
            "Source '"
                + source
                + "' returned the filter "
                + e
                + " in "
                + label
                + ", but it was never offered");
      }
    }
    return found;
  }

  private static SourceException violation(String message) {
    return new SourceException(message, true, "");
  }
}

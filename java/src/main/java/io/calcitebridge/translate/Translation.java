package io.calcitebridge.translate;

import java.util.List;
import org.apache.calcite.rel.RelNode;

/**
 * A plan turned into a backend's SQL: the text, and the scans it reads, in order; scan {@code i} is
 * the relation named {@code scan_i}, with the scan's columns. A scan is one of our table scans, or
 * a large {@code VALUES} whose rows the backend reads as data ({@link
 * io.calcitebridge.enumerable.LiteralRows}).
 *
 * @param backend the backend's name
 * @param sql the query, in the backend's dialect
 * @param scans the scans the query reads
 * @param parameters for each {@code ?} of {@code sql}, in the order they appear, the index of the
 *     statement's parameter whose value it takes (a plan kept for any values, bound as it runs)
 */
public record Translation(
    String backend, String sql, List<RelNode> scans, List<Integer> parameters) {
  /** A translation without dynamic parameters. */
  public Translation(String backend, String sql, List<RelNode> scans) {
    this(backend, sql, scans, List.of());
  }

  /** The name the query uses for scan {@code i}. */
  public static String scanName(int i) {
    return "scan_" + i;
  }
}

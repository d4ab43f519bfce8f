package io.calcitebridge.catalog;

import io.calcitebridge.expr.Expression;
import java.util.List;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.calcite.linq4j.Enumerable;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A {@link TableStorage} whose scans produce Arrow batches (a table source's stream): the planner
 * may push limits, nested projections and (when it opts in) aggregates into it, and a plan that it
 * absorbs whole returns its batches as they are.
 */
public interface ArrowStorage extends TableStorage {
  /** The source's stream for a scan, and where each scanned column (in order) is in it. */
  record Opened(ArrowReader reader, int[] columns) {}

  /** The source's name, for messages. */
  String sourceName();

  /** Whether the source takes index paths into ROW columns. */
  boolean supportsNestedProjection();

  /**
   * Whether aggregates without GROUP BY over the source's scans are answered from its batches (a
   * {@code COUNT(*)} from a scan of no column), as Flink's {@code SupportsAggregatePushDown}.
   */
  boolean supportsAggregatePushDown();

  /**
   * Runs a scan of the scanned columns at {@code projection} (all when null); the caller closes the
   * reader.
   */
  Opened open(List<Expression> filters, int @Nullable [] projection, @Nullable Integer limit);

  /**
   * Runs a scan for index paths into the scanned columns (a path of one index is a whole column; a
   * longer one a field inside ROW columns); the caller closes the reader.
   */
  Opened openPaths(List<Expression> filters, List<List<Integer>> paths, @Nullable Integer limit);

  /** Rows for index paths (see {@link #openPaths}). */
  Enumerable<Object[]> scanPaths(
      List<Expression> filters, List<List<Integer>> paths, @Nullable Integer limit);
}

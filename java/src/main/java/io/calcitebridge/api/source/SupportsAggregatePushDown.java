package io.calcitebridge.api.source;

/**
 * A source that answers aggregates over its own scans, as Flink's {@code
 * SupportsAggregatePushDown}: an aggregate without GROUP BY ({@code COUNT(*)}, {@code COUNT(x)},
 * {@code SUM}, {@code MIN}, {@code MAX} of integer and floating-point columns) directly over a scan
 * of such a source is computed straight from the scan's Arrow batches, and a {@code COUNT(*)} asks
 * it for no column at all ({@link ScanRequest#columns()} empty), which it may answer from its own
 * row counts (a file format's footers, say) with batches of rows and no columns.
 *
 * <p>Under {@code execution.backend = auto} such a {@code COUNT(*)} is not handed to DuckDB;
 * aggregates that read columns are (DuckDB measured faster). A source without this ability (or
 * answering false) has every aggregate run by the engine: DuckDB under {@code auto}, Calcite's
 * aggregate on {@code enumerable}. EXPLAIN shows an aggregate a source answers as {@code
 * ArrowAggregate(...)} over the scan.
 */
public interface SupportsAggregatePushDown {
  /**
   * Whether aggregates over this source's scans are answered from its batches.
   *
   * @return true unless overridden
   */
  default boolean supportsAggregatePushDown() {
    return true;
  }
}

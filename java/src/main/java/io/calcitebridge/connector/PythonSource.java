package io.calcitebridge.connector;

import org.apache.arrow.c.ArrowArrayStream;

/**
 * A table source written in Python, implemented there with JPype's {@code @JImplements}. Calls are
 * coarse: the schema once, {@code applyFilters} at most once per scan at plan time, {@code scan}
 * once per execution. Arrow data crosses as C structs the JVM allocates and Python fills. A method
 * that fails returns (or, for void methods, {@link #lastError} holds) a JSON error object {@code
 * {"error": {"kind": "SOURCE" | "SOURCE_CONTRACT" | "ACCESS", "message": ..., "traceback": ...}}},
 * so Python exceptions reach the user with their traceback.
 */
public interface PythonSource {
  /** The name the source was registered under, for messages. */
  String name();

  /** Exports the source's Arrow schema into the {@code ArrowSchema} struct at {@code address}. */
  String exportSchema(long address);

  /** Whether the source implements {@code apply_filters}. */
  boolean supportsFilterPushDown();

  /** Whether filters holding nested field references may be offered. */
  boolean supportsNestedFilters();

  /**
   * Offers filters (a JSON array of expressions); answers {@code {"accepted": [i, ...],
   * "remaining": [i, ...]}} with indices into the offered array, or an error object.
   */
  String applyFilters(String filtersJson);

  /**
   * Scans (request as JSON: columns, projection, filters, metadata_keys, limit) into the C stream
   * struct {@code out}; returns null or an error object. The struct itself is passed, not its
   * address, because JPype leaks the Python int of every {@code long} it hands to Python, and this
   * call runs once per scan.
   */
  String scan(String requestJson, ArrowArrayStream out);

  /** The metadata keys the source can read, as a JSON object of key to type; "{}" when none. */
  String readableMetadata();

  /**
   * Writes the Arrow stream at {@code address} (an INSERT); persisted metadata columns are named by
   * their keys, listed in {@code metadataKeysJson} (a JSON array) for {@code
   * apply_writable_metadata}. Returns null or an error object.
   */
  String write(long address, String metadataKeysJson);

  /** Whether the source takes index paths into ROW columns in the request's projection. */
  boolean supportsNestedProjection();

  /** Whether the source answers {@code supports_aggregate_pushdown()} with true. */
  boolean supportsAggregatePushDown();

  /** Whether the source implements {@code discover_column}. */
  boolean supportsDynamicColumns();

  /** The type of column {@code name} the DDL doesn't declare, null, or an error object. */
  String discoverColumn(String name);

  /**
   * Whether a backend of the source's own process reads the source's table in place, whole, and
   * applies any filter itself: an in-memory Arrow table, which its engine filters where it lies, or
   * a {@code filesystem} table of Parquet files that DuckDB reads with its own reader, skipping row
   * groups from their statistics. Either is faster than asking the source for the filtered rows at
   * each run.
   */
  default boolean readsInPlace() {
    return false;
  }

  /**
   * Whether the source's answer to an offer of filters depends only on the offer's shape (the
   * filters with their literals' values left out) and on whether each literal makes an Arrow scalar
   * of its type: a built-in Arrow table source or {@code filesystem} table whose {@code
   * apply_filters} is its own. The JVM then keeps the answer per shape and does not ask again for
   * new values. A source that implements {@code apply_filters} itself is asked at every offer, with
   * the values.
   */
  default boolean answersByShape() {
    return false;
  }

  /** Whether the source implements {@code write}. */
  boolean supportsWriting();

  /** Whether the source answers {@code supports_row_level_update()} with true. */
  default boolean supportsRowLevelUpdate() {
    return false;
  }

  /** Whether the source answers {@code supports_row_level_delete()} with true. */
  default boolean supportsRowLevelDelete() {
    return false;
  }

  /** Whether the source implements {@code overwrite} (what {@code INSERT OVERWRITE} calls). */
  default boolean supportsOverwrite() {
    return false;
  }

  /**
   * Replaces every row of the source with the Arrow stream at {@code address} (an UPDATE or
   * DELETE), atomically; columns as {@link #write} has them. Returns null or an error object.
   */
  default String overwrite(long address, String metadataKeysJson) {
    throw new UnsupportedOperationException("Source '" + name() + "' has no overwrite()");
  }
}

package io.calcitebridge.gateway;

/**
 * A Python table source seen through a py4j callback: the bytes counterpart of {@link
 * io.calcitebridge.connector.PythonSource}. Arrow data crosses as Arrow IPC stream bytes; a method
 * that fails answers a JSON error object ({@code {"error": {"kind", "message", "traceback"}}}), as
 * UTF-8 bytes where the answer is bytes.
 */
public interface RemoteSource {
  /** The name the source was registered under. */
  String name();

  /**
   * What the source can do, once for all, as a JSON object of booleans: {@code filters}, {@code
   * nested_filters}, {@code nested_projection}, {@code aggregates}, {@code dynamic_columns}, {@code
   * writing}, {@code row_level_update}, {@code row_level_delete}, {@code overwrite}.
   */
  String abilities();

  /** The source's schema as an IPC stream without batches, or an error object. */
  byte[] schema();

  /** See {@link io.calcitebridge.connector.PythonSource#applyFilters}. */
  String applyFilters(String filtersJson);

  /** The rows of a scan as an IPC stream, or an error object. */
  byte[] scan(String requestJson);

  /** See {@link io.calcitebridge.connector.PythonSource#readableMetadata}. */
  String readableMetadata();

  /** See {@link io.calcitebridge.connector.PythonSource#discoverColumn}. */
  String discoverColumn(String name);

  /**
   * Writes the rows of an IPC stream, in base64 (an INSERT); returns null or an error object. Bytes
   * going to Python cross as base64 text: py4j decodes byte arrays a byte at a time.
   */
  String write(String rows, String metadataKeysJson);

  /**
   * Replaces every row of the source with the rows of an IPC stream, in base64 (an UPDATE or
   * DELETE); returns null or an error object.
   */
  default String overwrite(String rows, String metadataKeysJson) {
    throw new UnsupportedOperationException("Source '" + name() + "' has no overwrite()");
  }
}

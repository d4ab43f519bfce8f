package io.calcitebridge.api.source;

import java.util.Map;

/**
 * A source that provides metadata, read by key: a table declared in DDL reads it through columns
 * such as {@code rt TIMESTAMP_LTZ(3) METADATA FROM 'timestamp' VIRTUAL}. A scan lists the keys it
 * reads in {@link ScanRequest#metadataKeys()}; the source appends one column per key, named by the
 * key.
 */
public interface SupportsReadingMetadata {
  /**
   * The metadata keys this source can read, with their SQL types as DDL writes them ({@code
   * TIMESTAMP_LTZ(3)}, {@code BIGINT}, {@code STRING}). A DDL column naming another key fails at
   * {@code CREATE TABLE}, naming these.
   *
   * @return the keys and their types, in a stable order
   */
  Map<String, String> listReadableMetadata();
}

package io.calcitebridge.api.source;

import java.util.List;

/**
 * A {@link SupportsWriting} source that stores persisted metadata columns ({@code origin STRING
 * METADATA}). An INSERT hands their values over as extra columns named by the key.
 */
public interface SupportsWritingMetadata {
  /**
   * Told, right before {@link SupportsWriting#write}, which metadata keys the rows carry.
   *
   * @param keys the metadata keys among the written columns, in order
   */
  void applyWritableMetadata(List<String> keys);
}

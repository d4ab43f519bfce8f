package io.calcitebridge.api.source;

import java.io.IOException;
import org.apache.arrow.vector.ipc.ArrowReader;

/** A source that takes the rows of an {@code INSERT}. */
public interface SupportsWriting {
  /**
   * Appends {@code rows} atomically: every row becomes visible, or none does when this throws.
   *
   * <p>The rows come in the order of the table's writable columns (physical ones by name, then
   * persisted metadata ones named by key; see {@link SupportsWritingMetadata}). The engine closes
   * {@code rows} after this returns, so a source that keeps the data copies or transfers it out of
   * the batches first.
   *
   * @param rows the rows to append
   * @throws IOException when the rows cannot be written; the statement then fails with a {@code
   *     BridgeException} of kind {@code SOURCE}
   */
  void write(ArrowReader rows) throws IOException;
}

package io.calcitebridge.vector;

import io.calcitebridge.catalog.ArrowStorage;
import io.calcitebridge.errors.Errors;
import io.calcitebridge.errors.SourceException;
import java.io.IOException;
import org.apache.arrow.vector.ipc.ArrowReader;

/** Reading a source's Arrow batches, a failure reported as the source's. */
final class ArrowBatches {
  private ArrowBatches() {}

  /** Loads the next batch; false at the end. */
  static boolean load(ArrowReader reader, ArrowStorage storage) {
    try {
      return reader.loadNextBatch();
    } catch (SourceException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      throw failed(storage, e);
    }
  }

  /** The error of a read of {@code storage} that failed with {@code e}. */
  static SourceException failed(ArrowStorage storage, Exception e) {
    return Errors.sourceReadFailure(storage.sourceName(), e);
  }
}

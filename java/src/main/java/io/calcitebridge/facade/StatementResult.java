package io.calcitebridge.facade;

import io.calcitebridge.exec.ArrowResults;
import io.calcitebridge.exec.ExportedStream;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.vector.ipc.ArrowReader;

/**
 * The rows of one statement, exported as an Arrow C stream. Python imports the stream at {@link
 * #address()} and then calls {@link #close()} to free the small struct that carried it.
 */
public final class StatementResult implements AutoCloseable {
  private final String kind;
  private final ExportedStream stream;

  StatementResult(String kind, ExportedStream stream) {
    this.kind = kind;
    this.stream = stream;
  }

  /** What ran: {@code query}, {@code insert}, {@code ddl}, {@code explain}, ... */
  public String kind() {
    return kind;
  }

  /** Address of the {@code ArrowArrayStream} struct. */
  public long address() {
    return stream.address();
  }

  /**
   * Imports the rows as an {@link ArrowReader} inside the JVM (for Java callers and the gateway);
   * no data is copied. The caller closes the reader; this handle is closed here.
   */
  public ArrowReader toReader() {
    try (this) {
      return Data.importArrayStream(
          ArrowResults.allocator(), ArrowArrayStream.wrap(stream.address()));
    }
  }

  @Override
  public void close() {
    stream.close();
  }
}

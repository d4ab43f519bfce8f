package io.calcitebridge.facade;

import io.calcitebridge.arrow.ArrowMemory;
import io.calcitebridge.arrow.ExportedStream;
import io.calcitebridge.arrow.GuardedReader;
import io.calcitebridge.errors.Errors;
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
      ArrowReader imported =
          Data.importArrayStream(ArrowMemory.allocator(), ArrowArrayStream.wrap(stream.address()));
      return new GuardedReader(ArrowMemory.allocator(), imported, Errors::translateRunning);
    }
  }

  @Override
  public void close() {
    stream.close();
  }
}

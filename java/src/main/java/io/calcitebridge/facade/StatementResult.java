package io.calcitebridge.facade;

import io.calcitebridge.exec.ExportedStream;

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

  @Override
  public void close() {
    stream.close();
  }
}

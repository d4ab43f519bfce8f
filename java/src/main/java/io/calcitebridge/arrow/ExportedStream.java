package io.calcitebridge.arrow;

import org.apache.arrow.c.ArrowArrayStream;

/**
 * A Java-allocated C {@code ArrowArrayStream} struct holding an exported stream.
 *
 * <p>Hand {@link #address()} to the consumer, which moves the stream out of the struct; then close
 * this handle to free the struct. Closing it before the consumer took the stream also releases the
 * stream (and so closes the exported reader).
 */
public final class ExportedStream implements AutoCloseable {
  private final ArrowArrayStream stream;
  private boolean closed;

  ExportedStream(ArrowArrayStream stream) {
    this.stream = stream;
  }

  /** The memory address of the C struct. */
  public long address() {
    return stream.memoryAddress();
  }

  @Override
  public synchronized void close() {
    if (!closed) {
      closed = true;
      // A no-op when the consumer has moved the stream out (its release callback is null).
      stream.release();
      stream.close();
    }
  }
}

package io.calcitebridge.arrow;

import org.apache.arrow.c.ArrowSchema;

/**
 * A Java-allocated C {@code ArrowSchema} struct holding an exported schema. Hand {@link #address()}
 * to the consumer, then close this handle to free the struct (and the schema, if the consumer did
 * not move it out).
 */
public final class ExportedSchema implements AutoCloseable {
  private final ArrowSchema schema;
  private boolean closed;

  ExportedSchema(ArrowSchema schema) {
    this.schema = schema;
  }

  /** The memory address of the C struct. */
  public long address() {
    return schema.memoryAddress();
  }

  @Override
  public synchronized void close() {
    if (!closed) {
      closed = true;
      schema.release();
      schema.close();
    }
  }
}

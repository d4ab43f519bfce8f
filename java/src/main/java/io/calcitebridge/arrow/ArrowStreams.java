package io.calcitebridge.arrow;

import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.ArrowSchema;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Moves Arrow streams and schemas across the Arrow C Data Interface.
 *
 * <p>The C structs are allocated by Java; the consumer (pyarrow's {@code
 * RecordBatchReader._import_from_c(address)}, or {@link #importStream}) moves their contents out,
 * after which the caller closes the returned handle to free the struct itself. Exported buffers
 * stay charged to {@code allocator} until the consumer releases them, so the allocator must outlive
 * the consumer's use of the data.
 */
public final class ArrowStreams {
  private ArrowStreams() {}

  /**
   * Exports {@code reader} as an {@code ArrowArrayStream}. The stream owns the reader from now on:
   * releasing the stream closes it.
   */
  public static ExportedStream exportStream(BufferAllocator allocator, ArrowReader reader) {
    ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator);
    try {
      Data.exportArrayStream(allocator, reader, stream);
    } catch (RuntimeException | Error e) {
      stream.close();
      throw e;
    }
    return new ExportedStream(stream);
  }

  /**
   * Imports the {@code ArrowArrayStream} at {@code address}; its contents are moved into the
   * returned reader, which must be closed. The struct at {@code address} stays owned by the caller.
   */
  public static ArrowReader importStream(BufferAllocator allocator, long address) {
    return Data.importArrayStream(allocator, ArrowArrayStream.wrap(address));
  }

  /** Exports a schema alone (a result without rows, or the answer of a validation). */
  public static ExportedSchema exportSchema(BufferAllocator allocator, Schema schema) {
    ArrowSchema struct = ArrowSchema.allocateNew(allocator);
    try {
      Data.exportSchema(allocator, schema, null, struct);
    } catch (RuntimeException | Error e) {
      struct.close();
      throw e;
    }
    return new ExportedSchema(struct);
  }

  /** Imports the {@code ArrowSchema} at {@code address}, moving its contents out. */
  public static Schema importSchema(BufferAllocator allocator, long address) {
    return Data.importSchema(allocator, ArrowSchema.wrap(address), null);
  }
}

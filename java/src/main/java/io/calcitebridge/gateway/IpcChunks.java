package io.calcitebridge.gateway;

import io.calcitebridge.errors.Errors;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The rows of a statement as an Arrow IPC stream cut into chunks of whole batches, so that a large
 * result never sits in memory whole. The first chunk starts with a header line, {@code
 * "<kind>;last\n"} when it holds the whole stream or {@code "<kind>;more\n"} when more follow.
 */
final class IpcChunks implements AutoCloseable {
  private final String kind;
  private final ArrowReader reader;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private @Nullable ArrowStreamWriter writer;
  private boolean finished;
  private boolean closed;

  IpcChunks(String kind, ArrowReader reader) {
    this.kind = kind;
    this.reader = reader;
  }

  /** The next chunk, of at least {@code minBytes} unless the stream ends first. */
  synchronized byte[] next(int minBytes) throws IOException {
    if (closed) {
      throw new IllegalStateException("the result was closed");
    }
    out.reset();
    boolean first = writer == null;
    try {
      ArrowStreamWriter w = writer;
      if (w == null) {
        w = Ipc.writer(reader.getVectorSchemaRoot(), out);
        w.start();
        writer = w;
      }
      while (!finished && out.size() < minBytes) {
        if (reader.loadNextBatch()) {
          w.writeBatch();
        } else {
          w.end();
          finished = true;
        }
      }
    } catch (IOException | RuntimeException e) {
      close();
      // The reader is StatementResult.toReader()'s: its failures are already translated.
      throw Errors.translate(e);
    }
    if (finished) {
      close();
    }
    if (!first) {
      return out.toByteArray();
    }
    byte[] header = (kind + (finished ? ";last\n" : ";more\n")).getBytes(StandardCharsets.UTF_8);
    byte[] body = out.toByteArray();
    byte[] chunk = new byte[header.length + body.length];
    System.arraycopy(header, 0, chunk, 0, header.length);
    System.arraycopy(body, 0, chunk, header.length, body.length);
    return chunk;
  }

  synchronized boolean finished() {
    return finished;
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      reader.close();
    } catch (IOException | RuntimeException e) {
      // nothing more to free; the statement's own failure, if any, is the one reported
    }
  }
}

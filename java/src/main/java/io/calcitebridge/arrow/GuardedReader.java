package io.calcitebridge.arrow;

import java.io.IOException;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Another reader's batches, as they are (the same vectors, nothing copied), with every failure of
 * {@link #loadNextBatch()} passed through a mapping: how a failure is reported depends on who reads
 * the stream (a C stream consumer, a Java caller, the gateway).
 */
public final class GuardedReader extends ArrowReader {
  private final ArrowReader in;
  private final Function<Throwable, ? extends Exception> onFailure;

  /**
   * Reads {@code in}; a failure {@code t} while a batch loads is thrown as {@code onFailure(t)},
   * which must be an {@link IOException} or a {@link RuntimeException}.
   */
  public GuardedReader(
      BufferAllocator allocator,
      ArrowReader in,
      Function<Throwable, ? extends Exception> onFailure) {
    super(allocator);
    this.in = in;
    this.onFailure = onFailure;
  }

  @Override
  public boolean loadNextBatch() throws IOException {
    try {
      return in.loadNextBatch();
    } catch (IOException
        | RuntimeException
        | StackOverflowError
        | OutOfMemoryError
        | LinkageError e) { // ExceptionInInitializerError: a constant of the generated code failed

      Exception mapped = onFailure.apply(e);
      if (mapped instanceof IOException io) {
        throw io;
      }
      if (mapped instanceof RuntimeException re) {
        throw re;
      }
      throw new IOException(mapped);
    }
  }

  @Override
  public VectorSchemaRoot getVectorSchemaRoot() throws IOException {
    return in.getVectorSchemaRoot();
  }

  @Override
  public Map<Long, Dictionary> getDictionaryVectors() throws IOException {
    return in.getDictionaryVectors();
  }

  @Override
  public Dictionary lookup(long id) {
    return in.lookup(id);
  }

  @Override
  public Set<Long> getDictionaryIds() {
    return in.getDictionaryIds();
  }

  @Override
  public long bytesRead() {
    return in.bytesRead();
  }

  @Override
  protected void closeReadSource() throws IOException {
    in.close();
  }

  @Override
  protected Schema readSchema() throws IOException {
    return in.getVectorSchemaRoot().getSchema();
  }
}

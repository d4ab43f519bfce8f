package io.calcitebridge.connector;

import io.calcitebridge.exec.ArrowToRows;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;

/**
 * An Arrow table registered from Python ({@code env.register_arrow}): the batches stay in the
 * memory Python exported, and scans read them in place. Read-only.
 */
public final class ArrowTableStorage implements TableStorage {
  private final List<VectorSchemaRoot> batches;

  private ArrowTableStorage(List<VectorSchemaRoot> batches) {
    this.batches = batches;
  }

  /** Takes every batch of {@code reader} (buffers are transferred, not copied). */
  public static ArrowTableStorage readAll(BufferAllocator allocator, ArrowReader reader)
      throws IOException {
    List<VectorSchemaRoot> batches = new ArrayList<>();
    VectorSchemaRoot root = reader.getVectorSchemaRoot();
    while (reader.loadNextBatch()) {
      List<FieldVector> vectors = new ArrayList<>();
      for (FieldVector v : root.getFieldVectors()) {
        var pair = v.getTransferPair(allocator);
        pair.transfer();
        vectors.add((FieldVector) pair.getTo());
      }
      batches.add(new VectorSchemaRoot(root.getSchema().getFields(), vectors, root.getRowCount()));
    }
    return new ArrowTableStorage(batches);
  }

  @Override
  public Enumerable<Object[]> scan() {
    return Linq4j.concat(batches.stream().map(ArrowToRows::of).toList());
  }

  @Override
  public long insert(List<Object[]> rows) {
    throw new UnsupportedOperationException("Tables registered from Arrow are read-only");
  }

  @Override
  public boolean isWritable() {
    return false;
  }

  @Override
  public synchronized void close() {
    batches.forEach(VectorSchemaRoot::close);
    batches.clear();
  }
}

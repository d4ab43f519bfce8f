package io.calcitebridge.arrow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.calcitebridge.types.ArrowTypes;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rel.type.RelDataType;
import org.junit.jupiter.api.Test;

/** Export and import through the Arrow C Data Interface within one JVM. */
class CDataTest {
  @Test
  void streamRoundTripReturnsAllMemory() throws Exception {
    RelDataType rowType = TestData.allTypes(false);
    List<Object[]> rows = TestData.allRows(false);
    try (BufferAllocator allocator = new RootAllocator()) {
      try (ExportedStream exported =
          ArrowStreams.exportStream(
              allocator,
              new RowsToArrow(allocator, rowType, Linq4j.enumerator(rows), 1, 1 << 20))) {
        assertTrue(exported.address() != 0);
        ArrowReader imported = ArrowStreams.importStream(allocator, exported.address());
        assertEquals(ArrowTypes.toSchema(rowType), imported.getVectorSchemaRoot().getSchema());
        TestData.assertRowsEqual(rows, RoundTripTest.readAll(ArrowToRows.of(imported)));
      }
      assertEquals(0, allocator.getAllocatedMemory());
    }
  }

  @Test
  void batchesStayValidAfterTheNextOneIsLoaded() throws Exception {
    RelDataType rowType = TestData.allTypes(false);
    List<Object[]> rows = TestData.allRows(false);
    try (BufferAllocator allocator = new RootAllocator()) {
      try (ExportedStream exported =
              ArrowStreams.exportStream(
                  allocator,
                  new RowsToArrow(allocator, rowType, Linq4j.enumerator(rows), 1, 1 << 20));
          ArrowReader imported = ArrowStreams.importStream(allocator, exported.address())) {
        // Keep the first imported batch while the producer writes the next ones.
        assertTrue(imported.loadNextBatch());
        try (org.apache.arrow.vector.VectorSchemaRoot first =
            imported.getVectorSchemaRoot().slice(0)) {
          assertTrue(imported.loadNextBatch());
          assertTrue(imported.loadNextBatch());
          TestData.assertRowsEqual(
              rows.subList(0, 1), RoundTripTest.readAll(ArrowToRows.of(first)));
        }
      }
      assertEquals(0, allocator.getAllocatedMemory());
    }
  }

  @Test
  void closingAnUnconsumedExportClosesTheRows() throws Exception {
    RelDataType rowType = TestData.allTypes(true);
    AtomicBoolean closed = new AtomicBoolean();
    Enumerator<Object[]> rows =
        new DelegatingEnumerator(Linq4j.enumerator(TestData.allRows(true)), () -> closed.set(true));
    try (BufferAllocator allocator = new RootAllocator()) {
      ExportedStream exported =
          ArrowStreams.exportStream(allocator, new RowsToArrow(allocator, rowType, rows));
      exported.close();
      exported.close();
      assertTrue(closed.get());
      assertEquals(0, allocator.getAllocatedMemory());
    }
  }

  @Test
  void schemaRoundTrip() {
    Schema schema = ArrowTypes.toSchema(TestData.allTypes(false));
    try (BufferAllocator allocator = new RootAllocator()) {
      try (ExportedSchema exported = ArrowStreams.exportSchema(allocator, schema)) {
        assertEquals(schema, ArrowStreams.importSchema(allocator, exported.address()));
      }
      assertEquals(0, allocator.getAllocatedMemory());
    }
  }

  /** An enumerator that reports when it is closed. */
  private static final class DelegatingEnumerator implements Enumerator<Object[]> {
    private final Enumerator<Object[]> delegate;
    private final Runnable onClose;

    DelegatingEnumerator(Enumerator<Object[]> delegate, Runnable onClose) {
      this.delegate = delegate;
      this.onClose = onClose;
    }

    @Override
    public Object[] current() {
      return delegate.current();
    }

    @Override
    public boolean moveNext() {
      return delegate.moveNext();
    }

    @Override
    public void reset() {
      delegate.reset();
    }

    @Override
    public void close() {
      onClose.run();
      delegate.close();
    }
  }
}

package io.calcitebridge.arrow;

import io.calcitebridge.arrow.ValueReaders.ValueReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Presents Arrow data as an {@code Enumerable<Object[]>} of rows in Calcite's runtime
 * representation (see the package documentation), for example as the result of {@link
 * org.apache.calcite.schema.ScannableTable#scan}.
 *
 * <p>Streams are read batch by batch; only the current batch is in memory, and values are converted
 * when a row is reached. A projection ({@code int[]} of top-level field indices) selects and orders
 * the columns of each row; {@code null} means all columns.
 */
public final class ArrowToRows {
  private ArrowToRows() {}

  /** Rows of the batch currently in {@code root}; the root stays owned by the caller. */
  public static Enumerable<Object[]> of(VectorSchemaRoot root) {
    return of(root, null);
  }

  /** Projected rows of the batch currently in {@code root}. */
  public static Enumerable<Object[]> of(VectorSchemaRoot root, int @Nullable [] projection) {
    return new AbstractEnumerable<Object[]>() {
      @Override
      public Enumerator<Object[]> enumerator() {
        return new BatchEnumerator(null, root, projection);
      }
    };
  }

  /**
   * Rows of a stream, which can be enumerated once; closing the enumerator (Calcite does at the end
   * of a query) closes the reader. Do not close the reader again: the reader {@link
   * ArrowStreams#importStream} returns fails on a second close.
   */
  public static Enumerable<Object[]> of(ArrowReader reader) {
    return of(reader, null);
  }

  /** Projected rows of a stream, which can be enumerated once; see {@link #of(ArrowReader)}. */
  public static Enumerable<Object[]> of(ArrowReader reader, int @Nullable [] projection) {
    AtomicBoolean used = new AtomicBoolean();
    return of(
        () -> {
          if (used.getAndSet(true)) {
            throw new IllegalStateException("An Arrow stream can be enumerated only once");
          }
          return reader;
        },
        projection);
  }

  /**
   * Projected rows of the streams that {@code readers} opens, one per enumeration, so that the
   * result can be enumerated more than once (Calcite does that for the inner input of a nested-loop
   * join). Each enumerator closes its reader.
   */
  public static Enumerable<Object[]> of(
      Supplier<? extends ArrowReader> readers, int @Nullable [] projection) {
    return new AbstractEnumerable<Object[]>() {
      @Override
      public Enumerator<Object[]> enumerator() {
        ArrowReader reader = readers.get();
        try {
          return new BatchEnumerator(reader, reader.getVectorSchemaRoot(), projection);
        } catch (IOException e) {
          closeQuietly(reader);
          throw new UncheckedIOException(e);
        }
      }
    };
  }

  private static void closeQuietly(ArrowReader reader) {
    try {
      reader.close();
    } catch (IOException | RuntimeException ignored) {
      // the original failure is more useful than this one
    }
  }

  /** Enumerates the rows of a root, loading the next batch from the reader when it has one. */
  private static final class BatchEnumerator implements Enumerator<Object[]> {
    private final @Nullable ArrowReader reader;
    private final VectorSchemaRoot root;
    private final int[] columns;
    private final ValueReader[] readers;
    private int rowCount;
    private int row = -1;
    private boolean loaded;
    private boolean closed;
    private Object @Nullable [] current;

    BatchEnumerator(
        @Nullable ArrowReader reader, VectorSchemaRoot root, int @Nullable [] projection) {
      this.reader = reader;
      this.root = root;
      int n = root.getFieldVectors().size();
      this.columns = projection != null ? projection.clone() : identity(n);
      for (int c : columns) {
        if (c < 0 || c >= n) {
          throw new IndexOutOfBoundsException("Projected column " + c + " of " + n);
        }
      }
      this.readers = new ValueReader[columns.length];
      if (reader == null) {
        bind();
      }
    }

    private static int[] identity(int n) {
      int[] a = new int[n];
      for (int i = 0; i < n; i++) {
        a[i] = i;
      }
      return a;
    }

    /** Builds value readers over the root's vectors for the batch now loaded. */
    private void bind() {
      List<FieldVector> vectors = root.getFieldVectors();
      for (int k = 0; k < columns.length; k++) {
        readers[k] = ValueReaders.of(vectors.get(columns[k]));
      }
      rowCount = root.getRowCount();
      row = -1;
      loaded = true;
    }

    @Override
    public Object[] current() {
      if (current == null) {
        throw new NoSuchElementException();
      }
      return current;
    }

    @Override
    public boolean moveNext() {
      if (closed) {
        return false;
      }
      while (!loaded || row + 1 >= rowCount) {
        if (reader == null) {
          current = null;
          return false;
        }
        try {
          if (!reader.loadNextBatch()) {
            current = null;
            return false;
          }
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
        bind();
      }
      row++;
      Object[] values = new Object[readers.length];
      for (int k = 0; k < readers.length; k++) {
        values[k] = readers[k].get(row);
      }
      current = values;
      return true;
    }

    @Override
    public void reset() {
      if (reader != null) {
        throw new UnsupportedOperationException("An Arrow stream cannot be rewound");
      }
      row = -1;
      current = null;
    }

    @Override
    public void close() {
      if (closed) {
        return;
      }
      closed = true;
      current = null;
      if (reader != null) {
        try {
          reader.close();
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    }
  }
}

package io.calcitebridge.arrow;

import io.calcitebridge.arrow.ValueWriters.ValueWriter;
import io.calcitebridge.types.ArrowTypes;
import java.io.IOException;
import java.util.Iterator;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rel.type.RelDataType;

/**
 * An {@link ArrowReader} that pulls rows ({@code Object[]} in Calcite's runtime representation)
 * from an {@link Enumerator} and fills record batches of at most {@code maxRows} rows and roughly
 * {@code maxBytes} bytes each.
 *
 * <p>The schema comes from the row type through {@link ArrowTypes#toSchema}. Every batch is written
 * into freshly allocated buffers, so a batch that was exported through the C Data Interface is
 * never overwritten by the next one. Closing the reader closes the enumerator. Values may also come
 * in the lenient forms the package documentation lists (a ROW as a List, a narrower or wider boxed
 * number, java.sql/java.time date-time values, ...).
 */
public class RowsToArrow extends ArrowReader {
  /** Default maximum number of rows in a batch. */
  public static final int DEFAULT_MAX_ROWS = 65_536;

  /** Default soft limit of the data bytes in a batch. */
  public static final long DEFAULT_MAX_BYTES = 4L << 20;

  private final RelDataType rowType;
  private final Enumerator<Object[]> rows;
  private final int maxRows;
  private final long maxBytes;
  private ValueWriter[] writers = new ValueWriter[0];
  private boolean exhausted;
  private long bytesWritten;

  /** Creates a reader with the default batch limits. */
  public RowsToArrow(BufferAllocator allocator, RelDataType rowType, Enumerator<Object[]> rows) {
    this(allocator, rowType, rows, DEFAULT_MAX_ROWS, DEFAULT_MAX_BYTES);
  }

  /** Creates a reader whose batches hold at most {@code maxRows} rows, about {@code maxBytes}. */
  public RowsToArrow(
      BufferAllocator allocator,
      RelDataType rowType,
      Enumerator<Object[]> rows,
      int maxRows,
      long maxBytes) {
    super(allocator);
    if (maxRows <= 0 || maxBytes <= 0) {
      throw new IllegalArgumentException("Batch limits must be positive");
    }
    this.rowType = rowType;
    this.rows = rows;
    this.maxRows = maxRows;
    this.maxBytes = maxBytes;
  }

  /** Creates a reader over an iterator of rows, with the default batch limits. */
  public static RowsToArrow fromIterator(
      BufferAllocator allocator, RelDataType rowType, Iterator<Object[]> rows) {
    return new RowsToArrow(allocator, rowType, Linq4j.iterableEnumerator(() -> rows));
  }

  /**
   * Creates a reader over the raw result of a Calcite Enumerable plan: each element is an {@code
   * Object[]} or a {@code List} ({@link #asRow}), except that a row type of one field yields the
   * bare value (which may itself be an {@code Object[]} for a ROW column), as Calcite's generated
   * code does.
   */
  public static RowsToArrow fromCalcite(
      BufferAllocator allocator, RelDataType rowType, Enumerator<?> results) {
    @SuppressWarnings("unchecked")
    Enumerator<Object> raw = (Enumerator<Object>) results;
    Enumerator<Object[]> rows =
        rowType.getFieldCount() == 1
            ? Linq4j.transform(raw, v -> new Object[] {v})
            : Linq4j.transform(raw, RowsToArrow::asRow);
    return new RowsToArrow(allocator, rowType, rows);
  }

  /**
   * A row of several fields as Calcite's generated code yields it: an {@code Object[]}, or a {@code
   * List} when the plan's root formats its rows as lists (an {@code UNNEST}, {@code
   * EnumerableUncollect}, whatever the format asked for).
   */
  public static Object[] asRow(Object row) {
    return row instanceof Object[] array ? array : ((List<?>) row).toArray();
  }

  /** A reader over a small list of rows, for example the rows of a DESCRIBE or SHOW result. */
  public static ArrowReader fromRows(
      BufferAllocator allocator, RelDataType rowType, List<Object[]> rows) {
    return new RowsToArrow(allocator, rowType, Linq4j.enumerator(rows));
  }

  /** The row type this reader converts. */
  public RelDataType rowType() {
    return rowType;
  }

  @Override
  protected Schema readSchema() {
    return ArrowTypes.toSchema(rowType);
  }

  @Override
  public boolean loadNextBatch() throws IOException {
    prepareLoadNextBatch();
    if (exhausted) {
      return false;
    }
    VectorSchemaRoot root = getVectorSchemaRoot();
    List<FieldVector> vectors = root.getFieldVectors();
    // Release our references to the previous batch (a consumer may still hold its own) and
    // write into new buffers.
    for (FieldVector v : vectors) {
      v.clear();
      v.allocateNew();
    }
    if (writers.length != vectors.size()) {
      writers = new ValueWriter[vectors.size()];
      for (int k = 0; k < writers.length; k++) {
        writers[k] = ValueWriters.of(vectors.get(k));
      }
    }
    int n = 0;
    long bytes = 0;
    while (n < maxRows && bytes < maxBytes) {
      if (!rows.moveNext()) {
        exhausted = true;
        break;
      }
      Object[] row = rows.current();
      if (row.length != writers.length) {
        throw new IllegalArgumentException(
            "Row has "
                + row.length
                + " values, expected "
                + writers.length
                + " for "
                + rowType.getFullTypeString());
      }
      for (int k = 0; k < writers.length; k++) {
        bytes += writers[k].write(n, row[k]);
      }
      n++;
    }
    root.setRowCount(n);
    bytesWritten += bytes;
    // An empty final batch is not reported; the stream simply ends.
    return n > 0;
  }

  @Override
  public long bytesRead() {
    return bytesWritten;
  }

  @Override
  protected void closeReadSource() {
    rows.close();
  }
}

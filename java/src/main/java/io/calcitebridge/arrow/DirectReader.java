package io.calcitebridge.arrow;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A source's Arrow stream passed on as a query's result: some of its columns, renamed, with every
 * buffer handed over rather than copied. Used when the source absorbed the whole plan.
 */
public final class DirectReader extends ArrowReader {
  private final ArrowReader in;
  private final int[] columns;
  private final Schema schema;

  /** Reads {@code columns} of {@code in}, named {@code names}. */
  public DirectReader(BufferAllocator allocator, ArrowReader in, int[] columns, List<String> names)
      throws IOException {
    super(allocator);
    this.in = in;
    this.columns = columns.clone();
    List<Field> fields = new ArrayList<>();
    List<Field> source = in.getVectorSchemaRoot().getSchema().getFields();
    for (int i = 0; i < columns.length; i++) {
      Field f = source.get(columns[i]);
      fields.add(new Field(names.get(i), f.getFieldType(), f.getChildren()));
    }
    this.schema = new Schema(fields);
  }

  @Override
  public boolean loadNextBatch() throws IOException {
    if (!in.loadNextBatch()) {
      return false;
    }
    VectorSchemaRoot from = in.getVectorSchemaRoot();
    VectorSchemaRoot to = getVectorSchemaRoot();
    int rows = from.getRowCount();
    for (int i = 0; i < columns.length; i++) {
      FieldVector source = from.getVector(columns[i]);
      if (usedAgain(i)) {
        // A column the result names again later: share its buffers and keep them in the source,
        // since a transfer would leave the later copy empty (all NULL).
        to.getVector(i).clear();
        if (rows > 0) {
          source.makeTransferPair(to.getVector(i)).splitAndTransfer(0, rows);
        }
      } else {
        source.makeTransferPair(to.getVector(i)).transfer();
      }
    }
    to.setRowCount(rows);
    return true;
  }

  /** Whether a column after the {@code i}th is the same column of the source. */
  private boolean usedAgain(int i) {
    for (int j = i + 1; j < columns.length; j++) {
      if (columns[j] == columns[i]) {
        return true;
      }
    }
    return false;
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
  protected Schema readSchema() {
    return schema;
  }
}

package io.calcitebridge.api;

import io.calcitebridge.api.source.ArrowRows;
import io.calcitebridge.api.source.SupportsReadingMetadata;
import io.calcitebridge.api.source.SupportsWriting;
import io.calcitebridge.api.source.SupportsWritingMetadata;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A writable source with metadata: {@code origin} (STRING, written by INSERT) and {@code offset}
 * (BIGINT, the row's position, read-only). A row stores its origin after its physical values. An
 * INSERT with a NULL first column fails, and appends nothing.
 */
final class StoreSource extends RowSource
    implements SupportsWriting, SupportsReadingMetadata, SupportsWritingMetadata {
  final List<List<String>> writtenKeys = Collections.synchronizedList(new ArrayList<>());

  StoreSource(Schema schema) {
    super(schema, List.of());
  }

  @Override
  public Map<String, String> listReadableMetadata() {
    Map<String, String> keys = new LinkedHashMap<>();
    keys.put("origin", "STRING");
    keys.put("offset", "BIGINT");
    return keys;
  }

  @Override
  public void applyWritableMetadata(List<String> keys) {
    writtenKeys.add(keys);
  }

  @Override
  public synchronized void write(ArrowReader batches) throws IOException {
    List<Object[]> added = new ArrayList<>(rows);
    int physical = schema.getFields().size();
    for (Object[] row : ArrowRows.read(batches)) {
      if (row[0] == null) {
        throw new IOException("a row without a key");
      }
      Object[] stored = new Object[physical + 1];
      System.arraycopy(row, 0, stored, 0, row.length);
      added.add(stored);
    }
    rows = List.copyOf(added); // all rows at once, or none
  }

  @Override
  Field metadataField(String key) {
    return key.equals("origin")
        ? Field.nullable(key, ArrowType.Utf8.INSTANCE)
        : Field.nullable(key, new ArrowType.Int(64, true));
  }

  @Override
  Object metadataValue(String key, Object[] row) {
    return key.equals("origin") ? row[schema.getFields().size()] : (long) rows.indexOf(row);
  }
}

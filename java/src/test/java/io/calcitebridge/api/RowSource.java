package io.calcitebridge.api;

import io.calcitebridge.api.source.ArrowRows;
import io.calcitebridge.api.source.ScanRequest;
import io.calcitebridge.api.source.TableSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A Java source over rows held in memory, without abilities: it answers a scan with exactly the
 * columns {@link ScanRequest#outputNames} lists and the rows that pass the request's filters.
 * Subclasses add abilities; every request is recorded.
 */
class RowSource implements TableSource {
  final Schema schema;
  volatile List<Object[]> rows;
  final List<ScanRequest> requests = Collections.synchronizedList(new ArrayList<>());

  RowSource(Schema schema, List<Object[]> rows) {
    this.schema = schema;
    this.rows = List.copyOf(rows);
  }

  @Override
  public Schema schema() {
    return schema;
  }

  @Override
  public ArrowReader scan(ScanRequest request, BufferAllocator allocator) {
    requests.add(request);
    List<Field> fields = new ArrayList<>();
    List<Function<Object[], Object>> getters = new ArrayList<>();
    if (request.projection().isPresent()) {
      for (List<Integer> path : request.projection().get()) {
        column(path, fields, getters);
      }
    } else {
      List<String> names =
          request.columns().orElse(schema.getFields().stream().map(Field::getName).toList());
      for (String name : names) {
        int at = indexOf(name);
        if (at < 0) {
          fields.add(extraField(name));
          getters.add(row -> extraValue(name, row));
        } else {
          column(List.of(at), fields, getters);
        }
      }
    }
    for (String key : request.metadataKeys()) {
      fields.add(metadataField(key));
      getters.add(row -> metadataValue(key, row));
    }
    List<Object[]> out = new ArrayList<>();
    for (Object[] row : rows) {
      if (Filters.passes(request.filters(), schema, row)) {
        Object[] o = new Object[getters.size()];
        for (int i = 0; i < o.length; i++) {
          o[i] = getters.get(i).apply(row);
        }
        out.add(o);
      }
    }
    return ArrowRows.reader(allocator, new Schema(fields), out);
  }

  int indexOf(String name) {
    return schema.getFields().stream().map(Field::getName).toList().indexOf(name);
  }

  /** The column at index path {@code path}, named by its dotted path. */
  private void column(
      List<Integer> path, List<Field> fields, List<Function<Object[], Object>> get) {
    Field f = schema.getFields().get(path.get(0));
    StringBuilder name = new StringBuilder(f.getName());
    for (int i = 1; i < path.size(); i++) {
      f = f.getChildren().get(path.get(i));
      name.append('.').append(f.getName());
    }
    fields.add(new Field(name.toString(), f.getFieldType(), f.getChildren()));
    get.add(
        row -> {
          Object v = row[path.get(0)];
          for (int i = 1; i < path.size() && v != null; i++) {
            v = ((Object[]) v)[path.get(i)];
          }
          return v;
        });
  }

  Field extraField(String name) {
    throw new IllegalStateException("no column " + name);
  }

  Object extraValue(String name, Object[] row) {
    throw new IllegalStateException("no column " + name);
  }

  Field metadataField(String key) {
    throw new IllegalStateException("no metadata " + key);
  }

  Object metadataValue(String key, Object[] row) {
    throw new IllegalStateException("no metadata " + key);
  }
}

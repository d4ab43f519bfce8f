package io.calcitebridge.connector;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.calcitebridge.arrow.ArrowStreams;
import io.calcitebridge.arrow.ArrowToRows;
import io.calcitebridge.arrow.RowsToArrow;
import io.calcitebridge.catalog.ArrowStorage;
import io.calcitebridge.catalog.ColumnDef;
import io.calcitebridge.catalog.ColumnKind;
import io.calcitebridge.catalog.FilterableStorage;
import io.calcitebridge.catalog.TableDef;
import io.calcitebridge.catalog.TableStorage;
import io.calcitebridge.errors.Errors;
import io.calcitebridge.errors.SourceException;
import io.calcitebridge.expr.Expression;
import io.calcitebridge.types.BridgeTypeFactory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The storage of a table backed by a {@link PythonSource}: a scan asks Python for an Arrow stream
 * of the table's columns (physical ones by name, metadata ones by key), honouring the filters the
 * source accepted; the rows are read in place through the C Data Interface.
 */
public final class SourceStorage implements ArrowStorage, FilterableStorage {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final PythonSource source;
  private final BufferAllocator allocator;
  private volatile TableDef def;

  public SourceStorage(PythonSource source, BufferAllocator allocator, TableDef def) {
    this.source = source;
    this.allocator = allocator;
    this.def = def;
  }

  /** Replaces the definition (the DDL's, once the catalog has built it). */
  public void setDef(TableDef def) {
    this.def = def;
  }

  @Override
  public TableStorage forDef(TableDef newDef) {
    return new SourceStorage(source, allocator, newDef);
  }

  @Override
  public boolean discovers() {
    return source.supportsDynamicColumns();
  }

  @Override
  public @Nullable String discover(String name) {
    String answer = source.discoverColumn(name);
    if (answer != null && answer.startsWith("{")) {
      check(answer);
    }
    return answer;
  }

  public PythonSource source() {
    return source;
  }

  @Override
  public Enumerable<Object[]> scan() {
    return scan(List.of());
  }

  @Override
  public Enumerable<Object[]> scan(List<Expression> filters) {
    return scan(filters, null);
  }

  /** Asks the source for the projected columns (and metadata keys) only. */
  @Override
  public Enumerable<Object[]> scan(List<Expression> filters, int @Nullable [] projection) {
    return scan(filters, projection, null);
  }

  @Override
  public Enumerable<Object[]> scan(
      List<Expression> filters, int @Nullable [] projection, @Nullable Integer limit) {
    return new AbstractEnumerable<>() {
      @Override
      public Enumerator<Object[]> enumerator() {
        Opened opened = open(filters, projection, limit);
        return new SourceEnumerator(ArrowToRows.of(opened.reader(), opened.columns()).enumerator());
      }
    };
  }

  @Override
  public String sourceName() {
    return source.name();
  }

  /** Whether the source takes index paths into ROW columns in {@code request.projection}. */
  @Override
  public boolean supportsNestedProjection() {
    return source.supportsNestedProjection();
  }

  /**
   * Runs the source's scan for index paths into the scanned columns (a path of one index is a whole
   * column; a longer one a field inside ROW columns); the caller closes the reader.
   */
  @Override
  public Opened openPaths(
      List<Expression> filters, List<List<Integer>> paths, @Nullable Integer limit) {
    List<ColumnDef> scanned = def.scannedColumns();
    List<ColumnDef> physical =
        def.columns().stream().filter(c -> c.kind() == ColumnKind.PHYSICAL).toList();
    List<String> names = new ArrayList<>();
    LinkedHashSet<String> columns = new LinkedHashSet<>();
    LinkedHashSet<String> keys = new LinkedHashSet<>();
    List<List<Integer>> sourcePaths = new ArrayList<>();
    for (List<Integer> path : paths) {
      ColumnDef c = scanned.get(path.get(0));
      if (c.isMetadata()) {
        keys.add(c.metadataKey());
        names.add(c.metadataKey());
        continue;
      }
      StringBuilder name = new StringBuilder(c.name());
      var type = c.type();
      for (int i = 1; i < path.size(); i++) {
        var field = type.getFieldList().get(path.get(i));
        name.append('.').append(field.getName());
        type = field.getType();
      }
      columns.add(c.name());
      names.add(name.toString());
      List<Integer> sourcePath = new ArrayList<>(path);
      sourcePath.set(0, physical.indexOf(c));
      sourcePaths.add(sourcePath);
    }
    Map<String, Object> r = new LinkedHashMap<>();
    r.put("columns", new ArrayList<>(columns));
    r.put("projection", sourcePaths);
    r.put("filters", filters.stream().map(Expression::toJson).toList());
    r.put("metadata_keys", new ArrayList<>(keys));
    r.put("limit", limit);
    ArrowReader reader = open(write(r));
    try {
      List<String> returned =
          reader.getVectorSchemaRoot().getSchema().getFields().stream()
              .map(f -> f.getName())
              .toList();
      int[] at = new int[names.size()];
      for (int i = 0; i < at.length; i++) {
        at[i] = returned.indexOf(names.get(i));
        if (at[i] < 0) {
          throw new SourceException(
              "Source '"
                  + source.name()
                  + "' returned no column '"
                  + names.get(i)
                  + "'; it returned "
                  + returned,
              true,
              "");
        }
      }
      return new Opened(reader, at);
    } catch (RuntimeException | java.io.IOException e) {
      closeQuietly(reader);
      throw e instanceof RuntimeException ? (RuntimeException) e : new IllegalStateException(e);
    }
  }

  /** Rows for index paths (see {@link #openPaths}). */
  @Override
  public Enumerable<Object[]> scanPaths(
      List<Expression> filters, List<List<Integer>> paths, @Nullable Integer limit) {
    return new AbstractEnumerable<>() {
      @Override
      public Enumerator<Object[]> enumerator() {
        Opened opened = openPaths(filters, paths, limit);
        return new SourceEnumerator(ArrowToRows.of(opened.reader(), opened.columns()).enumerator());
      }
    };
  }

  /** Runs the source's scan; the caller closes the reader. */
  @Override
  public Opened open(
      List<Expression> filters, int @Nullable [] projection, @Nullable Integer limit) {
    final TableDef d = def;
    final List<ColumnDef> wanted = new ArrayList<>();
    List<ColumnDef> scanned = d.scannedColumns();
    if (projection == null) {
      wanted.addAll(scanned);
    } else {
      for (int i : projection) {
        wanted.add(scanned.get(i));
      }
    }
    ArrowReader reader = open(request(filters, wanted, projection, limit));
    try {
      return new Opened(reader, projection(wanted, reader.getVectorSchemaRoot().getSchema()));
    } catch (RuntimeException | java.io.IOException e) {
      closeQuietly(reader);
      throw e instanceof RuntimeException ? (RuntimeException) e : new IllegalStateException(e);
    }
  }

  private String request(
      List<Expression> filters,
      List<ColumnDef> wanted,
      int @Nullable [] projection,
      @Nullable Integer limit) {
    Map<String, Object> r = new LinkedHashMap<>();
    List<String> columns = new ArrayList<>();
    LinkedHashSet<String> keys = new LinkedHashSet<>();
    for (ColumnDef c : wanted) {
      if (c.isMetadata()) {
        keys.add(c.metadataKey());
      } else {
        columns.add(c.name());
      }
    }
    r.put("columns", columns);
    // Index paths into the source's schema: its physical columns, in declaration order.
    List<ColumnDef> physical =
        def.columns().stream().filter(c -> c.kind() == ColumnKind.PHYSICAL).toList();
    List<List<Integer>> paths = new ArrayList<>();
    for (ColumnDef c : wanted) {
      if (c.kind() == ColumnKind.PHYSICAL) {
        paths.add(List.of(physical.indexOf(c)));
      }
    }
    boolean discovered = wanted.stream().anyMatch(c -> c.kind() == ColumnKind.DYNAMIC);
    r.put("projection", projection == null || discovered ? null : paths);
    r.put("filters", filters.stream().map(Expression::toJson).toList());
    r.put("metadata_keys", new ArrayList<>(keys));
    r.put("limit", limit);
    return write(r);
  }

  private ArrowReader open(String request) {
    ArrowArrayStream struct = ArrowArrayStream.allocateNew(allocator);
    try {
      check(source.scan(request, struct));
      return Data.importArrayStream(allocator, struct);
    } finally {
      struct.close();
    }
  }

  private int[] projection(List<ColumnDef> scanned, Schema schema) {
    List<String> names = schema.getFields().stream().map(f -> f.getName()).toList();
    int[] projection = new int[scanned.size()];
    for (int i = 0; i < projection.length; i++) {
      ColumnDef c = scanned.get(i);
      String wanted = c.isMetadata() ? c.metadataKey() : c.name();
      projection[i] = names.indexOf(wanted);
      if (projection[i] < 0) {
        throw new SourceException(
            "Source '"
                + source.name()
                + "' returned no column '"
                + wanted
                + "'; it returned "
                + names,
            true,
            "");
      }
    }
    return projection;
  }

  @Override
  public boolean supportsNestedFilters() {
    return source.supportsNestedFilters();
  }

  /** The metadata keys the source can read, with their types. */
  public Map<String, String> readableMetadata() {
    JsonNode node = check(source.readableMetadata());
    Map<String, String> out = new LinkedHashMap<>();
    if (node != null && node.isObject()) {
      node.fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().asText()));
    }
    return out;
  }

  /** Whether the source takes filters at all. */
  @Override
  public boolean supportsFilterPushDown() {
    return source.supportsFilterPushDown();
  }

  @Override
  public Decision applyFilters(List<Expression> filters) {
    String answer = source.applyFilters(write(filters.stream().map(Expression::toJson).toList()));
    JsonNode node = check(answer);
    return new Decision(indices(node.get("accepted")), indices(node.get("remaining")));
  }

  /** Writes {@code rows} (in the order of the writable columns) through the source. */
  @Override
  public long insert(List<Object[]> rows) {
    if (!source.supportsWriting()) {
      throw new UnsupportedOperationException(
          "Source '" + source.name() + "' is read-only: it has no write()");
    }
    var tf = BridgeTypeFactory.INSTANCE;
    var builder = tf.builder();
    List<String> keys = new ArrayList<>();
    for (ColumnDef c : def.writableColumns()) {
      builder.add(c.isMetadata() ? c.metadataKey() : c.name(), c.type());
      if (c.isMetadata()) {
        keys.add(c.metadataKey());
      }
    }
    try (var stream =
        ArrowStreams.exportStream(
            allocator, RowsToArrow.fromRows(allocator, builder.build(), rows))) {
      check(source.write(stream.address(), write(keys)));
    }
    return rows.size();
  }

  @Override
  public boolean isWritable() {
    return source.supportsWriting();
  }

  private static List<Integer> indices(JsonNode array) {
    List<Integer> out = new ArrayList<>();
    if (array != null) {
      array.forEach(n -> out.add(n.asInt()));
    }
    return out;
  }

  /** Parses a Python answer, throwing the error it carries. */
  public static JsonNode check(String answer) {
    if (answer == null || answer.isEmpty()) {
      return JSON.nullNode();
    }
    JsonNode node;
    try {
      node = JSON.readTree(answer);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("Bad answer from a Python source: " + answer, e);
    }
    JsonNode error = node.get("error");
    if (error != null && !error.isNull()) {
      throw new SourceException(
          error.path("message").asText(),
          "SOURCE_CONTRACT".equals(error.path("kind").asText()),
          error.path("traceback").asText());
    }
    return node;
  }

  private static String write(Object value) {
    try {
      return JSON.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void closeQuietly(AutoCloseable c) {
    try {
      c.close();
    } catch (Exception ignored) {
      // the first failure is the one to report
    }
  }

  /** Reports failures while reading the source's stream as source errors. */
  private final class SourceEnumerator implements Enumerator<Object[]> {
    private final Enumerator<Object[]> inner;

    SourceEnumerator(Enumerator<Object[]> inner) {
      this.inner = inner;
    }

    @Override
    public Object[] current() {
      return inner.current();
    }

    @Override
    public boolean moveNext() {
      try {
        return inner.moveNext();
      } catch (RuntimeException e) {
        throw Errors.sourceReadFailure(source.name(), e);
      }
    }

    @Override
    public void reset() {
      throw new UnsupportedOperationException();
    }

    @Override
    public void close() {
      inner.close();
    }
  }
}

package io.calcitebridge.connector;

import com.google.common.base.Supplier;
import com.google.common.base.Suppliers;
import io.calcitebridge.arrow.ArrowStreams;
import io.calcitebridge.arrow.RowsToArrow;
import io.calcitebridge.catalog.ArrowStorage;
import io.calcitebridge.catalog.ColumnDef;
import io.calcitebridge.catalog.FilterableStorage;
import io.calcitebridge.catalog.RowLevelStorage;
import io.calcitebridge.catalog.TableDef;
import io.calcitebridge.catalog.TableStorage;
import io.calcitebridge.errors.ErrorKind;
import io.calcitebridge.errors.SourceException;
import io.calcitebridge.expr.Expression;
import io.calcitebridge.json.JsonValues;
import io.calcitebridge.types.BridgeTypeFactory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.calcite.linq4j.Enumerable;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The storage of a table backed by a {@link PythonSource}: a scan asks Python for an Arrow stream
 * of the table's columns (physical ones by name, metadata ones by key), honouring the filters the
 * source accepted; the rows are read in place through the C Data Interface.
 */
public final class SourceStorage implements ArrowStorage, FilterableStorage, RowLevelStorage {
  private final PythonSource source;
  private final BufferAllocator allocator;
  private volatile TableDef def;
  // The source's answers that cannot change, each asked of Python once per table.
  private final Supplier<String> name;
  private final Supplier<Boolean> readsInPlace;
  private final Supplier<Boolean> answersByShape;

  public SourceStorage(PythonSource source, BufferAllocator allocator, TableDef def) {
    this.source = source;
    this.allocator = allocator;
    this.def = def;
    this.name = Suppliers.memoize(source::name);
    this.readsInPlace = Suppliers.memoize(source::readsInPlace);
    this.answersByShape = Suppliers.memoize(source::answersByShape);
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
    return new SourceRows(source, () -> open(filters, projection, limit));
  }

  @Override
  public String sourceName() {
    return name.get();
  }

  /** Whether the source takes index paths into ROW columns in {@code request.projection}. */
  @Override
  public boolean supportsNestedProjection() {
    return source.supportsNestedProjection();
  }

  @Override
  public boolean supportsAggregatePushDown() {
    return source.supportsAggregatePushDown();
  }

  /**
   * Runs the source's scan for index paths into the scanned columns (a path of one index is a whole
   * column; a longer one a field inside ROW columns); the caller closes the reader.
   */
  @Override
  public Opened openPaths(
      List<Expression> filters, List<List<Integer>> paths, @Nullable Integer limit) {
    ScanRequest request = pathsRequest(paths);
    return open(request, request.body(filters, true, limit));
  }

  private ScanRequest pathsRequest(List<List<Integer>> paths) {
    List<ColumnDef> scanned = def.scannedColumns();
    ScanRequest request = new ScanRequest(def);
    for (List<Integer> path : paths) {
      request.field(scanned.get(path.get(0)), path.subList(1, path.size()));
    }
    return request;
  }

  /** Rows for index paths (see {@link #openPaths}). */
  @Override
  public Enumerable<Object[]> scanPaths(
      List<Expression> filters, List<List<Integer>> paths, @Nullable Integer limit) {
    return new SourceRows(source, () -> openPaths(filters, paths, limit));
  }

  /** Runs the source's scan; the caller closes the reader. */
  @Override
  public Opened open(
      List<Expression> filters, int @Nullable [] projection, @Nullable Integer limit) {
    ScanRequest request = columnsRequest(projection);
    return open(request, request.body(filters, projection != null, limit));
  }

  private ScanRequest columnsRequest(int @Nullable [] projection) {
    List<ColumnDef> scanned = def.scannedColumns();
    ScanRequest request = new ScanRequest(def);
    if (projection == null) {
      scanned.forEach(request::column);
    } else {
      for (int i : projection) {
        request.column(scanned.get(i));
      }
    }
    return request;
  }

  /**
   * A scan for the process that hosts the source to run itself: the source, the request to send it
   * (JSON, as {@link #open} sends it) and the name of the stream column each scanned value is read
   * from, in order.
   */
  public record Prepared(PythonSource source, String request, List<String> columns) {}

  /** The scan {@link #open} or {@link #openPaths} (when {@code paths} is not null) would run. */
  public Prepared prepare(
      List<Expression> filters,
      int @Nullable [] projection,
      @Nullable List<List<Integer>> paths,
      @Nullable Integer limit) {
    ScanRequest request = paths != null ? pathsRequest(paths) : columnsRequest(projection);
    Map<String, Object> body = request.body(filters, paths != null || projection != null, limit);
    return new Prepared(source, write(body), request.names());
  }

  /** Sends {@code body} to the source and places the request's values in the returned stream. */
  private Opened open(ScanRequest request, Map<String, Object> body) {
    ArrowReader reader = open(write(body));
    try {
      return new Opened(
          reader, request.positions(reader.getVectorSchemaRoot().getSchema(), sourceName()));
    } catch (RuntimeException | java.io.IOException e) {
      closeQuietly(reader);
      throw e instanceof RuntimeException ? (RuntimeException) e : new IllegalStateException(e);
    }
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

  @Override
  public boolean supportsNestedFilters() {
    return source.supportsNestedFilters();
  }

  /** The metadata keys the source can read, with their types. */
  public Map<String, String> readableMetadata() {
    Object node = check(source.readableMetadata());
    Map<String, String> out = new LinkedHashMap<>();
    if (node instanceof Map<?, ?> keys) {
      keys.forEach((k, v) -> out.put(String.valueOf(k), JsonValues.text(v)));
    }
    return out;
  }

  /** Whether a backend of the source's process reads its table in place (asked once). */
  public boolean readsInPlace() {
    return readsInPlace.get();
  }

  /** Whether the source takes filters at all. */
  @Override
  public boolean supportsFilterPushDown() {
    return source.supportsFilterPushDown();
  }

  /**
   * Whether the source's answer to an offer depends only on its shape (asked once): then an offer
   * of a shape answered before, with literals {@link OfferShapes} vouches for, is answered here.
   */
  private boolean answersByShape() {
    return answersByShape.get();
  }

  private final OfferShapes shapes = new OfferShapes();

  /**
   * The source's answer to {@code filters}; for a source that {@linkplain #answersByShape answers
   * by shape}, the answer kept for their shape when there is one (no call into Python).
   */
  @Override
  public Decision applyFilters(List<Expression> filters) {
    boolean byShape = answersByShape();
    Decision known = byShape ? shapes.known(filters) : null;
    if (known != null) {
      return known;
    }
    Decision d = offer(filters);
    if (byShape) {
      shapes.keep(filters, d);
    }
    return d;
  }

  private Decision offer(List<Expression> filters) {
    long t = io.calcitebridge.plan.PhaseTimes.start();
    String json = write(filters.stream().map(Expression::toJson).toList());
    io.calcitebridge.plan.PhaseTimes.end(
        "on the worker/heuristic/push into scans/filters to JSON", t);
    t = io.calcitebridge.plan.PhaseTimes.start();
    String answer = source.applyFilters(json);
    io.calcitebridge.plan.PhaseTimes.end(
        "on the worker/heuristic/push into scans/Python apply_filters", t);
    t = io.calcitebridge.plan.PhaseTimes.start();
    Map<?, ?> node = check(answer) instanceof Map<?, ?> m ? m : Map.of();
    Decision d = new Decision(indices(node.get("accepted")), indices(node.get("remaining")));
    io.calcitebridge.plan.PhaseTimes.end(
        "on the worker/heuristic/push into scans/answer from JSON", t);
    return d;
  }

  /** Writes {@code rows} (in the order of the writable columns) through the source. */
  @Override
  public long insert(List<Object[]> rows) {
    if (!source.supportsWriting()) {
      throw new UnsupportedOperationException(
          "Source '" + source.name() + "' is read-only: it has no write()");
    }
    send(rows, source::write);
    return rows.size();
  }

  @Override
  public boolean supportsRowLevelUpdate() {
    return source.supportsRowLevelUpdate();
  }

  @Override
  public boolean supportsRowLevelDelete() {
    return source.supportsRowLevelDelete();
  }

  @Override
  public boolean supportsOverwrite() {
    return source.supportsOverwrite();
  }

  /** Hands the rows not {@code deleted} to the source's {@code overwrite}. */
  @Override
  public void overwrite(List<Object[]> rows, java.util.BitSet deleted) {
    List<Object[]> kept = new ArrayList<>(rows.size() - deleted.cardinality());
    for (int r = 0; r < rows.size(); r++) {
      if (!deleted.get(r)) {
        kept.add(rows.get(r));
      }
    }
    send(kept, source::overwrite);
  }

  /** Exports {@code rows} (in the order of the writable columns) as a stream to {@code call}. */
  private void send(List<Object[]> rows, java.util.function.BiFunction<Long, String, String> call) {
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
      check(call.apply(stream.address(), write(keys)));
    }
  }

  @Override
  public boolean isWritable() {
    return source.supportsWriting();
  }

  /** The integers of a JSON array of indices (none when it is not an array). */
  private static List<Integer> indices(@Nullable Object array) {
    List<Integer> out = new ArrayList<>();
    if (array instanceof List<?> items) {
      for (Object n : items) {
        out.add(n instanceof Number number ? number.intValue() : 0);
      }
    }
    return out;
  }

  /**
   * Parses a Python answer (null for none), throwing the error it carries: its JSON value as {@link
   * JsonValues} reads it.
   */
  public static @Nullable Object check(String answer) {
    if (answer == null || answer.isEmpty()) {
      return null;
    }
    Object node;
    try {
      node = JsonValues.parse(answer);
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException("Bad answer from a Python source: " + answer, e);
    }
    if (node instanceof Map<?, ?> fields && fields.get("error") != null) {
      Map<?, ?> error =
          fields.get("error") instanceof Map<?, ?> e ? e : Map.of("message", fields.get("error"));
      ErrorKind errorKind =
          switch (JsonValues.text(error.get("kind"))) {
            case "ACCESS" -> ErrorKind.ACCESS;
            case "SOURCE_CONTRACT" -> ErrorKind.SOURCE_CONTRACT;
            case "CONFIG" -> ErrorKind.CONFIG;
            default -> ErrorKind.SOURCE;
          };
      throw new SourceException(
          JsonValues.text(error.get("message")),
          errorKind,
          JsonValues.text(error.get("traceback")));
    }
    return node;
  }

  private static String write(Object value) {
    return JsonValues.write(value);
  }

  private static void closeQuietly(AutoCloseable c) {
    try {
      c.close();
    } catch (Exception ignored) {
      // the first failure is the one to report
    }
  }
}

package io.calcitebridge.javasource;

import io.calcitebridge.api.source.FilterPushDownResult;
import io.calcitebridge.api.source.ScanRequest;
import io.calcitebridge.api.source.SupportsAggregatePushDown;
import io.calcitebridge.api.source.SupportsDynamicColumns;
import io.calcitebridge.api.source.SupportsFilterPushDown;
import io.calcitebridge.api.source.SupportsProjectionPushDown;
import io.calcitebridge.api.source.SupportsReadingMetadata;
import io.calcitebridge.api.source.SupportsRowLevelDelete;
import io.calcitebridge.api.source.SupportsRowLevelUpdate;
import io.calcitebridge.api.source.SupportsWriting;
import io.calcitebridge.api.source.SupportsWritingMetadata;
import io.calcitebridge.api.source.TableSource;
import io.calcitebridge.arrow.GuardedReader;
import io.calcitebridge.connector.PythonSource;
import io.calcitebridge.errors.Errors;
import io.calcitebridge.errors.SourceException;
import io.calcitebridge.expr.Expression;
import io.calcitebridge.json.JsonValues;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Supplier;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.ArrowSchema;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A Java {@link TableSource} as the planner's {@link PythonSource}: requests and filters arrive as
 * JSON and are decoded here, Arrow data moves through C structs inside the JVM (no copy), and every
 * failure of the source returns as the error object {@link PythonSource} describes, kind {@code
 * SOURCE} or, for a broken contract, {@code SOURCE_CONTRACT}.
 */
public final class JavaSourceAdapter implements PythonSource {

  private final String name;
  private final TableSource source;
  private final BufferAllocator allocator;

  /** Adapts {@code source}, registered as {@code name}; its batches use {@code allocator}. */
  public JavaSourceAdapter(String name, TableSource source, BufferAllocator allocator) {
    this.name = name;
    this.source = source;
    this.allocator = allocator;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public @Nullable String exportSchema(long address) {
    return guard(
        "schema()",
        () -> {
          Data.exportSchema(allocator, source.schema(), null, ArrowSchema.wrap(address));
          return null;
        });
  }

  @Override
  public boolean supportsFilterPushDown() {
    return source instanceof SupportsFilterPushDown;
  }

  @Override
  public boolean supportsNestedFilters() {
    return source instanceof SupportsFilterPushDown f
        && ask("supportsNestedFilters()", f::supportsNestedFilters);
  }

  @Override
  public String applyFilters(String filtersJson) {
    List<Expression> offered = new ArrayList<>();
    for (Object f : list(read(filtersJson))) {
      offered.add(Expression.fromJson(object(f)));
    }
    return guard(
        "applyFilters()",
        () -> {
          FilterPushDownResult result = ((SupportsFilterPushDown) source).applyFilters(offered);
          return write(FilterContract.check(name, offered, result));
        });
  }

  @Override
  public @Nullable String scan(String requestJson, ArrowArrayStream out) {
    ScanRequest request = request(requestJson);
    return guard(
        "scan()",
        () -> {
          ArrowReader reader = source.scan(request, allocator);
          if (reader == null) {
            throw new SourceException(
                "Source '" + name + "' returned no reader from scan()", true, "");
          }
          // A failure of a later batch crosses the stream typed, with the source's own message.
          Data.exportArrayStream(
              allocator,
              new GuardedReader(
                  allocator,
                  reader,
                  t ->
                      Errors.forStream(
                          new SourceException(
                              "Source '"
                                  + name
                                  + "' failed while it was read: "
                                  + (t.getMessage() == null
                                      ? t.getClass().getSimpleName()
                                      : t.getMessage()),
                              false,
                              stackTrace(t)))),
              out);
          return null;
        });
  }

  @Override
  public String readableMetadata() {
    return guard(
        "listReadableMetadata()",
        () ->
            write(
                source instanceof SupportsReadingMetadata m ? m.listReadableMetadata() : Map.of()));
  }

  @Override
  public @Nullable String write(long address, String metadataKeysJson) {
    List<String> keys = strings(read(metadataKeysJson));
    return guard(
        "write()",
        () -> {
          try (ArrowReader rows =
              Data.importArrayStream(allocator, ArrowArrayStream.wrap(address))) {
            if (!keys.isEmpty() && source instanceof SupportsWritingMetadata m) {
              m.applyWritableMetadata(keys);
            }
            ((SupportsWriting) source).write(rows);
          }
          return null;
        });
  }

  @Override
  public boolean supportsNestedProjection() {
    return source instanceof SupportsProjectionPushDown p
        && ask("supportsNestedProjection()", p::supportsNestedProjection);
  }

  @Override
  public boolean supportsAggregatePushDown() {
    return source instanceof SupportsAggregatePushDown a
        && ask("supportsAggregatePushDown()", a::supportsAggregatePushDown);
  }

  @Override
  public boolean supportsDynamicColumns() {
    return source instanceof SupportsDynamicColumns;
  }

  @Override
  public @Nullable String discoverColumn(String column) {
    return guard(
        "discoverColumn()",
        () -> {
          Optional<String> type = ((SupportsDynamicColumns) source).discoverColumn(column);
          if (type == null) {
            throw new SourceException(
                "Source '" + name + "' answered discoverColumn() with null, not an Optional",
                true,
                "");
          }
          return type.orElse(null);
        });
  }

  @Override
  public boolean supportsWriting() {
    return source instanceof SupportsWriting;
  }

  @Override
  public boolean supportsRowLevelUpdate() {
    return source instanceof SupportsRowLevelUpdate u
        && ask("supportsRowLevelUpdate()", u::supportsRowLevelUpdate);
  }

  @Override
  public boolean supportsRowLevelDelete() {
    return source instanceof SupportsRowLevelDelete d
        && ask("supportsRowLevelDelete()", d::supportsRowLevelDelete);
  }

  @Override
  public boolean supportsOverwrite() {
    return source instanceof SupportsRowLevelUpdate || source instanceof SupportsRowLevelDelete;
  }

  @Override
  public @Nullable String overwrite(long address, String metadataKeysJson) {
    List<String> keys = strings(read(metadataKeysJson));
    return guard(
        "overwrite()",
        () -> {
          try (ArrowReader rows =
              Data.importArrayStream(allocator, ArrowArrayStream.wrap(address))) {
            if (!keys.isEmpty() && source instanceof SupportsWritingMetadata m) {
              m.applyWritableMetadata(keys);
            }
            if (source instanceof SupportsRowLevelUpdate u) {
              u.overwrite(rows);
            } else {
              ((SupportsRowLevelDelete) source).overwrite(rows);
            }
          }
          return null;
        });
  }

  private ScanRequest request(String json) {
    Map<String, Object> r = object(read(json));
    List<Expression> filters = new ArrayList<>();
    for (Object f : list(r.get("filters"))) {
      filters.add(Expression.fromJson(object(f)));
    }
    List<List<Integer>> projection = null;
    if (r.get("projection") != null) {
      projection = new ArrayList<>();
      for (Object path : list(r.get("projection"))) {
        projection.add(list(path).stream().map(i -> ((Number) i).intValue()).toList());
      }
    }
    Object limit = r.get("limit");
    return new ScanRequest(
        Optional.ofNullable(r.get("columns")).map(c -> strings(c)),
        Optional.ofNullable(projection),
        filters,
        strings(r.get("metadata_keys")),
        limit == null ? OptionalLong.empty() : OptionalLong.of(((Number) limit).longValue()));
  }

  private static List<?> list(@Nullable Object value) {
    return value == null ? List.of() : (List<?>) value;
  }

  private static List<String> strings(@Nullable Object value) {
    return list(value).stream().map(String::valueOf).toList();
  }

  /** A boolean the source answers; a failure fails the statement as a source error. */
  private boolean ask(String method, Supplier<Boolean> answer) {
    try {
      return answer.get();
    } catch (RuntimeException | Error e) {
      throw new SourceException(failure(method, e), false, stackTrace(e));
    }
  }

  /** A call into the source that returns its answer, or the error object when it fails. */
  private @Nullable String guard(String method, SourceCall call) {
    try {
      return call.run();
    } catch (SourceException e) {
      return error(e.isContractViolation(), String.valueOf(e.getMessage()), e.sourceTraceback());
    } catch (Exception | LinkageError | AssertionError e) {
      return error(false, failure(method, e), stackTrace(e));
    }
  }

  private String failure(String method, Throwable e) {
    return "Source '"
        + name
        + "' failed in "
        + method
        + ": "
        + e.getClass().getSimpleName()
        + (e.getMessage() == null ? "" : ": " + e.getMessage());
  }

  private static String error(boolean contract, String message, String trace) {
    return write(
        Map.of(
            "error",
            Map.of(
                "kind",
                contract ? "SOURCE_CONTRACT" : "SOURCE",
                "message",
                message,
                "traceback",
                trace)));
  }

  private static String stackTrace(Throwable e) {
    StringWriter w = new StringWriter();
    e.printStackTrace(new PrintWriter(w));
    return w.toString();
  }

  private static @Nullable Object read(String json) {
    try {
      return JsonValues.parse(json);
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException("Bad request from the planner: " + json, e);
    }
  }

  /** A JSON object as {@link JsonValues} reads it. */
  @SuppressWarnings("unchecked")
  private static Map<String, Object> object(@Nullable Object value) {
    if (!(value instanceof Map)) {
      throw new IllegalStateException("Bad request from the planner: not an object: " + value);
    }
    return (Map<String, Object>) value;
  }

  private static String write(Object value) {
    return JsonValues.write(value);
  }

  /** A call into the source. */
  @FunctionalInterface
  private interface SourceCall {
    @Nullable String run() throws Exception;
  }
}

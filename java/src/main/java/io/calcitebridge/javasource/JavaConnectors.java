package io.calcitebridge.javasource;

import io.calcitebridge.api.source.ScanRequest;
import io.calcitebridge.api.source.SupportsReadingMetadata;
import io.calcitebridge.api.source.TableSource;
import io.calcitebridge.api.source.TableSourceFactory;
import io.calcitebridge.connector.ConnectorFactory;
import io.calcitebridge.connector.PythonSource;
import io.calcitebridge.errors.SourceException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.arrow.c.ArrowSchema;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The connectors of one environment that Java programs registered: DDL's {@code 'connector' =
 * 'name'} finds its {@link TableSourceFactory} here.
 */
public final class JavaConnectors implements ConnectorFactory {

  private final Map<String, TableSourceFactory> factories = new ConcurrentHashMap<>();
  private final BufferAllocator allocator;

  /** Connectors whose sources build their batches with {@code allocator}. */
  public JavaConnectors(BufferAllocator allocator) {
    this.allocator = allocator;
  }

  /** Registers (or replaces) the connector {@code name}. */
  public void register(String name, TableSourceFactory factory) {
    factories.put(name, factory);
  }

  @Override
  public String connectors() {
    return String.join(",", new java.util.TreeSet<>(factories.keySet()));
  }

  @Override
  public @Nullable PythonSource create(
      String connector, String table, String optionsJson, long schemaAddress) {
    TableSourceFactory factory = factories.get(connector);
    if (factory == null) {
      return null;
    }
    TableSource source;
    try {
      Map<String, String> options = options(optionsJson);
      Schema schema = Data.importSchema(allocator, ArrowSchema.wrap(schemaAddress), null);
      source = factory.create(table, Map.copyOf(options), schema);
      if (source == null) {
        throw new IllegalStateException("the factory of connector '" + connector + "' gave null");
      }
    } catch (RuntimeException e) {
      source = new Failed(connector, table, e);
    }
    return new JavaSourceAdapter(table, source, allocator);
  }

  /** Stands for a source whose creation failed; CREATE TABLE reports the failure. */
  private record Failed(String connector, String table, Exception failure)
      implements TableSource, SupportsReadingMetadata {
    @Override
    public Schema schema() {
      throw rethrow();
    }

    @Override
    public ArrowReader scan(ScanRequest request, BufferAllocator allocator) {
      throw rethrow();
    }

    @Override
    public Map<String, String> listReadableMetadata() {
      throw rethrow();
    }

    private SourceException rethrow() {
      java.io.StringWriter trace = new java.io.StringWriter();
      failure.printStackTrace(new java.io.PrintWriter(trace));
      return new SourceException(
          "Connector '"
              + connector
              + "' could not create the source of table '"
              + table
              + "': "
              + failure.getClass().getSimpleName()
              + ": "
              + failure.getMessage(),
          false,
          trace.toString());
    }
  }

  /**
   * The table's options, a JSON object of strings (a number or a boolean as its text); fails on any
   * other JSON.
   */
  private static Map<String, String> options(String json) {
    if (!(io.calcitebridge.json.JsonValues.parse(json) instanceof Map<?, ?> object)) {
      throw new IllegalStateException("The options are not a JSON object: " + json);
    }
    Map<String, String> out = new java.util.LinkedHashMap<>();
    object.forEach(
        (k, v) -> {
          if (v instanceof Map || v instanceof java.util.List) {
            throw new IllegalStateException("The option '" + k + "' is not a string: " + v);
          }
          out.put(String.valueOf(k), v == null ? null : String.valueOf(v));
        });
    return out;
  }
}

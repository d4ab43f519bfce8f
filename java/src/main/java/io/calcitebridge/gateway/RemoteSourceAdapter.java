package io.calcitebridge.gateway;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.calcitebridge.arrow.ArrowMemory;
import io.calcitebridge.connector.PythonSource;
import java.io.IOException;
import java.util.Base64;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.ArrowSchema;
import org.apache.arrow.c.Data;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A {@link RemoteSource} (a Python source in another process) as the {@link PythonSource} the
 * planner knows: IPC bytes from Python become C structs in this JVM, and back. What the source can
 * do is asked once, not at every plan.
 */
final class RemoteSourceAdapter implements PythonSource {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final RemoteSource remote;
  private final String name;
  private volatile @Nullable JsonNode abilities;

  RemoteSourceAdapter(RemoteSource remote) {
    this.remote = remote;
    this.name = remote.name();
  }

  @Override
  public String name() {
    return name;
  }

  private boolean can(String ability) {
    JsonNode known = abilities;
    if (known == null) {
      try {
        known = JSON.readTree(remote.abilities());
      } catch (JsonProcessingException e) {
        throw new IllegalStateException("Bad answer from source '" + name + "'", e);
      }
      abilities = known;
    }
    return known.path(ability).asBoolean(false);
  }

  @Override
  public @Nullable String exportSchema(long address) {
    byte[] answer = remote.schema();
    String error = Ipc.error(answer);
    if (error != null) {
      return error;
    }
    Data.exportSchema(ArrowMemory.allocator(), Ipc.schema(answer), null, ArrowSchema.wrap(address));
    return null;
  }

  @Override
  public boolean supportsFilterPushDown() {
    return can("filters");
  }

  @Override
  public boolean supportsNestedFilters() {
    return can("nested_filters");
  }

  @Override
  public String applyFilters(String filtersJson) {
    return remote.applyFilters(filtersJson);
  }

  @Override
  public @Nullable String scan(String requestJson, ArrowArrayStream out) {
    byte[] answer = remote.scan(requestJson);
    String error = Ipc.error(answer);
    if (error != null) {
      return error;
    }
    // The exported stream owns the reader: releasing the stream closes it.
    Data.exportArrayStream(ArrowMemory.allocator(), Ipc.reader(answer), out);
    return null;
  }

  @Override
  public String readableMetadata() {
    return remote.readableMetadata();
  }

  @Override
  public @Nullable String write(long address, String metadataKeysJson) {
    return remote.write(base64(address), metadataKeysJson);
  }

  @Override
  public boolean supportsNestedProjection() {
    return can("nested_projection");
  }

  @Override
  public boolean supportsAggregatePushDown() {
    return can("aggregates");
  }

  @Override
  public boolean supportsDynamicColumns() {
    return can("dynamic_columns");
  }

  @Override
  public @Nullable String discoverColumn(String column) {
    return remote.discoverColumn(column);
  }

  @Override
  public boolean supportsWriting() {
    return can("writing");
  }

  @Override
  public boolean supportsRowLevelUpdate() {
    return can("row_level_update");
  }

  @Override
  public boolean supportsRowLevelDelete() {
    return can("row_level_delete");
  }

  @Override
  public boolean supportsOverwrite() {
    return can("overwrite");
  }

  @Override
  public @Nullable String overwrite(long address, String metadataKeysJson) {
    return remote.overwrite(base64(address), metadataKeysJson);
  }

  /** The stream at {@code address} as IPC bytes in base64 (see {@link RemoteSource#write}). */
  private static String base64(long address) {
    try (ArrowReader reader =
        Data.importArrayStream(ArrowMemory.allocator(), ArrowArrayStream.wrap(address))) {
      return Base64.getEncoder().encodeToString(Ipc.of(reader));
    } catch (IOException e) {
      throw new IllegalStateException("Could not read the rows to write: " + e.getMessage(), e);
    }
  }
}

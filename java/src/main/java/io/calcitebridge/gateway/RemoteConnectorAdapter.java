package io.calcitebridge.gateway;

import io.calcitebridge.arrow.ArrowMemory;
import io.calcitebridge.connector.ConnectorFactory;
import io.calcitebridge.connector.PythonSource;
import java.util.Base64;
import org.apache.arrow.c.ArrowSchema;
import org.apache.arrow.c.Data;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A {@link RemoteConnectorFactory} in another process as the planner's {@link ConnectorFactory}.
 */
final class RemoteConnectorAdapter implements ConnectorFactory {
  private final RemoteConnectorFactory remote;
  private final String connectors;

  RemoteConnectorAdapter(RemoteConnectorFactory remote) {
    this.remote = remote;
    this.connectors = remote.connectors();
  }

  @Override
  public String connectors() {
    return connectors;
  }

  @Override
  public @Nullable PythonSource create(
      String connector, String table, String optionsJson, long schemaAddress) {
    String schema =
        Base64.getEncoder()
            .encodeToString(
                Ipc.of(
                    Data.importSchema(
                        ArrowMemory.allocator(), ArrowSchema.wrap(schemaAddress), null)));
    RemoteSource source = remote.create(connector, table, optionsJson, schema);
    return source == null ? null : new RemoteSourceAdapter(source);
  }
}

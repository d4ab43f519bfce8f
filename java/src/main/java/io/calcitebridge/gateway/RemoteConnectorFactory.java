package io.calcitebridge.gateway;

import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The connectors written in Python ({@code filesystem}, {@code python}), seen through a py4j
 * callback: the bytes counterpart of {@link io.calcitebridge.connector.ConnectorFactory}.
 */
public interface RemoteConnectorFactory {
  /** The connector names this factory knows, comma-separated. */
  String connectors();

  /**
   * The source of table {@code table}, or null for an unknown connector; {@code schema} is the IPC
   * stream (without batches) of its declared physical columns, in base64.
   */
  @Nullable RemoteSource create(String connector, String table, String optionsJson, String schema);
}

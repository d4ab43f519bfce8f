package io.calcitebridge.connector;

import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Creates the sources of connectors implemented in Python ({@code filesystem}, {@code python}), for
 * tables that DDL declares.
 */
public interface ConnectorFactory {
  /** The connector names this factory knows, comma-separated. */
  String connectors();

  /**
   * The source of table {@code table}; {@code optionsJson} holds its {@code WITH} options (and, for
   * the filesystem connector, its {@code PARTITIONED BY} columns, a list under {@code
   * __partition_keys__}) and {@code schemaAddress} an {@code ArrowSchema} of its declared physical
   * columns. Returns null for an unknown connector; a failure comes back as an {@link PythonSource}
   * whose methods report it, or as an exception.
   */
  @Nullable PythonSource create(
      String connector, String table, String optionsJson, long schemaAddress);
}

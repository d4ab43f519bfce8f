package io.calcitebridge.api.source;

import java.util.Map;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Creates the sources of a connector, for the tables that DDL declares with it: {@code CREATE TABLE
 * t (...) WITH ('connector' = 'name', ...)} once the factory is registered under {@code name} (see
 * {@link io.calcitebridge.api.BridgeEnvironment#registerConnector}).
 */
@FunctionalInterface
public interface TableSourceFactory {
  /**
   * The source of one DDL table. An exception fails the {@code CREATE TABLE} with a {@code
   * BridgeException} of kind {@code SOURCE}.
   *
   * @param table the table name
   * @param options the table's {@code WITH} options, {@code connector} included
   * @param schema the table's declared physical columns
   * @return the source serving the table
   */
  TableSource create(String table, Map<String, String> options, Schema schema);
}

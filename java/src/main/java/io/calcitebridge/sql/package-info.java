/**
 * The SQL dialect of calcite-bridge: the parser entry point ({@link
 * io.calcitebridge.sql.BridgeParser}), the conversion of type specifications ({@link
 * io.calcitebridge.sql.BridgeTypes}) and the syntax tree of the statements the dialect adds to
 * Calcite's (CREATE TABLE with physical, metadata and computed columns and dynamic columns, CREATE
 * VIEW, DROP, SHOW, SET and RESET).
 *
 * <p>Statements that Calcite already models keep Calcite's classes: {@code DESCRIBE} gives {@link
 * org.apache.calcite.sql.SqlDescribeTable}, {@code EXPLAIN} (with or without {@code PLAN FOR})
 * gives {@link org.apache.calcite.sql.SqlExplain}, and {@code INSERT} gives {@link
 * org.apache.calcite.sql.SqlInsert}.
 *
 * <p>Internal: not part of the public API (see {@link io.calcitebridge.api}); it may change without
 * notice.
 */
package io.calcitebridge.sql;

/**
 * Type specifications of the calcite-bridge dialect: {@code STRING}, {@code BYTES}, {@code
 * TIMESTAMP_LTZ(p)}, {@code ROW<...>} / {@code ROW(...)}, {@code ARRAY<T>} and {@code MAP<K, V>},
 * with NULL / NOT NULL at every nesting level.
 *
 * <p>Internal: not part of the public API (see {@link io.calcitebridge.api}); it may change without
 * notice.
 */
package io.calcitebridge.sql.type;

package io.calcitebridge.catalog;

/** The kinds of column a table can declare (DESIGN §5). */
public enum ColumnKind {
  /** Stored by the connector: {@code name type}. */
  PHYSICAL,
  /** Computed from other columns, never stored: {@code name AS expression}. */
  COMPUTED,
  /** Read from (and, unless virtual, written to) connector metadata: {@code name type METADATA}. */
  METADATA,
  /**
   * A column no DDL lists, found by field discovery for one statement: read by name from the
   * source, never expanded by {@code *}.
   */
  DYNAMIC,
  /**
   * The hidden {@code _dynamic} column of a table with dynamic columns and default storage:
   * MariaDB's dynamic-columns blob, never expanded by {@code *}.
   */
  SHADOW
}

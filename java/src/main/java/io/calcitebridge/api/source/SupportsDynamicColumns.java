package io.calcitebridge.api.source;

import java.util.Optional;

/**
 * A source that knows columns its schema does not list. When a query names a column that no table
 * in scope declares, the planner asks the tables that have dynamic columns; found in exactly one,
 * the column resolves with the type its source answered, and scans list it in {@link
 * ScanRequest#columns()} like a declared column. {@code SELECT *} shows declared columns only.
 */
public interface SupportsDynamicColumns {
  /**
   * The SQL type of column {@code name}, as DDL writes it ({@code STRING}, {@code ROW<kind
   * STRING>}), when this source has such a column.
   *
   * @param name the column name, exactly as the query spells it
   * @return its type, or empty when the source has no such column
   */
  Optional<String> discoverColumn(String name);
}

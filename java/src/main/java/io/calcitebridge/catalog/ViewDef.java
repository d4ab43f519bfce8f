package io.calcitebridge.catalog;

import java.util.List;

/**
 * A view: its query, stored with {@code *} already expanded, and its columns.
 *
 * @param name the view name
 * @param expandedSql the validated query with every column explicit
 * @param originalSql the query as the user wrote it
 * @param columns the view's columns, fixed when it was created
 */
public record ViewDef(
    String name, String expandedSql, String originalSql, List<ColumnDef> columns) {
  public ViewDef {
    columns = List.copyOf(columns);
  }
}

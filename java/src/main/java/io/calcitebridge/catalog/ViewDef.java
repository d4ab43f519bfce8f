package io.calcitebridge.catalog;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A view: its query, stored with {@code *} already expanded, and its columns.
 *
 * @param name the view name
 * @param expandedSql the validated query with every column explicit
 * @param originalSql the query as the user wrote it
 * @param columns the view's columns, fixed when it was created
 * @param timeAttributes the columns that are Flink time attributes, each with its kind ({@link
 *     #ROWTIME} or {@link #PROCTIME}): a column the query selects unchanged from a rowtime or
 *     processing-time column of a table or view
 * @param temporary whether the view was created with {@code CREATE TEMPORARY VIEW}
 * @param comment the view's {@code COMMENT}, or null
 */
public record ViewDef(
    String name,
    String expandedSql,
    String originalSql,
    List<ColumnDef> columns,
    Map<String, String> timeAttributes,
    boolean temporary,
    @Nullable String comment) {

  /** The kind of a rowtime attribute, as Flink marks its type ({@code *ROWTIME*}). */
  public static final String ROWTIME = "ROWTIME";

  /** The kind of a processing-time attribute ({@code *PROCTIME*}). */
  public static final String PROCTIME = "PROCTIME";

  public ViewDef {
    columns = List.copyOf(columns);
    timeAttributes = Collections.unmodifiableMap(new LinkedHashMap<>(timeAttributes));
  }

  /** A permanent view without time attributes or comment. */
  public ViewDef(String name, String expandedSql, String originalSql, List<ColumnDef> columns) {
    this(name, expandedSql, originalSql, columns, Map.of(), false, null);
  }

  /** This view under another name. */
  public ViewDef renamed(String to) {
    return new ViewDef(to, expandedSql, originalSql, columns, timeAttributes, temporary, comment);
  }
}

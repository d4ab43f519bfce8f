package io.calcitebridge.catalog;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * What Flink's {@code CREATE TABLE} declares beyond columns and options. All of it is metadata: a
 * primary key is never enforced, a watermark makes its column a rowtime attribute (batch queries
 * read it as the timestamp it is), and {@code PARTITIONED BY} is kept and shown.
 *
 * @param temporary whether the table was created with {@code CREATE TEMPORARY TABLE}
 * @param primaryKeyName the name of the primary key ({@code CONSTRAINT name}, else {@code
 *     PK_col1_col2}), or null without a primary key
 * @param primaryKey the primary key's columns, in key order; empty without one
 * @param watermarkColumn the rowtime column of {@code WATERMARK FOR}, or null
 * @param watermarkExpression the watermark expression as SQL text, or null
 * @param comment the table's {@code COMMENT}, or null
 * @param columnComments the {@code COMMENT} of each column that has one
 * @param partitionKeys the columns of {@code PARTITIONED BY}, in order
 */
public record FlinkSpec(
    boolean temporary,
    @Nullable String primaryKeyName,
    List<String> primaryKey,
    @Nullable String watermarkColumn,
    @Nullable String watermarkExpression,
    @Nullable String comment,
    Map<String, String> columnComments,
    List<String> partitionKeys) {

  /** Nothing beyond columns and options. */
  public static final FlinkSpec NONE =
      new FlinkSpec(false, null, List.of(), null, null, null, Map.of(), List.of());

  public FlinkSpec {
    primaryKey = List.copyOf(primaryKey);
    columnComments = Collections.unmodifiableMap(new LinkedHashMap<>(columnComments));
    partitionKeys = List.copyOf(partitionKeys);
  }

  /** Whether {@code column} is the rowtime attribute ({@code WATERMARK FOR column}). */
  public boolean isRowtime(String column) {
    return column.equals(watermarkColumn);
  }

  /** Whether the table declares a primary key. */
  public boolean hasPrimaryKey() {
    return !primaryKey.isEmpty();
  }
}

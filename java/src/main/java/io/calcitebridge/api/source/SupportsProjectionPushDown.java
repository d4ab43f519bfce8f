package io.calcitebridge.api.source;

/**
 * A source that reads fields inside ROW columns on their own.
 *
 * <p>Every source is told the top-level columns a scan reads ({@link ScanRequest#columns()}); one
 * that implements this and answers true to {@link #supportsNestedProjection()} is asked for fields
 * inside ROW columns as index paths instead ({@link ScanRequest#projection()}: {@code [[0], [1,
 * 0]]} is column 0 and field 0 of column 1), each returned as a column named by the dotted path
 * ({@code user.name}). {@code EXPLAIN} shows such a scan as {@code project=[[id, user.name]]}.
 */
public interface SupportsProjectionPushDown {
  /**
   * Whether {@link ScanRequest#projection()} may hold paths into ROW columns.
   *
   * @return false unless overridden: the projection holds top-level paths only
   */
  default boolean supportsNestedProjection() {
    return false;
  }
}

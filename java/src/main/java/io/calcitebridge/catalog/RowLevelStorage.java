package io.calcitebridge.catalog;

import java.util.BitSet;
import java.util.List;

/**
 * A {@link TableStorage} that takes {@code UPDATE} and {@code DELETE}: the Java side of Flink's
 * {@code SupportsRowLevelUpdate} and {@code SupportsRowLevelDelete}, in their {@code ALL_ROWS} and
 * {@code REMAINING_ROWS} modes. The statement computes the table's new rows and hands all of them
 * over; the storage replaces its rows with them, atomically.
 */
public interface RowLevelStorage {
  /** Whether {@code UPDATE} may rewrite the rows. */
  boolean supportsRowLevelUpdate();

  /** Whether {@code DELETE} may rewrite the rows. */
  boolean supportsRowLevelDelete();

  /**
   * Whether {@link #overwrite} can replace the rows at all ({@code INSERT OVERWRITE}): a source
   * that implements no {@code overwrite} cannot, whatever its other abilities.
   */
  default boolean supportsOverwrite() {
    return true;
  }

  /**
   * Replaces every row of the table, atomically: afterwards the table holds the rows of {@code
   * rows} (in the order of the writable columns) whose index is not in {@code deleted}, or, when
   * this throws, exactly what it held before. {@code rows} are the table's rows as the statement
   * read them, in the order it read them, with updated values where an UPDATE set them.
   */
  void overwrite(List<Object[]> rows, BitSet deleted);
}

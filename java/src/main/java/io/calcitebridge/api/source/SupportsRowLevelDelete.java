package io.calcitebridge.api.source;

import java.io.IOException;
import org.apache.arrow.vector.ipc.ArrowReader;

/**
 * A source that takes {@code DELETE}, as Flink's {@code SupportsRowLevelDelete} in its {@code
 * REMAINING_ROWS} mode: the engine reads the table, computes its new rows and hands every one of
 * them to {@link #overwrite}. A table whose source lacks this ability refuses {@code DELETE} with a
 * {@code BridgeException} of kind {@code UNSUPPORTED} naming the table and the ability.
 */
public interface SupportsRowLevelDelete {
  /**
   * Whether {@code DELETE} may rewrite this source's rows.
   *
   * @return true unless overridden
   */
  default boolean supportsRowLevelDelete() {
    return true;
  }

  /**
   * Replaces every row of the source with {@code rows}, atomically: afterwards the source holds
   * exactly these rows, or, when this throws, exactly what it held before. For a {@code DELETE}:
   * the rows it keeps.
   *
   * <p>The columns are those {@link SupportsWriting#write} receives. The engine closes {@code rows}
   * after this returns.
   *
   * @param rows the table's rows after the statement
   * @throws IOException when the rows cannot be written; the statement then fails with a {@code
   *     BridgeException} of kind {@code SOURCE}
   */
  void overwrite(ArrowReader rows) throws IOException;
}

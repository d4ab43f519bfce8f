package io.calcitebridge.api.source;

import java.io.IOException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A table whose rows a Java program provides, as Arrow record batches. This is all a source needs;
 * the {@code Supports*} interfaces of this package add optional abilities.
 *
 * <p>Calls are coarse: {@link #schema()} once when the table is registered, {@link #scan} once per
 * execution of a statement that reads the table. They may come from any thread, and from several
 * threads at once when several statements run.
 */
public interface TableSource {
  /**
   * The columns of the table. A source registered with {@code registerSource} declares its columns
   * here; a source created for a DDL table receives the declared columns and answers them back.
   *
   * @return the Arrow schema of the table's physical columns
   */
  Schema schema();

  /**
   * Reads the rows {@code request} asks for.
   *
   * <p>The reader returns, in this order, the columns {@link ScanRequest#outputNames} lists (it may
   * return more: columns are found by name), and only rows that satisfy every filter of {@link
   * ScanRequest#filters()}. The engine reads the reader on a thread of its own and closes it when
   * it is done, also when the statement fails or is cancelled.
   *
   * @param request the columns, filters, metadata keys and limit of this scan
   * @param allocator the allocator to build the batches with; it outlives the reader
   * @return the rows, as a stream of record batches
   * @throws IOException when the rows cannot be read; it reaches the caller as a {@code
   *     BridgeException} of kind {@code SOURCE}
   */
  ArrowReader scan(ScanRequest request, BufferAllocator allocator) throws IOException;
}

package io.calcitebridge.api.source;

import io.calcitebridge.arrow.ArrowToRows;
import io.calcitebridge.arrow.RowsToArrow;
import io.calcitebridge.types.ArrowTypes;
import io.calcitebridge.types.BridgeTypeFactory;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.calcite.linq4j.Enumerator;

/**
 * Converts between Arrow batches and rows of plain Java values, for sources whose data is not Arrow
 * already. A row is an {@code Object[]} with one value per column; null is SQL NULL at any level.
 *
 * <table>
 *   <caption>Java values</caption>
 *   <tr><th>SQL type</th><th>{@link #read} gives</th><th>{@link #reader} also accepts</th></tr>
 *   <tr><td>BOOLEAN</td><td>Boolean</td><td></td></tr>
 *   <tr><td>TINYINT, SMALLINT, INT, BIGINT</td><td>Byte, Short, Integer, Long</td><td>any
 *       Number</td></tr>
 *   <tr><td>FLOAT, DOUBLE</td><td>Float, Double</td><td>any Number</td></tr>
 *   <tr><td>DECIMAL(p, s)</td><td>BigDecimal</td><td>any Number</td></tr>
 *   <tr><td>STRING, VARCHAR, CHAR</td><td>String</td><td></td></tr>
 *   <tr><td>BYTES, BINARY</td><td>{@code org.apache.calcite.avatica.util.ByteString}</td>
 *       <td>byte[]</td></tr>
 *   <tr><td>DATE</td><td>Integer (days since 1970-01-01)</td><td>LocalDate</td></tr>
 *   <tr><td>TIME</td><td>Integer (milliseconds of the day)</td><td>LocalTime</td></tr>
 *   <tr><td>TIMESTAMP</td><td>Long (milliseconds since the epoch, read as UTC)</td>
 *       <td>LocalDateTime</td></tr>
 *   <tr><td>TIMESTAMP_LTZ</td><td>Long (milliseconds since the epoch)</td><td>Instant</td></tr>
 *   <tr><td>ROW</td><td>{@code Object[]} of the field values</td><td>List</td></tr>
 *   <tr><td>ARRAY</td><td>List</td><td>an array</td></tr>
 *   <tr><td>MAP</td><td>Map</td><td></td></tr>
 * </table>
 */
public final class ArrowRows {
  private ArrowRows() {}

  /**
   * A reader over {@code rows}, in batches of up to 65,536 rows, with the columns of {@code
   * schema}.
   *
   * @param allocator the allocator of the batches (the one {@link TableSource#scan} receives)
   * @param schema the columns of the rows
   * @param rows the rows, one value per column of {@code schema}
   * @return a reader the caller (or the engine, for a scan) closes
   */
  public static ArrowReader reader(
      BufferAllocator allocator, Schema schema, Iterable<Object[]> rows) {
    return RowsToArrow.fromIterator(
        allocator, ArrowTypes.toRowType(BridgeTypeFactory.INSTANCE, schema), rows.iterator());
  }

  /**
   * Reads every remaining batch of {@code reader} into rows. The reader stays open.
   *
   * @param reader the batches, for example the rows of {@link SupportsWriting#write}
   * @return the rows, their values as the table of this class lists
   * @throws IOException when the reader fails
   */
  public static List<Object[]> read(ArrowReader reader) throws IOException {
    List<Object[]> out = new ArrayList<>();
    VectorSchemaRoot root = reader.getVectorSchemaRoot();
    while (reader.loadNextBatch()) {
      try (Enumerator<Object[]> rows = ArrowToRows.of(root).enumerator()) {
        while (rows.moveNext()) {
          out.add(rows.current());
        }
      }
    }
    return out;
  }
}

/**
 * Execution: Calcite rows over Arrow data and Arrow batches from Calcite rows, and the C Data
 * Interface export.
 *
 * <p>{@link io.calcitebridge.arrow.ArrowToRows} turns Arrow batches into an {@code
 * Enumerable<Object[]>} for a table scan; {@link io.calcitebridge.arrow.RowsToArrow} is an {@link
 * org.apache.arrow.vector.ipc.ArrowReader} over the rows of a query; {@link
 * io.calcitebridge.arrow.ArrowStreams} exports and imports streams through the C Data Interface.
 *
 * <h2>Calcite's runtime representation</h2>
 *
 * <p>Found by running queries through Calcite 1.42's Enumerable engine over a {@link
 * org.apache.calcite.schema.ScannableTable} (the {@code RuntimeRepresentationTest} keeps it
 * checked). A scan must return each row as {@code Object[]}, and each value as below; query results
 * use the same classes.
 *
 * <table>
 *   <caption>SQL type to Java class</caption>
 *   <tr><th>SQL type</th><th>scan input and query output</th></tr>
 *   <tr><td>BOOLEAN</td><td>Boolean</td></tr>
 *   <tr><td>TINYINT / SMALLINT / INTEGER / BIGINT</td><td>Byte / Short / Integer / Long, exactly:
 *       an Integer in a BIGINT column fails with a ClassCastException in generated code</td></tr>
 *   <tr><td>REAL</td><td>Float</td></tr>
 *   <tr><td>FLOAT, DOUBLE</td><td>Double</td></tr>
 *   <tr><td>DECIMAL(p, s)</td><td>BigDecimal (results carry the type's scale)</td></tr>
 *   <tr><td>CHAR, VARCHAR</td><td>String (CHAR(n) values keep their padding)</td></tr>
 *   <tr><td>BINARY, VARBINARY</td><td>{@link org.apache.calcite.avatica.util.ByteString}</td></tr>
 *   <tr><td>DATE</td><td>Integer, days since 1970-01-01</td></tr>
 *   <tr><td>TIME(p)</td><td>Integer, milliseconds of the day</td></tr>
 *   <tr><td>TIMESTAMP(p)</td><td>Long, the wall-clock time read as UTC, counted from the epoch
 *       in milliseconds for p &lt;= 3 (Calcite's own representation), in microseconds for p 4 to 6
 *       and in nanoseconds for p 7 to 9 ({@link io.calcitebridge.arrow.TimeUnits}; the plan pass
 *       {@code plan.Timestamps} converts around Calcite's millisecond code)</td></tr>
 *   <tr><td>TIMESTAMP_WITH_LOCAL_TIME_ZONE(p)</td><td>Long, milliseconds since the epoch
 *       (an instant)</td></tr>
 *   <tr><td>ROW</td><td>{@code Object[]} of the field values. Field access
 *       ({@code SqlFunctions.structAccess}) also accepts a List, but the interpreter path
 *       (BindableTableScan) casts to {@code Object[]}, so a scan must produce
 *       {@code Object[]}. ROW(...) constructors and ROW columns come out as
 *       {@code Object[]}.</td></tr>
 *   <tr><td>ARRAY, MULTISET</td><td>{@code java.util.List} (ArrayList out), elements in the same
 *       representation, nulls allowed; a MULTISET is written to Arrow as a map of each distinct
 *       element to its count</td></tr>
 *   <tr><td>MAP</td><td>{@code java.util.Map} (LinkedHashMap out), values may be null</td></tr>
 * </table>
 *
 * <p>A query result with a single column is an enumerable of the bare values, not of one-element
 * arrays (a single ROW column gives {@code Object[]} field values per row, which looks like a row);
 * {@link io.calcitebridge.arrow.RowsToArrow#fromCalcite} wraps them.
 *
 * <p>A java.sql.Date, Time or Timestamp appears only at the JDBC boundary (Avatica converts), never
 * in the Enumerable rows. {@link io.calcitebridge.arrow.RowsToArrow} nevertheless accepts them,
 * java.time values, a ROW as List, {@code Row} or synthetic record object, an ARRAY as an array,
 * and any boxed number for any numeric column.
 *
 * <p>Caveat: an {@link org.apache.calcite.schema.ScannableTable} with an ARRAY of ROW column cannot
 * be scanned by {@code EnumerableTableScan}: it generates code that converts the elements from
 * synthetic records, which does not compile (Calcite 1.42).
 *
 * <p>Internal: not part of the public API (see {@link io.calcitebridge.api}); it may change without
 * notice.
 */
package io.calcitebridge.arrow;

package io.calcitebridge.facade;

import io.calcitebridge.arrow.ArrowMemory;
import io.calcitebridge.arrow.ExportedStream;
import io.calcitebridge.arrow.GuardedReader;
import io.calcitebridge.connector.PythonSource;
import io.calcitebridge.connector.SourceStorage;
import io.calcitebridge.errors.Errors;
import io.calcitebridge.errors.Stop;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The rows of one statement, exported as an Arrow C stream. Python imports the stream at {@link
 * #address()} and then calls {@link #close()} to free the small struct that carried it.
 */
public final class StatementResult implements AutoCloseable {
  private final AtomicBoolean cancel;
  private final String kind;
  private final @Nullable ExportedStream stream;
  private final byte[] schema;
  private final String backend;
  private final String backendSql;
  private final List<@Nullable ExportedStream> scans;
  private final List<byte[]> scanSchemas;
  private final List<SourceStorage.@Nullable Prepared> prepared;
  private int[] parameterOrder = new int[0];

  StatementResult(String kind, ExportedStream stream) {
    this(kind, stream, new AtomicBoolean());
  }

  /** Rows that stop at the next row of a scan once {@code cancel} is set ({@link #cancel}). */
  StatementResult(String kind, ExportedStream stream, AtomicBoolean cancel) {
    this.cancel = cancel;
    this.kind = kind;
    this.stream = stream;
    this.schema = new byte[0];
    this.backend = "";
    this.backendSql = "";
    this.scans = List.of();
    this.scanSchemas = List.of();
    this.prepared = List.of();
  }

  /** A validated query's result schema ({@code schema}, an Arrow IPC message), without rows. */
  static StatementResult schemaOnly(AtomicBoolean cancel, byte[] schema) {
    return new StatementResult(cancel, "schema", schema, "", "", List.of(), List.of(), List.of());
  }

  /**
   * A query that a backend runs in the reader's process: {@code schema} is the result's schema (an
   * Arrow IPC message); {@code scans} are the relations {@code backendSql} reads, {@code scan_i}: a
   * stream of rows, or null for a scan the reader's process opens itself, whose schema is then in
   * {@code scanSchemas}. Schemas cross as bytes: importing a C stream for a schema alone costs more
   * than a small backend query.
   */
  StatementResult(
      AtomicBoolean cancel,
      String kind,
      byte[] schema,
      String backend,
      String backendSql,
      List<@Nullable ExportedStream> scans,
      List<byte[]> scanSchemas,
      List<SourceStorage.@Nullable Prepared> prepared) {
    this.cancel = cancel;
    this.kind = kind;
    this.stream = null;
    this.schema = schema;
    this.backend = backend;
    this.backendSql = backendSql;
    this.scans = scans;
    this.scanSchemas = scanSchemas;
    this.prepared = prepared;
  }

  /**
   * The source of scan {@code i} when the reader's process opens it itself (its stream then holds
   * only the scan's schema), or null when the stream holds the rows.
   */
  public @Nullable PythonSource scanSource(int i) {
    SourceStorage.Prepared p = prepared.get(i);
    return p == null ? null : p.source();
  }

  /** The request (JSON) to send {@link #scanSource}, or "". */
  public String scanRequest(int i) {
    SourceStorage.Prepared p = prepared.get(i);
    return p == null ? "" : p.request();
  }

  /** The column of the source's stream each of scan {@code i}'s columns is read from. */
  public String[] scanColumns(int i) {
    SourceStorage.Prepared p = prepared.get(i);
    return p == null ? new String[0] : p.columns().toArray(new String[0]);
  }

  /** The backend that runs the query in the reader's process, or "" when the rows are here. */
  public String backend() {
    return backend;
  }

  /** The SQL the backend runs, or "". */
  public String backendSql() {
    return backendSql;
  }

  /**
   * For each {@code ?} of {@link #backendSql}, in order, the index of the statement's parameter
   * whose value the backend binds to it (its prepared statement's values); empty when the SQL has
   * its values written in.
   */
  public int[] parameterOrder() {
    return parameterOrder.clone();
  }

  StatementResult withParameterOrder(List<Integer> order) {
    this.parameterOrder = order.stream().mapToInt(Integer::intValue).toArray();
    return this;
  }

  /**
   * In one crossing, what the reader's process needs to run a query of its backend (a JSON object):
   * {@code kind}, {@code backend}, {@code backendSql}, {@code parameterOrder}, {@code
   * remainingMillis}, {@code timeoutMessage}, and {@code scans}, for each scan {@code {"source":
   * whether the reader's process opens it, "request", "columns"}}. Asked field by field these were
   * a dozen calls across the JVM boundary for each statement.
   */
  public String describe() {
    // Written here, not by Jackson: its mapper's start (a few hundred classes) was a tenth of a
    // second of every new process's first query.
    StringBuilder out = new StringBuilder(256);
    out.append("{\"kind\":").append(jsonString(kind));
    out.append(",\"backend\":").append(jsonString(backend));
    out.append(",\"backendSql\":").append(jsonString(backendSql));
    out.append(",\"parameterOrder\":[");
    for (int i = 0; i < parameterOrder.length; i++) {
      out.append(i == 0 ? "" : ",").append(parameterOrder[i]);
    }
    out.append("],\"remainingMillis\":").append(remainingMillis());
    out.append(",\"timeoutMessage\":").append(jsonString(timeoutMessage()));
    out.append(",\"scans\":[");
    for (int s = 0; s < prepared.size(); s++) {
      SourceStorage.Prepared p = prepared.get(s);
      out.append(s == 0 ? "{\"source\":" : ",{\"source\":").append(p != null);
      out.append(",\"request\":").append(jsonString(p == null ? "" : p.request()));
      out.append(",\"columns\":[");
      if (p != null) {
        int c = 0;
        for (String column : p.columns()) {
          out.append(c++ == 0 ? "" : ",").append(jsonString(column));
        }
      }
      out.append("]}");
    }
    return out.append("]}").toString();
  }

  /** {@code s} as a JSON string literal (Flink's {@code JSON_QUOTE}), or {@code null}. */
  static String jsonString(@Nullable String s) {
    return s == null ? "null" : io.calcitebridge.functions.StringFunctions.jsonQuote(s);
  }

  /** How many scans the backend's SQL reads. */
  public int scanCount() {
    return scans.size();
  }

  /**
   * Address of the {@code ArrowArrayStream} struct of scan {@code i} ({@code scan_i}), or 0 when
   * the reader's process opens the scan itself ({@link #scanSource}).
   */
  public long scanAddress(int i) {
    ExportedStream scan = scans.get(i);
    return scan == null ? 0 : scan.address();
  }

  /** The schema (an Arrow IPC message) of a scan the reader's process opens itself. */
  public byte[] scanSchema(int i) {
    return scanSchemas.get(i);
  }

  /** The schema (an Arrow IPC message) of a result a backend of the reader's process computes. */
  public byte[] schema() {
    return schema;
  }

  /**
   * Stops the rows: the reader's next batch fails as cancelled once each scan has read its next
   * row. Any thread may call it, also while another one reads the rows.
   */
  public void cancel() {
    cancel.set(true);
  }

  /**
   * Milliseconds left before the statement's timeout (0 once past), or -1 without one: a backend of
   * the reader's process stops its work then, failing with {@link #timeoutMessage}.
   */
  public long remainingMillis() {
    return cancel instanceof Stop ? ((Stop) cancel).remainingMillis() : -1;
  }

  /** The message of the error a statement past its timeout fails with. */
  public String timeoutMessage() {
    return cancel instanceof Stop ? ((Stop) cancel).deadlineMessage() : "";
  }

  /** What ran: {@code query}, {@code insert}, {@code ddl}, {@code explain}, ... */
  public String kind() {
    return kind;
  }

  /**
   * Address of the {@code ArrowArrayStream} struct of the rows when they are here, or 0 when a
   * backend of the reader's process computes them ({@link #describe} tells it how): for a query,
   * one crossing where {@link #describe} and {@link #address} were two, and no JSON.
   */
  public long rowsAddress() {
    return stream == null ? 0 : stream.address();
  }

  /** Address of the {@code ArrowArrayStream} struct. */
  public long address() {
    return rows().address();
  }

  private ExportedStream rows() {
    if (stream == null) {
      throw new IllegalStateException("a backend of the reader's process computes these rows");
    }
    return stream;
  }

  /**
   * Imports the rows as an {@link ArrowReader} inside the JVM (for Java callers and the gateway);
   * no data is copied. The caller closes the reader; this handle is closed here.
   */
  public ArrowReader toReader() {
    try (this) {
      ArrowReader imported =
          Data.importArrayStream(ArrowMemory.allocator(), ArrowArrayStream.wrap(rows().address()));
      return new GuardedReader(ArrowMemory.allocator(), imported, Errors::translateRunning);
    }
  }

  @Override
  public void close() {
    if (stream != null) {
      stream.close();
    }
    for (ExportedStream scan : scans) {
      if (scan != null) {
        scan.close();
      }
    }
  }
}

package io.calcitebridge.facade;

import io.calcitebridge.arrow.ArrowMemory;
import io.calcitebridge.arrow.ExportedStream;
import io.calcitebridge.arrow.GuardedReader;
import io.calcitebridge.connector.PythonSource;
import io.calcitebridge.connector.SourceStorage;
import io.calcitebridge.errors.Errors;
import java.util.List;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The rows of one statement, exported as an Arrow C stream. Python imports the stream at {@link
 * #address()} and then calls {@link #close()} to free the small struct that carried it.
 */
public final class StatementResult implements AutoCloseable {
  private final String kind;
  private final ExportedStream stream;
  private final String backend;
  private final String backendSql;
  private final List<ExportedStream> scans;
  private final List<SourceStorage.@Nullable Prepared> prepared;

  StatementResult(String kind, ExportedStream stream) {
    this(kind, stream, "", "", List.of(), List.of());
  }

  /**
   * A query that a backend runs in the reader's process: {@code stream} holds no rows, only the
   * result's schema; {@code scans} are the relations {@code backendSql} reads, {@code scan_i}.
   */
  StatementResult(
      String kind,
      ExportedStream stream,
      String backend,
      String backendSql,
      List<ExportedStream> scans,
      List<SourceStorage.@Nullable Prepared> prepared) {
    this.kind = kind;
    this.stream = stream;
    this.backend = backend;
    this.backendSql = backendSql;
    this.scans = scans;
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

  /** How many scans the backend's SQL reads. */
  public int scanCount() {
    return scans.size();
  }

  /** Address of the {@code ArrowArrayStream} struct of scan {@code i} ({@code scan_i}). */
  public long scanAddress(int i) {
    return scans.get(i).address();
  }

  /** What ran: {@code query}, {@code insert}, {@code ddl}, {@code explain}, ... */
  public String kind() {
    return kind;
  }

  /** Address of the {@code ArrowArrayStream} struct. */
  public long address() {
    return stream.address();
  }

  /**
   * Imports the rows as an {@link ArrowReader} inside the JVM (for Java callers and the gateway);
   * no data is copied. The caller closes the reader; this handle is closed here.
   */
  public ArrowReader toReader() {
    try (this) {
      ArrowReader imported =
          Data.importArrayStream(ArrowMemory.allocator(), ArrowArrayStream.wrap(stream.address()));
      return new GuardedReader(ArrowMemory.allocator(), imported, Errors::translateRunning);
    }
  }

  @Override
  public void close() {
    stream.close();
    scans.forEach(ExportedStream::close);
  }
}

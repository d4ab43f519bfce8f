package io.calcitebridge.api;

import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The one exception type callers see, from Java and from Python. {@link #kind()} picks the Python
 * exception class; the positions are 1-based and 0 when unknown.
 */
public final class BridgeException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** What went wrong, mapped one-to-one onto the Python exception hierarchy. */
  public enum Kind {
    PARSE,
    VALIDATION,
    CATALOG,
    SOURCE,
    SOURCE_CONTRACT,
    UNSUPPORTED,
    CONFIG,
    RESOURCE,
    EXECUTION,
    CANCELLED,
    INTERNAL
  }

  private final Kind kind;
  private final int line;
  private final int column;
  private final int endLine;
  private final int endColumn;
  private String detail = "";

  public BridgeException(
      Kind kind,
      String message,
      int line,
      int column,
      int endLine,
      int endColumn,
      @Nullable Throwable cause) {
    super(message, cause);
    this.kind = kind;
    this.line = line;
    this.column = column;
    this.endLine = endLine;
    this.endColumn = endColumn;
  }

  public BridgeException(Kind kind, String message, @Nullable Throwable cause) {
    this(kind, message, 0, 0, 0, 0, cause);
  }

  public String kind() {
    return kind.name();
  }

  public int line() {
    return line;
  }

  public int column() {
    return column;
  }

  public int endLine() {
    return endLine;
  }

  public int endColumn() {
    return endColumn;
  }

  /** More about the failure, such as a Python source's traceback; "" when there is none. */
  public String detail() {
    return detail;
  }

  /** Attaches {@code detail} (see {@link #detail()}); returns this exception. */
  public BridgeException withDetail(String detail) {
    this.detail = detail == null ? "" : detail;
    return this;
  }

  /** The Java stack trace of the cause, for debugging. */
  public String javaStackTrace() {
    java.io.StringWriter w = new java.io.StringWriter();
    (getCause() == null ? this : getCause()).printStackTrace(new java.io.PrintWriter(w));
    return w.toString();
  }
}

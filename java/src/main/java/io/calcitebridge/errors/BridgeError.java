package io.calcitebridge.errors;

import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A failure translated by {@link Errors#translate}: a kind, a message without Java class names, and
 * the SQL position (1-based; 0 when unknown). Every internal entry point throws only this; the
 * public API turns it into {@code io.calcitebridge.api.BridgeException}, and Python reads it
 * through the accessors below.
 */
public final class BridgeError extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final ErrorKind kind;
  private final int line;
  private final int column;
  private final int endLine;
  private final int endColumn;
  private final String detail;

  public BridgeError(
      ErrorKind kind,
      String message,
      int line,
      int column,
      int endLine,
      int endColumn,
      @Nullable String detail,
      @Nullable Throwable cause) {
    super(message, cause);
    this.kind = kind;
    this.line = line;
    this.column = column;
    this.endLine = endLine;
    this.endColumn = endColumn;
    this.detail = detail == null ? "" : detail;
  }

  public BridgeError(ErrorKind kind, String message, @Nullable Throwable cause) {
    this(kind, message, 0, 0, 0, 0, "", cause);
  }

  /** The kind's name ({@code PARSE}, {@code EXECUTION}, ...); Python maps it to a class. */
  public String kind() {
    return kind.name();
  }

  public ErrorKind errorKind() {
    return kind;
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

  /** This failure with {@code detail} attached. */
  public BridgeError withDetail(@Nullable String newDetail) {
    BridgeError e =
        new BridgeError(
            kind, getMessage(), line, column, endLine, endColumn, newDetail, getCause());
    e.setStackTrace(getStackTrace());
    return e;
  }

  /** The Java stack trace of the cause, for debugging. */
  public String javaStackTrace() {
    java.io.StringWriter w = new java.io.StringWriter();
    (getCause() == null ? this : getCause()).printStackTrace(new java.io.PrintWriter(w));
    return w.toString();
  }
}

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
    /** The SQL text does not parse; the position points at the offending token. */
    PARSE,
    /** The SQL parses but is invalid: an unknown column or table, a type mismatch, ... */
    VALIDATION,
    /** A catalog operation failed: a table that exists already, a missing one to drop, ... */
    CATALOG,
    /** A table source failed; {@link BridgeException#detail()} holds its stack trace. */
    SOURCE,
    /** A table source broke the source contract (lost or invented a filter, ...). */
    SOURCE_CONTRACT,
    /**
     * The sandbox refused a file or connector: a path outside {@code filesystem.allowed-paths}, or
     * a {@code filesystem}/{@code python} table under {@code external-access = false}.
     */
    ACCESS,
    /** The statement uses something calcite-bridge does not support. */
    UNSUPPORTED,
    /** An unknown configuration key or value, or an unknown explain format. */
    CONFIG,
    /** The statement ran out of memory or stack (nested too deeply). */
    RESOURCE,
    /** The statement failed while it ran: a division by zero, an invalid number, ... */
    EXECUTION,
    /** The statement was cancelled. */
    CANCELLED,
    /** The statement ran past {@code execution.timeout} or planned past {@code planner.timeout}. */
    TIMEOUT,
    /** Anything else: a bug in calcite-bridge. */
    INTERNAL
  }

  private final Kind kind;
  private final int line;
  private final int column;
  private final int endLine;
  private final int endColumn;
  private String detail = "";

  /**
   * Creates an exception with a SQL position.
   *
   * @param kind what went wrong
   * @param message the message, without the position
   * @param line the 1-based line where the offending SQL starts, 0 when unknown
   * @param column the 1-based column where it starts, 0 when unknown
   * @param endLine the 1-based line where it ends, 0 when unknown
   * @param endColumn the 1-based column where it ends (inclusive), 0 when unknown
   * @param cause the underlying failure, or null
   */
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

  /**
   * Creates an exception without a SQL position.
   *
   * @param kind what went wrong
   * @param message the message
   * @param cause the underlying failure, or null
   */
  public BridgeException(Kind kind, String message, @Nullable Throwable cause) {
    this(kind, message, 0, 0, 0, 0, cause);
  }

  /**
   * What went wrong: the name of a {@link Kind} constant, such as {@code PARSE}, {@code VALIDATION}
   * or {@code SOURCE}.
   *
   * @return the kind's name
   */
  public String kind() {
    return kind.name();
  }

  /**
   * The 1-based line where the offending SQL starts.
   *
   * @return the line, or 0 when the failure has no SQL position
   */
  public int line() {
    return line;
  }

  /**
   * The 1-based column where the offending SQL starts.
   *
   * @return the column, or 0 when the failure has no SQL position
   */
  public int column() {
    return column;
  }

  /**
   * The 1-based line where the offending SQL ends.
   *
   * @return the line, or 0 when the failure has no SQL position
   */
  public int endLine() {
    return endLine;
  }

  /**
   * The 1-based column where the offending SQL ends, inclusive.
   *
   * @return the column, or 0 when the failure has no SQL position
   */
  public int endColumn() {
    return endColumn;
  }

  /**
   * More about the failure, such as a source's stack trace (a Python source's traceback); "" when
   * there is none.
   *
   * @return the detail
   */
  public String detail() {
    return detail;
  }

  /**
   * Attaches {@code detail} (see {@link #detail()}).
   *
   * @param detail the detail; null stands for ""
   * @return this exception
   */
  public BridgeException withDetail(String detail) {
    this.detail = detail == null ? "" : detail;
    return this;
  }

  /**
   * The Java stack trace of the cause, for debugging.
   *
   * @return the stack trace as text
   */
  public String javaStackTrace() {
    java.io.StringWriter w = new java.io.StringWriter();
    (getCause() == null ? this : getCause()).printStackTrace(new java.io.PrintWriter(w));
    return w.toString();
  }
}

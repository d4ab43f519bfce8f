package io.calcitebridge.errors;

/**
 * What went wrong, mapped one-to-one onto the Python exception hierarchy and onto {@code
 * io.calcitebridge.api.BridgeException.Kind}, which has the same constants.
 */
public enum ErrorKind {
  /** The SQL text does not parse; the position points at the offending token. */
  PARSE,
  /** The SQL parses but is invalid: an unknown column or table, a type mismatch, ... */
  VALIDATION,
  /** A catalog operation failed: a table that exists already, a missing one to drop, ... */
  CATALOG,
  /** A table source failed; the detail holds its stack trace. */
  SOURCE,
  /** A table source broke the source contract (lost or invented a filter, ...). */
  SOURCE_CONTRACT,
  /**
   * The sandbox refused a file or connector: a path outside {@code filesystem.allowed-paths}, or a
   * {@code filesystem}/{@code python} table under {@code external-access = false}.
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

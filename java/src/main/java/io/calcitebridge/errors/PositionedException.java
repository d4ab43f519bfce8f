package io.calcitebridge.errors;

import org.apache.calcite.sql.parser.SqlParserPos;

/** A statement-level error at a position in the SQL, raised by our own checks (DDL, INSERT). */
public final class PositionedException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final ErrorKind kind;
  private final transient SqlParserPos pos;

  public PositionedException(ErrorKind kind, String message, SqlParserPos pos) {
    super(message);
    this.kind = kind;
    this.pos = pos;
  }

  public ErrorKind kind() {
    return kind;
  }

  public SqlParserPos pos() {
    return pos;
  }
}

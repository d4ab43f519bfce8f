package io.calcitebridge.facade;

import io.calcitebridge.api.BridgeException;
import org.apache.calcite.sql.parser.SqlParserPos;

/** A statement-level error at a position in the SQL, raised by our own checks (DDL, INSERT). */
public final class PositionedException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final BridgeException.Kind kind;
  private final transient SqlParserPos pos;

  public PositionedException(BridgeException.Kind kind, String message, SqlParserPos pos) {
    super(message);
    this.kind = kind;
    this.pos = pos;
  }

  public BridgeException.Kind kind() {
    return kind;
  }

  public SqlParserPos pos() {
    return pos;
  }
}

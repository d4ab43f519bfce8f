package io.calcitebridge.errors;

import java.util.concurrent.CancellationException;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.validate.SqlValidatorException;
import org.checkerframework.checker.nullness.qual.Nullable;

/** Translates every Java failure into a {@link BridgeError}, in one place. */
public final class Errors {
  private static final String RUNNING = "The query failed while it ran: ";

  private Errors() {}

  /** Translates {@code t}; the SQL position is kept wherever Calcite recorded one. */
  public static BridgeError translate(Throwable t) {
    if (t instanceof BridgeError) {
      return (BridgeError) t;
    }
    for (Throwable c = t; c != null; c = c.getCause()) {
      BridgeError b = translateOne(c, t);
      if (b != null) {
        return b;
      }
      if (c.getCause() == c) {
        break;
      }
    }
    String msg = t.getMessage() == null ? t.toString() : firstLine(t.getMessage());
    return new BridgeError(ErrorKind.INTERNAL, msg, t);
  }

  /**
   * Translates {@code t}, raised while a statement's rows were produced: a failure that is not of a
   * known kind is one of the running statement ({@link ErrorKind#EXECUTION}), and its message names
   * no Java class.
   */
  public static BridgeError translateRunning(Throwable t) {
    BridgeError e = translate(t);
    String message;
    if (e.errorKind() == ErrorKind.EXECUTION) {
      message = e.getMessage();
    } else if (e.errorKind() == ErrorKind.INTERNAL) {
      message = null;
      for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
        if (c.getMessage() != null && !c.getMessage().isBlank()) {
          message = firstLine(c.getMessage()).strip();
        }
      }
      message = message == null ? "an internal error" : message;
    } else {
      return e;
    }
    if (message.startsWith(RUNNING)) {
      return e.errorKind() == ErrorKind.EXECUTION
          ? e
          : new BridgeError(ErrorKind.EXECUTION, message, t);
    }
    return new BridgeError(
        ErrorKind.EXECUTION,
        RUNNING + message,
        e.line(),
        e.column(),
        e.endLine(),
        e.endColumn(),
        e.detail(),
        t);
  }

  private static @Nullable BridgeError translateOne(Throwable c, Throwable top) {
    if (c instanceof BridgeError) {
      return (BridgeError) c;
    }
    if (c instanceof StreamFailure) {
      return ((StreamFailure) c).error();
    }
    BridgeError carried = StreamFailure.decode(c.getMessage());
    if (carried != null) {
      return carried;
    }
    if (c instanceof SqlParseException) {
      SqlParseException e = (SqlParseException) c;
      return at(ErrorKind.PARSE, parseMessage(e), e.getPos(), top);
    }
    if (c instanceof CalciteContextException) {
      CalciteContextException e = (CalciteContextException) c;
      String msg = e.getCause() != null ? e.getCause().getMessage() : e.getMessage();
      return new BridgeError(
          ErrorKind.VALIDATION,
          msg,
          e.getPosLine(),
          e.getPosColumn(),
          e.getEndPosLine(),
          e.getEndPosColumn(),
          "",
          top);
    }
    if (c instanceof PositionedException) {
      PositionedException e = (PositionedException) c;
      return at(e.kind(), e.getMessage(), e.pos(), top);
    }
    if (c instanceof SourceException) {
      SourceException e = (SourceException) c;
      return new BridgeError(
          e.isContractViolation() ? ErrorKind.SOURCE_CONTRACT : ErrorKind.SOURCE,
          e.getMessage(),
          0,
          0,
          0,
          0,
          e.sourceTraceback(),
          top);
    }
    if (c instanceof SqlValidatorException) {
      return new BridgeError(ErrorKind.VALIDATION, c.getMessage(), top);
    }
    if (c instanceof CatalogException) {
      return new BridgeError(ErrorKind.CATALOG, c.getMessage(), top);
    }
    if (c instanceof ConfigException) {
      return new BridgeError(ErrorKind.CONFIG, c.getMessage(), top);
    }
    if (c instanceof StackOverflowError) {
      return new BridgeError(
          ErrorKind.RESOURCE, "The statement is nested too deeply to plan (stack overflow)", top);
    }
    if (c instanceof OutOfMemoryError) {
      return new BridgeError(ErrorKind.RESOURCE, "Out of memory: " + c.getMessage(), top);
    }
    if (c instanceof CancellationException || c instanceof InterruptedException) {
      return new BridgeError(ErrorKind.CANCELLED, "The statement was cancelled", top);
    }
    if (c instanceof ArithmeticException) {
      String m = String.valueOf(c.getMessage());
      return new BridgeError(
          ErrorKind.EXECUTION, m.contains("by zero") ? "Division by zero" : m, top);
    }
    if (c instanceof NumberFormatException) {
      return new BridgeError(ErrorKind.EXECUTION, "Invalid number: " + c.getMessage(), top);
    }
    if (c instanceof UnsupportedOperationException) {
      return new BridgeError(ErrorKind.UNSUPPORTED, c.getMessage(), top);
    }
    if (c.getClass().getName().startsWith("org.codehaus.")) {
      // Janino: typically a method past the JVM's 64 KB limit (a huge IN list or OR chain).
      while (c.getCause() != null && c.getCause() != c) {
        c = c.getCause();
      }
      return new BridgeError(
          ErrorKind.UNSUPPORTED,
          "The statement is too large to compile: " + firstLine(c.getMessage()),
          top);
    }
    return null;
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "";
    }
    int nl = message.indexOf('\n');
    return nl < 0 ? message : message.substring(0, nl);
  }

  private static BridgeError at(ErrorKind kind, String msg, SqlParserPos pos, Throwable top) {
    if (pos == null || pos.equals(SqlParserPos.ZERO)) {
      return new BridgeError(kind, msg, top);
    }
    return new BridgeError(
        kind,
        msg,
        pos.getLineNum(),
        pos.getColumnNum(),
        pos.getEndLineNum(),
        pos.getEndColumnNum(),
        "",
        top);
  }

  /** Calcite's parse messages list every expected token; keep the first line and a short list. */
  static String parseMessage(SqlParseException e) {
    String msg = e.getMessage() == null ? "Syntax error" : e.getMessage();
    String first = msg.split("\n", 2)[0].replaceAll(" at line \\d+, column \\d+\\.?$", "");
    java.util.Collection<String> expected = e.getExpectedTokenNames();
    if (expected != null && !expected.isEmpty() && first.startsWith("Encountered")) {
      java.util.List<String> list = new java.util.ArrayList<>(expected);
      java.util.Collections.sort(list);
      String shown = String.join(", ", list.subList(0, Math.min(8, list.size())));
      return first + "; expected one of " + shown + (list.size() > 8 ? ", ..." : "");
    }
    return first;
  }
}

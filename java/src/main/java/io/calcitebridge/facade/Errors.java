package io.calcitebridge.facade;

import io.calcitebridge.api.BridgeException;
import io.calcitebridge.api.BridgeException.Kind;
import io.calcitebridge.catalog.CatalogException;
import io.calcitebridge.connector.SourceException;
import java.util.concurrent.CancellationException;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.validate.SqlValidatorException;
import org.checkerframework.checker.nullness.qual.Nullable;

/** Translates every Java failure into a {@link BridgeException}, in one place. */
public final class Errors {
  private Errors() {}

  /** Translates {@code t}; the SQL position is kept wherever Calcite recorded one. */
  public static BridgeException translate(Throwable t) {
    if (t instanceof BridgeException) {
      return (BridgeException) t;
    }
    for (Throwable c = t; c != null; c = c.getCause()) {
      BridgeException b = translateOne(c, t);
      if (b != null) {
        return b;
      }
      if (c.getCause() == c) {
        break;
      }
    }
    String msg = t.getMessage() == null ? t.toString() : firstLine(t.getMessage());
    return new BridgeException(Kind.INTERNAL, msg, t);
  }

  private static @Nullable BridgeException translateOne(Throwable c, Throwable top) {
    if (c instanceof BridgeException) {
      return (BridgeException) c;
    }
    if (c instanceof SqlParseException) {
      SqlParseException e = (SqlParseException) c;
      return at(Kind.PARSE, parseMessage(e), e.getPos(), top);
    }
    if (c instanceof CalciteContextException) {
      CalciteContextException e = (CalciteContextException) c;
      String msg = e.getCause() != null ? e.getCause().getMessage() : e.getMessage();
      return new BridgeException(
          Kind.VALIDATION,
          msg,
          e.getPosLine(),
          e.getPosColumn(),
          e.getEndPosLine(),
          e.getEndPosColumn(),
          top);
    }
    if (c instanceof PositionedException) {
      PositionedException e = (PositionedException) c;
      return at(e.kind(), e.getMessage(), e.pos(), top);
    }
    if (c instanceof SourceException) {
      SourceException e = (SourceException) c;
      return new BridgeException(
              e.isContractViolation() ? Kind.SOURCE_CONTRACT : Kind.SOURCE, e.getMessage(), top)
          .withDetail(e.sourceTraceback());
    }
    if (c instanceof SqlValidatorException) {
      return new BridgeException(Kind.VALIDATION, c.getMessage(), top);
    }
    if (c instanceof CatalogException) {
      return new BridgeException(Kind.CATALOG, c.getMessage(), top);
    }
    if (c instanceof ConfigException) {
      return new BridgeException(Kind.CONFIG, c.getMessage(), top);
    }
    if (c instanceof StackOverflowError) {
      return new BridgeException(
          Kind.RESOURCE, "The statement is nested too deeply to plan (stack overflow)", top);
    }
    if (c instanceof OutOfMemoryError) {
      return new BridgeException(Kind.RESOURCE, "Out of memory: " + c.getMessage(), top);
    }
    if (c instanceof CancellationException || c instanceof InterruptedException) {
      return new BridgeException(Kind.CANCELLED, "The statement was cancelled", top);
    }
    if (c instanceof ArithmeticException) {
      String m = String.valueOf(c.getMessage());
      return new BridgeException(
          Kind.EXECUTION, m.contains("by zero") ? "Division by zero" : m, top);
    }
    if (c instanceof NumberFormatException) {
      return new BridgeException(Kind.EXECUTION, "Invalid number: " + c.getMessage(), top);
    }
    if (c instanceof UnsupportedOperationException) {
      return new BridgeException(Kind.UNSUPPORTED, c.getMessage(), top);
    }
    if (c.getClass().getName().startsWith("org.codehaus.")) {
      // Janino: typically a method past the JVM's 64 KB limit (a huge IN list or OR chain).
      while (c.getCause() != null && c.getCause() != c) {
        c = c.getCause();
      }
      return new BridgeException(
          Kind.UNSUPPORTED,
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

  private static BridgeException at(Kind kind, String msg, SqlParserPos pos, Throwable top) {
    if (pos == null || pos.equals(SqlParserPos.ZERO)) {
      return new BridgeException(kind, msg, top);
    }
    return new BridgeException(
        kind,
        msg,
        pos.getLineNum(),
        pos.getColumnNum(),
        pos.getEndLineNum(),
        pos.getEndColumnNum(),
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

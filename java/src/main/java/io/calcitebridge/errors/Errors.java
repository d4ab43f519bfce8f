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
  private static final String SINGLE_VALUE = "more than one value in agg SINGLE_VALUE";

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
    return new BridgeError(ErrorKind.INTERNAL, internalMessage(t), t);
  }

  private static final java.util.regex.Pattern QUALIFIED_CLASS =
      java.util.regex.Pattern.compile("\\b(?:[a-z_$][\\w$]*\\.)+([A-Z][\\w$]*)");

  /**
   * The message of an internal error (a bug): what failed, without Java class names or Calcite's
   * plan dumps; the Java stack trace stays in the error's detail.
   */
  static String internalMessage(Throwable t) {
    String m = plainMessage(t.getMessage());
    if (m.isEmpty()) {
      m = t.getClass().getSimpleName();
    }
    m = QUALIFIED_CLASS.matcher(m).replaceAll("$1");
    m = m.replaceAll(" \\([^()]*in unnamed module[^()]*\\)", "");
    int plan = m.indexOf("(expr#");
    if (plan >= 0) {
      m = m.substring(0, plan);
    }
    return "Internal error in calcite-bridge (please report it with the statement): " + m.strip();
  }

  /**
   * Calcite's engine has no implementation of an expression for its operand types: its code
   * generation failed ("Unable to implement"), or the code it generated does not compile.
   */
  private static final String NO_IMPLEMENTATION =
      "The enumerable engine cannot run this statement: an expression in it has no"
          + " implementation for the types of its operands (cast them to the types you mean)";

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
          message = plainMessage(c.getMessage());
        }
      }
      message = message == null || message.isEmpty() ? "an internal error" : message;
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
    BridgeError carried = CarriedError.decode(c.getMessage());
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
      return new BridgeError(e.kind(), e.getMessage(), 0, 0, 0, 0, e.sourceTraceback(), top);
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
    if (c instanceof ExceptionInInitializerError && c.getCause() != null) {
      // Calcite's generated code computes a statement's constant expressions in a static
      // initialiser, when its rows are first asked for: a constant that fails there, such as
      // CAST('+2' AS BOOLEAN), is a failure of the running statement.
      return translateRunning(c.getCause());
    }
    if (c instanceof ExceptionInInitializerError && c.getMessage() != null) {
      // The same failure seen again (NoClassDefFoundError, caused by this error without its
      // cause): "Exception <class>: <message> [in thread ...]".
      String m =
          c.getMessage()
              .replaceFirst("^Exception [\\w.$]+: ", "")
              .replaceFirst(" \\[in thread [^\\]]*\\]$", "");
      return new BridgeError(ErrorKind.EXECUTION, RUNNING + firstLine(m), top);
    }
    if (c instanceof StackOverflowError) {
      return new BridgeError(
          ErrorKind.RESOURCE, "The statement is nested too deeply to plan (stack overflow)", top);
    }
    if (c instanceof org.apache.arrow.memory.OutOfMemoryException) {
      return new BridgeError(
          ErrorKind.RESOURCE,
          "Out of memory: the statement's rows reached execution.memory-limit ("
              + plainMessage(c.getMessage())
              + ")",
          top);
    }
    if (c instanceof OutOfMemoryError) {
      return new BridgeError(ErrorKind.RESOURCE, "Out of memory: " + c.getMessage(), top);
    }
    if (c instanceof CancellationException || c instanceof InterruptedException) {
      return new BridgeError(ErrorKind.CANCELLED, "The statement was cancelled", top);
    }
    if (c instanceof ArithmeticException) {
      // Without a message it is the JVM's preallocated exception for an integer division by
      // zero, which compiled code throws once the same division has failed often
      // (OmitStackTraceInFastThrow); overflow checks always say what overflowed.
      String m = c.getMessage() == null ? "/ by zero" : c.getMessage();
      return new BridgeError(
          ErrorKind.EXECUTION, m.contains("by zero") ? "Division by zero" : m, top);
    }
    if (c instanceof IllegalStateException
        && c.getMessage() != null
        && c.getMessage().startsWith(SINGLE_VALUE)) {
      // Calcite's code for a scalar sub-query (its SINGLE_VALUE aggregate) throws this when the
      // sub-query gives a second row: the data is at fault, not the plan.
      return new BridgeError(
          ErrorKind.EXECUTION, "A scalar sub-query returned more than one row", top);
    }
    if (c instanceof NumberFormatException) {
      return new BridgeError(ErrorKind.EXECUTION, "Invalid number: " + c.getMessage(), top);
    }
    if (c instanceof IllegalStateException && c.getMessage() != null) {
      String m = c.getMessage();
      if (m.startsWith("Unable to implement ")) {
        return new BridgeError(ErrorKind.UNSUPPORTED, NO_IMPLEMENTATION, top);
      }
      if (m.startsWith("more than one value in agg SINGLE_VALUE")) {
        return new BridgeError(
            ErrorKind.EXECUTION, "A scalar sub-query returned more than one row", top);
      }
    }
    if (c instanceof IllegalArgumentException
        && c.getMessage() != null
        && c.getMessage().matches("(?s)Invalid (DATE|TIME|TIMESTAMP)\\b.*")) {
      // A string cast to a date or time at run time (avatica's DateTimeUtils).
      return new BridgeError(ErrorKind.EXECUTION, firstLine(c.getMessage()), top);
    }
    if (c instanceof UnsupportedOperationException
        && c.getMessage() != null
        && c.getMessage().startsWith("class org.apache.calcite.")) {
      // Calcite's Util.needToImplement(node): "class <node's class>: <node>".
      String node = c.getMessage().replaceFirst("^class [\\w.$]+: ", "");
      return new BridgeError(
          ErrorKind.UNSUPPORTED, "This construct is not supported here: " + firstLine(node), top);
    }
    if (c instanceof ClassCastException
        && c.getMessage() != null
        && c.getMessage().contains("java.lang.Comparable")) {
      // Calcite's engine orders by Comparable values only: an ARRAY, MAP or ROW sort key of a
      // window (a top-level ORDER BY compares them item by item).
      return new BridgeError(
          ErrorKind.UNSUPPORTED,
          "Calcite's engine cannot order a window's rows by ARRAY, MAP or ROW values; order by a"
              + " scalar expression, or run the statement on the duckdb backend",
          top);
    }
    if (c instanceof UnsupportedOperationException && c.getMessage() != null) {
      // Without a message it is a bug (an immutable collection changed, say), not a construct
      // we do not support: it falls through to an internal error naming the class.
      return new BridgeError(ErrorKind.UNSUPPORTED, c.getMessage(), top);
    }
    if (c.getClass().getName().startsWith("org.codehaus.")) {
      while (c.getCause() != null && c.getCause() != c) {
        c = c.getCause();
      }
      String m = c.getMessage() == null ? c.toString() : firstLine(c.getMessage());
      if (tooLarge(m)) {
        // Janino: a method past the JVM's 64 KB limit (a huge IN list or OR chain).
        return new BridgeError(
            ErrorKind.UNSUPPORTED, "The statement is too large to compile: " + m, top);
      }
      // Any other compile error is one of the code Calcite generated for the statement: an
      // operator implemented for other operand types than the statement's.
      return new BridgeError(ErrorKind.UNSUPPORTED, NO_IMPLEMENTATION, top);
    }
    return null;
  }

  /** Whether Janino's message {@code m} says a method or class is past the JVM's size limits. */
  private static boolean tooLarge(String m) {
    String lower = m.toLowerCase(java.util.Locale.ROOT);
    return lower.contains("too large")
        || lower.contains("too many")
        || lower.contains("64 kb")
        || lower.contains("grows beyond")
        || lower.contains("exceeds");
  }

  /** {@code t}, raised while rows were produced, translated and ready to cross a C stream. */
  public static StreamFailure forStream(Throwable t) {
    if (t instanceof StreamFailure) {
      return (StreamFailure) t;
    }
    return new StreamFailure(translateRunning(t));
  }

  /**
   * Source {@code source} failed with {@code t} while its rows were read; a source error stays as
   * it is.
   */
  public static SourceException sourceReadFailure(String source, Throwable t) {
    if (t instanceof SourceException) {
      return (SourceException) t;
    }
    BridgeError carried = null;
    for (Throwable c = t;
        c != null && carried == null;
        c = c.getCause() == c ? null : c.getCause()) {
      carried = CarriedError.decode(c.getMessage());
    }
    if (carried != null
        && (carried.errorKind() == ErrorKind.SOURCE
            || carried.errorKind() == ErrorKind.SOURCE_CONTRACT
            || carried.errorKind() == ErrorKind.ACCESS)) {
      // The source's side wrote the whole message (Python sources: with the exception's type).
      return new SourceException(carried.getMessage(), carried.errorKind(), carried.detail());
    }
    String message =
        carried != null
            ? carried.getMessage()
            : Errors.plainMessage(t.getMessage()).isEmpty()
                ? "its reader stopped"
                : Errors.plainMessage(t.getMessage());
    return new SourceException(
        "Source '" + source + "' failed while it was read: " + message,
        false,
        carried == null ? "" : carried.detail());
  }

  private static final java.util.regex.Pattern JAVA_PREFIX =
      java.util.regex.Pattern.compile(
          "^(?:\\[errno \\d+\\] )?(?:(?:[a-z_$][\\w$]*\\.)+[A-Z][\\w$]*:\\s*"
              + "|[\\w$.]*CDataJniException\\{errno=\\d+, message=)");

  /**
   * The text of a failure as a user should read it: its first line, without the Java class names
   * and C Data Interface wrappers that a failure read through an imported stream carries ({@code
   * [errno 5] CDataJniException{errno=5, message=java.io.IOException: lost the connection}}).
   */
  public static String plainMessage(@Nullable String message) {
    if (message == null || message.isBlank()) {
      return "";
    }
    String m = firstLine(message.strip()).strip();
    boolean wrapped = false;
    for (java.util.regex.Matcher x = JAVA_PREFIX.matcher(m); x.find(); x = JAVA_PREFIX.matcher(m)) {
      wrapped |= x.group().endsWith("message=");
      m = m.substring(x.end()).strip();
    }
    if (wrapped && m.endsWith("}")) {
      m = m.substring(0, m.length() - 1);
    }
    int detail = m.indexOf(". Detail: ");
    return detail >= 0 ? m.substring(0, detail) : m;
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

  /** Calcite's parse message made actionable ({@link ParseHints}), without the SQL text. */
  static String parseMessage(SqlParseException e) {
    return ParseHints.message(e, null);
  }

  /**
   * Translates a parse failure of {@code sql}: with the text, the message can name the misspelt
   * keyword ("did you mean SELECT?").
   */
  public static BridgeError translateParse(SqlParseException e, String sql) {
    return at(ErrorKind.PARSE, ParseHints.message(e, sql), e.getPos(), e);
  }
}

package io.calcitebridge.sql.parser.impl;

import java.io.IOException;
import java.io.Reader;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlAbstractParserImpl;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.util.SourceStringReader;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Parses statements with one generated parser per thread, reset for each statement, instead of a
 * new one each time. A new parser allocates its lookahead tables, its token manager and its
 * character buffers, and creates a {@code LookaheadSuccess} error, whose stack trace is filled in
 * as it is made. The generated parser is not thread-safe, hence one per thread; a parse that fails
 * drops its parser (it may have left state behind), and a parse that starts while the thread's
 * parser is busy (one parse inside another) gets a parser of its own.
 *
 * <p>The text is read through {@link StatementReader}, which signals its end with an exception made
 * once, without a stack trace: the generated character stream turned every read past the end (a few
 * a statement, as the lexer looks one character ahead) into a new {@code IOException} with the
 * stack trace of the parser's recursion.
 */
public final class ReusedParser {
  private static final ThreadLocal<ReusedParser> PER_THREAD =
      ThreadLocal.withInitial(ReusedParser::new);

  /** Statements longer than this get a parser of their own, so no thread keeps a large buffer. */
  private static final int MAX_KEPT_LENGTH = 16_384;

  private final SqlParser.Config config;
  private @Nullable Kept parser;
  private boolean busy;

  private ReusedParser() {
    this.config = io.calcitebridge.sql.BridgeParser.config().withParserFactory(this::parser);
  }

  /** Parses one statement of {@code sql} as {@code SqlParser.parseStmt} does. */
  public static SqlNode parseStatement(String sql) throws SqlParseException {
    ReusedParser reused = PER_THREAD.get();
    if (reused.busy || sql.length() > MAX_KEPT_LENGTH) {
      return parse(sql, io.calcitebridge.sql.BridgeParser.config());
    }
    reused.busy = true;
    boolean parsed = false;
    try {
      SqlNode node = parse(sql, reused.config);
      parsed = true;
      return node;
    } finally {
      reused.busy = false;
      if (!parsed) {
        reused.parser = null;
      }
    }
  }

  /**
   * Parses {@code sql} with {@code config}'s parser; a parse its statement's stop ended (a timeout,
   * a cancel: {@link StoppableTokens}) fails with the stop's error rather than as a parse error.
   */
  private static SqlNode parse(String sql, SqlParser.Config config) throws SqlParseException {
    try {
      return SqlParser.create(new StatementReader(sql), config).parseStmt();
    } catch (SqlParseException e) {
      io.calcitebridge.errors.Stop.checkCurrent();
      throw e;
    }
  }

  /** The thread's parser, reset to read {@code reader} (a {@link StatementReader}). */
  private SqlAbstractParserImpl parser(Reader reader) {
    String sql = ((SourceStringReader) reader).getSourceString();
    Kept p = parser;
    if (p == null) {
      p = new Kept(reader);
      parser = p;
    } else {
      p.token_source.lexicalStateStack.clear();
      p.clearCounts();
    }
    // As the generated factory does: the original text for error messages, a buffer that holds
    // the whole statement (kept at its size from one statement to the next when it fits).
    p.setOriginalSql(sql);
    char[] buffer = p.jj_input_stream.buffer;
    int size =
        buffer != null && buffer.length >= sql.length() ? buffer.length : Math.max(sql.length(), 1);
    SimpleCharStream stream = p.jj_input_stream;
    stream.ReInit(reader, 1, 1, size);
    // ReInit keeps how much of a kept buffer the last statement left usable: all of it is.
    stream.bufsize = stream.buffer.length;
    stream.available = stream.bufsize;
    p.ReInit(p.token_source);
    p.token_source.ReInit(p.jj_input_stream);
    return p;
  }

  /** The generated parser, with access to what its base class keeps from one statement. */
  private static final class Kept extends BridgeSqlParserImpl {
    Kept(Reader reader) {
      super(reader);
      StoppableTokens.install(this);
    }

    /** Forgets the last statement's warnings and its count of {@code ?} placeholders. */
    void clearCounts() {
      warnings.clear();
      nDynamicParams = 0;
    }
  }

  /**
   * The text of one statement, whose end is an exception made once for the reader, without a stack
   * trace, where a reader returns -1: the generated character stream then throws a new {@code
   * IOException} itself, and treats both alike (the end of the input).
   */
  static final class StatementReader extends SourceStringReader {
    private final IOException end =
        new IOException("end of the statement") {
          @Override
          public synchronized Throwable fillInStackTrace() {
            return this;
          }
        };

    StatementReader(String sql) {
      super(sql);
    }

    @Override
    public int read(char[] buffer, int offset, int length) throws IOException {
      int n = super.read(buffer, offset, length);
      if (n < 0) {
        throw end;
      }
      return n;
    }
  }
}

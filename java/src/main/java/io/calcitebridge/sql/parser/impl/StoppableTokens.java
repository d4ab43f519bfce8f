package io.calcitebridge.sql.parser.impl;

import java.io.Reader;
import org.apache.calcite.sql.parser.SqlAbstractParserImpl;
import org.apache.calcite.sql.parser.SqlParserImplFactory;

/**
 * The generated token manager, checking the statement's cancel flag ({@link
 * io.calcitebridge.errors.Stop#checkCurrent}) every 256 tokens it reads: the parser has no cancel
 * hook of its own, so a statement of 10^5 terms stopped by its timeout went on parsing for seconds
 * on its worker. The lookahead reads its tokens through here too.
 */
final class StoppableTokens extends BridgeSqlParserImplTokenManager {
  /** A parser factory as the generated one, whose parsers read through this token manager. */
  static final SqlParserImplFactory FACTORY =
      new SqlParserImplFactory() {
        @Override
        public SqlAbstractParserImpl getParser(Reader reader) {
          BridgeSqlParserImpl parser =
              (BridgeSqlParserImpl) BridgeSqlParserImpl.FACTORY.getParser(reader);
          install(parser);
          return parser;
        }
      };

  private int tokens;

  private StoppableTokens(SimpleCharStream stream) {
    super(stream);
  }

  @Override
  public Token getNextToken() {
    if ((++tokens & 255) == 0) {
      io.calcitebridge.errors.Stop.checkCurrent();
    }
    return super.getNextToken();
  }

  /** Gives {@code parser} a token manager of this kind over its character stream. */
  static void install(BridgeSqlParserImpl parser) {
    parser.token_source = new StoppableTokens(parser.jj_input_stream);
    parser.ReInit(parser.token_source);
  }
}

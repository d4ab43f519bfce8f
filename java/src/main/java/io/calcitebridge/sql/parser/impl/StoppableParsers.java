package io.calcitebridge.sql.parser.impl;

import org.apache.calcite.sql.parser.SqlParserImplFactory;

/** The factory of parsers that stop with their statement ({@link StoppableTokens}). */
public final class StoppableParsers {
  private StoppableParsers() {}

  /** Parsers of the generated grammar whose reading stops when the statement is stopped. */
  public static SqlParserImplFactory factory() {
    return StoppableTokens.FACTORY;
  }
}

package io.calcitebridge.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.calcitebridge.errors.BridgeError;
import io.calcitebridge.errors.ErrorKind;
import io.calcitebridge.errors.Stop;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.junit.jupiter.api.Test;

/**
 * Calcite's SQL-to-relational conversion has no cancel hook: each call it converts asks the
 * convertlet table, which stops a statement whose flag is set with the statement's error.
 */
class ConvertletsStopTest {
  private static final SqlCall OR =
      (SqlCall)
          SqlStdOperatorTable.OR.createCall(
              SqlParserPos.ZERO,
              SqlLiteral.createBoolean(true, SqlParserPos.ZERO),
              SqlLiteral.createBoolean(false, SqlParserPos.ZERO));

  @Test
  void aStoppedStatementStopsAtItsNextConvertedCall() {
    Stop stop = new Stop();
    Stop.setCurrent(stop);
    try {
      assertNotNull(Convertlets.INSTANCE.get(OR), "a running statement converts");
      stop.stop(ErrorKind.TIMEOUT, "The statement ran longer than its timeout");
      BridgeError e = assertThrows(BridgeError.class, () -> Convertlets.INSTANCE.get(OR));
      assertEquals("TIMEOUT", e.kind());
      assertEquals("The statement ran longer than its timeout", e.getMessage());
    } finally {
      Stop.setCurrent(null);
    }
    assertNotNull(Convertlets.INSTANCE.get(OR), "no statement's flag on this thread");
  }
}

package io.calcitebridge.errors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** How Java exceptions become the project's error kinds. */
class ErrorsTest {
  @Test
  void unsupportedOperationWithAMessageIsUnsupported() {
    BridgeError e = Errors.translate(new UnsupportedOperationException("MATCH_RECOGNIZE"));
    assertEquals(ErrorKind.UNSUPPORTED, e.errorKind());
    assertEquals("MATCH_RECOGNIZE", e.getMessage());
  }

  @Test
  void unsupportedOperationWithoutAMessageIsABugNamedByItsClass() {
    // What List.of(...).add(...) throws: not a construct the user wrote.
    BridgeError e = Errors.translate(new UnsupportedOperationException());
    assertEquals(ErrorKind.INTERNAL, e.errorKind());
    assertTrue(e.getMessage().contains("UnsupportedOperationException"), e.getMessage());
  }

  @Test
  void anArithmeticExceptionWithoutAMessageIsADivisionByZero() {
    // The JVM throws a preallocated ArithmeticException, without its "/ by zero" message, once a
    // division in compiled code has failed many times.
    BridgeError e = Errors.translate(new ArithmeticException());
    assertEquals(ErrorKind.EXECUTION, e.errorKind());
    assertEquals("Division by zero", e.getMessage());
  }

  @Test
  void aScalarSubQueryOfSeveralRowsIsAnExecutionError() {
    BridgeError e =
        Errors.translateRunning(
            new IllegalStateException("more than one value in agg SINGLE_VALUE"));
    assertEquals(ErrorKind.EXECUTION, e.errorKind());
    assertEquals(
        "The query failed while it ran: A scalar sub-query returned more than one row",
        e.getMessage());
  }
}

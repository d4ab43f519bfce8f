package io.calcitebridge.facade;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The session the agent makes as the JVM starts is taken once, and only once. */
class FirstSessionTest {
  @Test
  void theSessionMadeAtStartIsTakenOnceThenSessionsAreNew() throws Exception {
    FirstSession.premain(null);
    BridgeSession first = BridgeSession.takeFirst();
    assertNotNull(first);
    assertTrue(BridgeSession.firstTaken());
    assertNull(BridgeSession.takeFirst(), "taken twice");
    try (BridgeSession second = BridgeSession.open()) {
      assertNotSame(first, second);
      // The first answers as a new session does.
      assertSame(
          first.validateSchemaWithin("SELECT 1 AS x", 10_000).getClass(),
          second.validateSchemaWithin("SELECT 1 AS x", 10_000).getClass());
    } finally {
      first.close();
    }
  }

  @Test
  void withoutTheAgentOpenMakesASession() throws Exception {
    assertNull(BridgeSession.takeFirst());
    try (BridgeSession session = BridgeSession.open()) {
      assertNotNull(session);
    }
  }
}

package io.calcitebridge.facade;

import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A first {@link BridgeSession} made while the host's JVM binding is still starting.
 *
 * <p>Python starts its JVM with this jar as a Java agent ({@code -javaagent}), so {@link #premain}
 * runs as the JVM comes up. It starts one thread that makes a session, Calcite's first one: about a
 * tenth of a second of class initialisation. JPype spends about as long again, on the host's
 * thread, wrapping Java's core classes for Python before the host can ask for anything, and the two
 * run on two cores at once. The host's first {@link BridgeSession#open} then takes that session
 * instead of making its own. A JVM started without the agent (a Java program, a JVM the host did
 * not start) makes its first session in {@link BridgeSession#open} as before.
 *
 * <p>The session is the one {@code new BridgeSession()} makes: its constructor reads nothing the
 * host sets after the JVM started. If making it failed, the host's first {@code open} makes one
 * itself, which reports the failure where it is asked for. The session is kept by {@link
 * BridgeSession}, which the host calls anyway: each class it calls costs it a wrapper.
 */
public final class FirstSession {
  private FirstSession() {}

  /** The agent's entry point: starts making the first session. */
  public static void premain(@Nullable String args) {
    BridgeSession.makeFirst();
  }
}

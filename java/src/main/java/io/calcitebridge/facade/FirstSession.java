package io.calcitebridge.facade;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A first {@link BridgeSession} made while the host's JVM binding is still starting.
 *
 * <p>Python starts its JVM with this jar as a Java agent ({@code -javaagent}), so {@link #premain}
 * runs as the JVM comes up. It starts one thread that makes a session, Calcite's first one: about a
 * tenth of a second of class initialisation. JPype spends about as long again, on the host's
 * thread, wrapping Java's core classes for Python before the host can ask for anything, and the two
 * run on two cores at once. The host's first {@link #open} then takes that session instead of
 * making its own. A JVM started without the agent (a Java program, a JVM the host did not start)
 * makes its first session in {@link #open} as before.
 *
 * <p>The session is the one {@code new BridgeSession()} makes: its constructor reads nothing the
 * host sets after the JVM started. If making it failed, {@link #take} answers null and the caller
 * makes one itself, which reports the failure where it is asked for.
 */
public final class FirstSession {
  private static @Nullable FutureTask<BridgeSession> made;

  private static volatile boolean taken;

  private FirstSession() {}

  /** The agent's entry point: starts making the first session. */
  public static void premain(@Nullable String args) {
    FutureTask<BridgeSession> task = new FutureTask<>(BridgeSession::new);
    synchronized (FirstSession.class) {
      made = task;
    }
    Thread thread = new Thread(task, "calcite-bridge-first-session");
    thread.setDaemon(true);
    thread.start();
  }

  /**
   * A new session: the one made as the JVM started, when the host started it with this jar as an
   * agent and has not taken it yet, else {@code new BridgeSession()}.
   */
  public static BridgeSession open() {
    BridgeSession first = take();
    return first != null ? first : new BridgeSession();
  }

  /** Whether a session made as the JVM started was taken ({@code doctor} and tests ask). */
  public static boolean taken() {
    return taken;
  }

  /**
   * The session made as the JVM started, waiting for it if it is still being made; null when none
   * was started, it was taken already, or making it failed. Taken once.
   */
  static @Nullable BridgeSession take() {
    FutureTask<BridgeSession> task;
    synchronized (FirstSession.class) {
      task = made;
      made = null;
    }
    if (task == null) {
      return null;
    }
    try {
      BridgeSession session = task.get();
      taken = true;
      return session;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    } catch (ExecutionException e) {
      return null;
    }
  }
}

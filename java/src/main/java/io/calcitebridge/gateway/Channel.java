package io.calcitebridge.gateway;

import io.calcitebridge.facade.BridgeSession;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import py4j.DefaultGatewayServerListener;
import py4j.GatewayServer;
import py4j.Py4JServerConnection;

/**
 * The private line of one Python client: a py4j server of its own, on an ephemeral port, whose
 * callbacks reach that client's Python process (py4j has one callback address per server). It
 * closes when the client says so, or once no connection from it has been open for {@link
 * #IDLE_SECONDS} (the client process ended); closing drops the tables of its sessions.
 */
public final class Channel {
  /** How long a channel without any connection lives on. */
  static final long IDLE_SECONDS = 30;

  private static final ScheduledExecutorService TIMER =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "calcite-bridge-gateway-timer");
            t.setDaemon(true);
            return t;
          });

  private final GatewayServer server;
  private final boolean allowRemote;
  // Weak: a session the client dropped without closing goes once py4j lets go of it.
  private final Set<RemoteSession> sessions =
      Collections.synchronizedSet(Collections.newSetFromMap(new WeakHashMap<>()));
  private final AtomicInteger connections = new AtomicInteger();
  private final AtomicBoolean closed = new AtomicBoolean();
  private volatile long idleSince = System.nanoTime();
  private final Runnable onClose;

  Channel(InetAddress address, String token, boolean allowRemote, Runnable onClose) {
    this.allowRemote = allowRemote;
    this.onClose = onClose;
    this.server =
        new GatewayServer.GatewayServerBuilder(this)
            .javaPort(0)
            .javaAddress(address)
            .authToken(token)
            .callbackClient(GatewayServer.DEFAULT_PYTHON_PORT, address, token)
            .build();
    server.addListener(new Listener());
    server.start(true);
    closeIfIdle();
  }

  int port() {
    return server.getListeningPort();
  }

  /** The version of the jar, which the client compares with its own. */
  public String version() {
    return BridgeSession.version();
  }

  /** Where the client's callback server listens, for its Python sources and connectors. */
  public void listen(String host, int port) throws UnknownHostException {
    InetAddress address = InetAddress.getByName(host);
    if (!allowRemote && !address.isLoopbackAddress()) {
      throw new IllegalArgumentException(
          "This gateway serves loopback clients only; refusing callbacks to " + host);
    }
    server.resetCallbackClient(address, port);
  }

  /** A new session: its own catalog and configuration. */
  public RemoteSession newSession() {
    RemoteSession session = new RemoteSession();
    sessions.add(session);
    return session;
  }

  /** Closes the channel once the current call has been answered. */
  public void close() {
    TIMER.schedule(this::shutdown, 50, TimeUnit.MILLISECONDS);
  }

  void shutdown() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    List<RemoteSession> open;
    synchronized (sessions) {
      open = List.copyOf(sessions);
    }
    for (RemoteSession session : open) {
      try {
        session.close();
      } catch (RuntimeException e) {
        // the client is gone; nothing to report to
      }
    }
    sessions.clear();
    server.shutdown();
    onClose.run();
  }

  private void closeIfIdle() {
    TIMER.schedule(
        () -> {
          long idle = System.nanoTime() - idleSince;
          if (connections.get() == 0 && idle >= TimeUnit.SECONDS.toNanos(IDLE_SECONDS) - 1) {
            shutdown();
          }
        },
        IDLE_SECONDS,
        TimeUnit.SECONDS);
  }

  private final class Listener extends DefaultGatewayServerListener {
    @Override
    public void connectionStarted(Py4JServerConnection connection) {
      connections.incrementAndGet();
    }

    @Override
    public void connectionStopped(Py4JServerConnection connection) {
      if (connections.decrementAndGet() == 0) {
        idleSince = System.nanoTime();
        closeIfIdle();
      }
    }
  }
}

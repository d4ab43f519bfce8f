package io.calcitebridge.gateway;

import io.calcitebridge.facade.BridgeSession;
import io.calcitebridge.facade.IdleWarmUp;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import py4j.GatewayServer;

/**
 * A py4j gateway through which Python processes use this JVM: {@code cb.connect(gateway=
 * "127.0.0.1:PORT", token=...)} in Python gets an Environment whose statements run here.
 *
 * <p>It listens on a loopback address only, unless {@code allowRemote} is set, and every connection
 * must present the token. Start it from Java with {@link #start}, or from a shell with {@code java
 * --add-opens=java.base/java.nio=ALL-UNNAMED -cp calcite-bridge.jar
 * io.calcitebridge.gateway.BridgeGateway [--host H] [--port P] [--token T | --token-file F]
 * [--allow-remote]}.
 */
public final class BridgeGateway implements AutoCloseable {
  /** The shortest token a gateway accepts, in bytes (UTF-8): a shorter one can be guessed. */
  public static final int MIN_TOKEN_BYTES = 16;

  private final InetAddress address;
  private final String token;
  private final boolean allowRemote;
  private final GatewayServer server;
  private final Set<Channel> channels = ConcurrentHashMap.newKeySet();

  private BridgeGateway(InetAddress address, int port, String token, boolean allowRemote) {
    this.address = address;
    this.token = token;
    this.allowRemote = allowRemote;
    this.server =
        new GatewayServer.GatewayServerBuilder(new GatewayEntry(this::openChannel))
            .javaPort(port)
            .javaAddress(address)
            .authToken(token)
            .build();
  }

  /**
   * Starts a gateway on {@code host} and {@code port} (0 for an ephemeral one; see {@link #port}).
   * A {@code host} that is not a loopback address is refused unless {@code allowRemote}.
   *
   * @throws IllegalArgumentException for a token shorter than {@link #MIN_TOKEN_BYTES} bytes, an
   *     unknown host, or a non-loopback host without {@code allowRemote}
   * @throws IllegalStateException if the port cannot be bound
   */
  public static BridgeGateway start(String host, int port, String token, boolean allowRemote) {
    if (token == null || token.isBlank()) {
      throw new IllegalArgumentException("A gateway needs an auth token; none was given");
    }
    int length = token.getBytes(StandardCharsets.UTF_8).length;
    if (length < MIN_TOKEN_BYTES) {
      throw new IllegalArgumentException(
          "The token is "
              + length
              + " bytes long; a gateway needs one of at least "
              + MIN_TOKEN_BYTES
              + " bytes, because a short token can be guessed by trying. Use a random one (the"
              + " gateway makes one when none is given)");
    }
    InetAddress address;
    try {
      address = InetAddress.getByName(host);
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("Unknown host '" + host + "'", e);
    }
    if (!allowRemote && !address.isLoopbackAddress()) {
      throw new IllegalArgumentException(
          "The gateway listens on loopback addresses only (such as 127.0.0.1); '"
              + host
              + "' is not one. Allow remote clients explicitly (allowRemote, --allow-remote), "
              + "and protect the port, to listen there");
    }
    GatewayServer.turnLoggingOff();
    int idleWarmUp = IdleWarmUp.statementsFrom(System.getenv(IdleWarmUp.SETTING));
    BridgeSession.warmUp("", idleWarmUp);
    BridgeGateway gateway = new BridgeGateway(address, port, token, allowRemote);
    try {
      gateway.server.start(true);
    } catch (RuntimeException e) {
      gateway.server.shutdown(); // its callback client has a thread that would keep the JVM up
      throw new IllegalStateException(
          "Could not listen on " + host + ":" + port + ": " + e.getMessage(), e);
    }
    return gateway;
  }

  /** Starts a gateway on 127.0.0.1. */
  public static BridgeGateway start(int port, String token) {
    return start("127.0.0.1", port, token, false);
  }

  /** The port the gateway listens on. */
  public int port() {
    return server.getListeningPort();
  }

  /** The address the gateway listens on. */
  public String host() {
    return address.getHostAddress();
  }

  /** {@code host:port}, as {@code cb.connect(gateway=...)} takes it. */
  public String address() {
    String host = host();
    return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port();
  }

  Channel openChannel() {
    Channel[] opened = new Channel[1];
    opened[0] = new Channel(address, token, allowRemote, () -> channels.remove(opened[0]));
    channels.add(opened[0]);
    return opened[0];
  }

  /** Stops listening and closes every client's channel (dropping their tables). */
  @Override
  public void close() {
    server.shutdown();
    for (Channel channel : List.copyOf(channels)) {
      channel.shutdown();
    }
  }

  /** Runs a gateway until the process is stopped (Ctrl-C, SIGTERM). */
  public static void main(String[] args) throws IOException, InterruptedException {
    String host = "127.0.0.1";
    int port = 0;
    String token = null;
    boolean allowRemote = false;
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      switch (arg) {
        case "--host" -> host = value(args, ++i, arg);
        case "--port" -> port = Integer.parseInt(value(args, ++i, arg));
        case "--token" -> token = value(args, ++i, arg);
        case "--token-file" -> token = readTokenFile(Path.of(value(args, ++i, arg)));
        case "--allow-remote" -> allowRemote = true;
        default -> {
          System.err.println(
              "usage: BridgeGateway [--host H] [--port P] [--token T | --token-file F]"
                  + " [--allow-remote]");
          System.exit(2);
        }
      }
    }
    boolean generated = token == null;
    if (generated) {
      byte[] bytes = new byte[24];
      new SecureRandom().nextBytes(bytes);
      token = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
    BridgeGateway gateway;
    try {
      gateway = start(host, port, token, allowRemote);
    } catch (IllegalArgumentException | IllegalStateException e) {
      System.err.println("GatewayError: " + e.getMessage());
      System.exit(1);
      return;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  gateway.close();
                  stopped.countDown();
                }));
    System.out.println("calcite-bridge gateway listening on " + gateway.address());
    if (generated) {
      System.out.println("token: " + token);
    }
    System.out.flush();
    stopped.await();
  }

  /**
   * The token in {@code file}, refused when the file is readable or writable by group or others:
   * anyone who can read it can use the gateway, and anyone who can write it can replace the token.
   */
  static String readTokenFile(Path file) throws IOException {
    try {
      Set<PosixFilePermission> perms = Files.getPosixFilePermissions(file);
      Set<PosixFilePermission> open =
          EnumSet.of(
              PosixFilePermission.GROUP_READ,
              PosixFilePermission.GROUP_WRITE,
              PosixFilePermission.OTHERS_READ,
              PosixFilePermission.OTHERS_WRITE);
      open.retainAll(perms);
      if (!open.isEmpty()) {
        System.err.println(
            "GatewayError: the token file "
                + file
                + " is "
                + PosixFilePermissions.toString(perms)
                + ": other users can read or change the token in it. Make it its owner's only"
                + " (chmod 600 "
                + file
                + ")");
        System.exit(1);
      }
    } catch (UnsupportedOperationException e) {
      // not a POSIX file system: nothing to check
    }
    return Files.readString(file, StandardCharsets.UTF_8).trim();
  }

  private static String value(String[] args, int i, String option) {
    if (i >= args.length) {
      System.err.println(option + " needs a value");
      System.exit(2);
    }
    return args[i];
  }
}

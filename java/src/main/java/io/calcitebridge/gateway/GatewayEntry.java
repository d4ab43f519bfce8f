package io.calcitebridge.gateway;

import io.calcitebridge.facade.BridgeSession;
import java.util.function.Supplier;

/**
 * What a Python client finds at the gateway's address: the version, and a channel of its own (see
 * {@link Channel}) where its sessions live.
 */
public final class GatewayEntry {
  private final Supplier<Channel> channels;

  /** An entry whose {@link #openChannel} opens a channel with {@code channels}. */
  GatewayEntry(Supplier<Channel> channels) {
    this.channels = channels;
  }

  /** The version of the jar, which the client compares with its own. */
  public String version() {
    return BridgeSession.version();
  }

  /** Opens a channel for the calling client; returns its port, on the gateway's address. */
  public int openChannel() {
    return channels.get().port();
  }
}

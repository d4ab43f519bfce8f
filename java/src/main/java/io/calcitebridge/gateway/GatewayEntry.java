package io.calcitebridge.gateway;

import io.calcitebridge.facade.BridgeSession;

/**
 * What a Python client finds at the gateway's address: the version, and a channel of its own (see
 * {@link Channel}) where its sessions live.
 */
public final class GatewayEntry {
  private final BridgeGateway gateway;

  GatewayEntry(BridgeGateway gateway) {
    this.gateway = gateway;
  }

  /** The version of the jar, which the client compares with its own. */
  public String version() {
    return BridgeSession.version();
  }

  /** Opens a channel for the calling client; returns its port, on the gateway's address. */
  public int openChannel() {
    return gateway.openChannel().port();
  }
}

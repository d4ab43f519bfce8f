/**
 * The py4j transport: a gateway that Python processes reach over a socket, for a JVM that is
 * already running (a service, or a Java application beside a notebook). {@link BridgeGateway}
 * starts it; each Python client gets its own channel (a py4j server of its own, so that Python
 * callbacks reach the right process) whose sessions wrap {@link
 * io.calcitebridge.facade.BridgeSession}. Results and source data cross as Arrow IPC stream bytes.
 *
 * <p>Only {@link BridgeGateway} is public API; the other classes are the gateway's wire protocol
 * with the Python client, internal, and may change without notice.
 */
package io.calcitebridge.gateway;

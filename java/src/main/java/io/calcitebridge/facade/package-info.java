/**
 * The classes Python (and the public {@link io.calcitebridge.api.BridgeEnvironment}) call. Methods
 * are coarse and take plain arguments: SQL text, names, and addresses of Arrow C structs. Failures
 * arrive as {@link io.calcitebridge.api.BridgeException} with a kind and a SQL position.
 *
 * <p>Internal: not part of the public API (see {@link io.calcitebridge.api}); it may change without
 * notice.
 */
package io.calcitebridge.facade;

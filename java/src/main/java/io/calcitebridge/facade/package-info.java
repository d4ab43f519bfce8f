/**
 * The only classes Python calls. Methods are coarse and take plain arguments: SQL text, names, and
 * addresses of Arrow C structs. Failures arrive as {@link io.calcitebridge.api.BridgeException}
 * with a kind and a SQL position.
 */
package io.calcitebridge.facade;

/**
 * Java side of the built-in connectors ({@code memory}, Arrow tables registered from Python).
 *
 * <p>Internal: not part of the public API (see {@link io.calcitebridge.api}); it may change without
 * notice.
 */
package io.calcitebridge.connector;

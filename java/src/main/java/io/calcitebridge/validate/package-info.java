/**
 * {@link io.calcitebridge.validate.BridgeSqlValidator}: star expansion and field discovery.
 *
 * <p>Internal: not part of the public API (see {@link io.calcitebridge.api}); it may change without
 * notice.
 */
package io.calcitebridge.validate;

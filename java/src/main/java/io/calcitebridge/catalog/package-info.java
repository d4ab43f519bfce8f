/**
 * Tables, columns (physical, computed, metadata) and views of an environment.
 *
 * <p>Internal: not part of the public API (see {@link io.calcitebridge.api}); it may change without
 * notice.
 */
package io.calcitebridge.catalog;

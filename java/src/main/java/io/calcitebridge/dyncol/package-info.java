/**
 * MariaDB-compatible dynamic columns: the binary format, the {@code COLUMN_*} functions and the
 * conversions {@code COLUMN_GET} applies.
 *
 * <p>Internal: not part of the public API (see {@link io.calcitebridge.api}); it may change without
 * notice.
 */
package io.calcitebridge.dyncol;

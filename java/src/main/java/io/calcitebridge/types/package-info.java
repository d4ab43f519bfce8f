/**
 * SQL types: the type system, the rendering of types the way users write them, and the mapping
 * between Calcite row types and Arrow schemas.
 *
 * <p>Internal: not part of the public API (see {@link io.calcitebridge.api}); it may change without
 * notice.
 */
package io.calcitebridge.types;

/**
 * SQL types: the type system, the rendering of types the way users write them, and the mapping
 * between Calcite row types and Arrow schemas.
 */
package io.calcitebridge.types;

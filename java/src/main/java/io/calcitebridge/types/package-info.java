/**
 * Type mapping between Calcite's {@link org.apache.calcite.rel.type.RelDataType} and Arrow's
 * {@link org.apache.arrow.vector.types.pojo.Field} and
 * {@link org.apache.arrow.vector.types.pojo.Schema}; see {@link io.calcitebridge.types.ArrowTypes}.
 */
package io.calcitebridge.types;

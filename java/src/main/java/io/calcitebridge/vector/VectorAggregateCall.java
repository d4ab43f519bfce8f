package io.calcitebridge.vector;

import org.apache.calcite.sql.type.SqlTypeName;

/**
 * One aggregate call of {@link VectorAggregates}: {@code arg} is a column of the scan (unused for
 * {@code COUNT(*)}), {@code type} the SQL type of the result.
 */
public record VectorAggregateCall(VectorAggregateKind kind, int arg, SqlTypeName type) {}

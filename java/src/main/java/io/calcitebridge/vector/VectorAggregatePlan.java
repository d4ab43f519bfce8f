package io.calcitebridge.vector;

import io.calcitebridge.catalog.CatalogTable;
import io.calcitebridge.expr.Expression;
import java.util.List;
import org.apache.calcite.sql.type.SqlTypeName;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * What {@link VectorAggregates} runs: a scan of a source (the filters it accepted, the columns it
 * reads as index paths or a projection) and the aggregates to compute over its rows. The first
 * {@code keys.size()} columns of the scan are the GROUP BY keys, of SQL types {@code keys}; none
 * without GROUP BY.
 */
public record VectorAggregatePlan(
    CatalogTable table,
    List<Expression> filters,
    int @Nullable [] projection,
    @Nullable List<List<Integer>> nested,
    List<SqlTypeName> keys,
    List<VectorAggregateCall> calls) {}

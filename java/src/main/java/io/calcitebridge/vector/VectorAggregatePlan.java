package io.calcitebridge.vector;

import io.calcitebridge.catalog.CatalogTable;
import io.calcitebridge.expr.Expression;
import java.util.List;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * What {@link VectorAggregates} runs: a scan of a source (the filters it accepted, the columns it
 * reads as index paths or a projection) and the aggregates to compute over all its rows.
 */
public record VectorAggregatePlan(
    CatalogTable table,
    List<Expression> filters,
    int @Nullable [] projection,
    @Nullable List<List<Integer>> nested,
    List<VectorAggregateCall> calls) {}

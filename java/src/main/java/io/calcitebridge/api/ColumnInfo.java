package io.calcitebridge.api;

import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * One column of a table or view, as {@code DESCRIBE} lists it ({@link BridgeEnvironment#describe}).
 *
 * @param name the column name
 * @param dataType its SQL type as DDL writes it ({@code INT}, {@code ROW<city STRING, zip INT>},
 *     {@code TIMESTAMP_LTZ(3)}), without {@code NOT NULL}
 * @param nullable whether the column may hold NULL
 * @param kind {@code PHYSICAL}, {@code COMPUTED}, {@code METADATA}, or {@code SHADOW} for the
 *     hidden column that stores a table's dynamic columns
 * @param metadataKey the key a {@code METADATA} column reads; null for other kinds
 * @param virtual whether a {@code METADATA} column is {@code VIRTUAL} (read-only); null for other
 *     kinds
 * @param expression the expression of a {@code COMPUTED} column; null for other kinds
 */
public record ColumnInfo(
    String name,
    String dataType,
    boolean nullable,
    String kind,
    @Nullable String metadataKey,
    @Nullable Boolean virtual,
    @Nullable String expression) {}

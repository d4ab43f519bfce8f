/**
 * Functions of ours that another engine calls on Arrow batches: {@link
 * io.calcitebridge.udf.DynColUdf} computes a {@code COLUMN_*} call over a batch handed over through
 * the Arrow C Data Interface, for the DuckDB backend's user-defined functions.
 *
 * <p>Internal: not part of the public API (see {@link io.calcitebridge.api}); it may change without
 * notice.
 */
package io.calcitebridge.udf;

package io.calcitebridge.catalog;

/**
 * A table of the catalog as the stages above see it: its definition and the storage behind it.
 * Calcite's {@code Table} objects that the catalog holds implement it, and the validator and the
 * planner reach them through {@code unwrap(CatalogTable.class)}.
 */
public interface CatalogTable extends AutoCloseable {
  /** The definition from the DDL (or from the registered source's schema). */
  TableDef def();

  /** The data behind the table. */
  TableStorage storage();

  /** Frees the storage; called when the table is dropped. */
  @Override
  default void close() {
    storage().close();
  }
}

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

  /**
   * This table as a statement reads it with an {@code OPTIONS} hint: its storage opened from its
   * {@code WITH} options with {@code hinted} laid over them, as Flink's dynamic table options are.
   * Fails with an {@link IllegalArgumentException} carrying the connector's message when the merged
   * options are refused; a table declared by no DDL (registered from Python or Java) has no options
   * to lay them over.
   */
  default CatalogTable withOptions(java.util.Map<String, String> hinted) {
    throw new IllegalArgumentException(
        "Table '"
            + def().name()
            + "' was registered, not declared by CREATE TABLE: it has no connector options for an"
            + " OPTIONS hint to override");
  }

  /** Frees the storage; called when the table is dropped. */
  @Override
  default void close() {
    storage().close();
  }
}

package io.calcitebridge.catalog;

import java.util.List;
import org.apache.calcite.linq4j.Enumerable;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The data behind a catalog table, as a connector provides it.
 *
 * <p>Rows use Calcite's runtime representation (see {@code io.calcitebridge.arrow}).
 */
public interface TableStorage extends AutoCloseable {
  /** The rows of the table's scanned columns (physical and metadata), in declaration order. */
  Enumerable<Object[]> scan();

  /**
   * The rows for which every one of {@code filters} (which this storage accepted at plan time) is
   * true; storages without filter pushdown never receive any.
   */
  default Enumerable<Object[]> scan(java.util.List<io.calcitebridge.expr.Expression> filters) {
    if (!filters.isEmpty()) {
      throw new IllegalStateException("this table takes no filters");
    }
    return scan();
  }

  /**
   * As {@link #scan(java.util.List)}, keeping only the scanned columns at {@code projection}
   * (indices into the scanned columns, in order), or every column when it is null.
   */
  default Enumerable<Object[]> scan(
      java.util.List<io.calcitebridge.expr.Expression> filters, int @Nullable [] projection) {
    Enumerable<Object[]> rows = scan(filters);
    if (projection == null) {
      return rows;
    }
    return rows.select(
        r -> {
          Object[] out = new Object[projection.length];
          for (int i = 0; i < projection.length; i++) {
            out[i] = r[projection[i]];
          }
          return out;
        });
  }

  /**
   * Appends rows given in the order of the table's writable columns. Either every row is appended
   * or, when this throws, none is.
   *
   * @return the number of rows appended
   */
  long insert(List<Object[]> rows);

  /**
   * As {@link #scan(java.util.List, int[])}; the storage may stop after {@code limit} rows (a hint:
   * the LIMIT is applied again above the scan).
   */
  default Enumerable<Object[]> scan(
      java.util.List<io.calcitebridge.expr.Expression> filters,
      int @Nullable [] projection,
      @Nullable Integer limit) {
    return scan(filters, projection);
  }

  /**
   * Whether a LIMIT above the scan is worth handing to {@link #scan(java.util.List, int[],
   * Integer)}: the storage stops reading there (an unbounded generator must).
   */
  default boolean takesLimit() {
    return false;
  }

  /** This storage serving the columns of {@code def} (a statement's discovered columns added). */
  default TableStorage forDef(TableDef def) {
    return this;
  }

  /** Whether this storage answers field discovery ({@code SupportsDynamicColumns}). */
  default boolean discovers() {
    return false;
  }

  /** The type (as DDL writes it) of column {@code name}, which no DDL declares, or null. */
  default @Nullable String discover(String name) {
    return null;
  }

  /** Whether {@link #insert} is supported. */
  default boolean isWritable() {
    return true;
  }

  @Override
  default void close() {}
}

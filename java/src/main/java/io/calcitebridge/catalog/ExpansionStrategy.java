package io.calcitebridge.catalog;

import java.util.List;

/**
 * The kinds of column that {@code table.column-expansion-strategy} keeps out of {@code SELECT *}
 * (DESIGN §5).
 */
public enum ExpansionStrategy {
  EXCLUDE_DEFAULT_VIRTUAL_METADATA_COLUMNS,
  EXCLUDE_ALIASED_VIRTUAL_METADATA_COLUMNS,
  EXCLUDE_COMPUTED_COLUMNS,
  EXCLUDE_PERSISTED_METADATA_COLUMNS;

  /** Whether this value keeps {@code column} out of {@code *}. */
  public boolean hides(ColumnDef column) {
    switch (this) {
      case EXCLUDE_DEFAULT_VIRTUAL_METADATA_COLUMNS:
        return column.isMetadata() && column.virtual() && !column.aliased();
      case EXCLUDE_ALIASED_VIRTUAL_METADATA_COLUMNS:
        return column.isMetadata() && column.virtual() && column.aliased();
      case EXCLUDE_COMPUTED_COLUMNS:
        return column.kind() == ColumnKind.COMPUTED;
      case EXCLUDE_PERSISTED_METADATA_COLUMNS:
        return column.isMetadata() && !column.virtual();
      default:
        throw new AssertionError(this);
    }
  }

  /** Whether any of {@code strategy} keeps {@code column} out of {@code *}. */
  public static boolean isHidden(ColumnDef column, List<ExpansionStrategy> strategy) {
    for (ExpansionStrategy s : strategy) {
      if (s.hides(column)) {
        return true;
      }
    }
    return false;
  }
}

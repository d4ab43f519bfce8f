package io.calcitebridge.catalog;

import java.util.Objects;
import org.apache.calcite.rel.type.RelDataType;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * One declared column of a catalog table.
 *
 * @param name the column name, case-sensitive
 * @param kind physical, computed or metadata
 * @param type the SQL type; for a computed column, the type derived from its expression
 * @param metadataKey for a metadata column, the key it reads (its own name unless {@code FROM})
 * @param aliased whether a metadata column names its key with {@code FROM 'key'}
 * @param virtual whether a metadata column is read-only ({@code VIRTUAL})
 * @param expression for a computed column, its SQL expression text
 */
public record ColumnDef(
    String name,
    ColumnKind kind,
    RelDataType type,
    @Nullable String metadataKey,
    boolean aliased,
    boolean virtual,
    @Nullable String expression) {

  public ColumnDef {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(type, "type");
  }

  public static ColumnDef physical(String name, RelDataType type) {
    return new ColumnDef(name, ColumnKind.PHYSICAL, type, null, false, false, null);
  }

  public static ColumnDef computed(String name, RelDataType type, String expression) {
    return new ColumnDef(name, ColumnKind.COMPUTED, type, null, false, true, expression);
  }

  public static ColumnDef dynamic(String name, RelDataType type) {
    return new ColumnDef(name, ColumnKind.DYNAMIC, type, null, false, false, null);
  }

  /** The name of the shadow column that stores dynamic columns. */
  public static final String SHADOW_NAME = "_dynamic";

  public static ColumnDef shadow(RelDataType bytesType) {
    return new ColumnDef(SHADOW_NAME, ColumnKind.SHADOW, bytesType, null, false, false, null);
  }

  public static ColumnDef metadata(
      String name, RelDataType type, @Nullable String fromKey, boolean virtual) {
    return new ColumnDef(
        name,
        ColumnKind.METADATA,
        type,
        fromKey == null ? name : fromKey,
        fromKey != null,
        virtual,
        null);
  }

  /** Whether this is a metadata column. */
  public boolean isMetadata() {
    return kind == ColumnKind.METADATA;
  }

  /** Whether the scan of the table produces this column (everything but computed columns). */
  public boolean isScanned() {
    return kind != ColumnKind.COMPUTED;
  }

  /** Whether an INSERT can write this column: physical and persisted metadata columns. */
  public boolean isWritable() {
    return kind == ColumnKind.PHYSICAL
        || kind == ColumnKind.SHADOW
        || (kind == ColumnKind.METADATA && !virtual);
  }

  /** The column's kind as DESCRIBE shows it. */
  public String describeKind() {
    switch (kind) {
      case PHYSICAL:
        return "PHYSICAL";
      case COMPUTED:
        return "COMPUTED";
      case DYNAMIC:
        return "DYNAMIC";
      case SHADOW:
        return "SHADOW";
      default:
        return virtual ? "METADATA VIRTUAL" : "METADATA";
    }
  }
}

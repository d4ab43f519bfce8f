package io.calcitebridge.connector;

import io.calcitebridge.catalog.ColumnDef;
import io.calcitebridge.catalog.ColumnKind;
import io.calcitebridge.catalog.TableDef;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The {@code memory} connector: an in-process table; INSERT appends.
 *
 * <p>Metadata keys: {@code timestamp} (the insert time unless written), {@code offset} (the row
 * position, read-only) and any other key the DDL declares (NULL until written). An INSERT builds
 * the new row list aside and publishes it with one reference swap, so a failed INSERT changes
 * nothing and a reader sees the rows before or after it, never half of them.
 */
public final class MemoryTable implements TableStorage {
  /** Metadata keys with a meaning of their own; every other key is free-form. */
  public static final String TIMESTAMP = "timestamp";

  public static final String OFFSET = "offset";

  private final TableDef def;
  private final List<ColumnDef> writable;
  private volatile List<StoredRow> rows = List.of();

  private record StoredRow(Object[] values, long insertTime) {}

  public MemoryTable(TableDef def) {
    this.def = def;
    this.writable = def.writableColumns();
  }

  /** Checks that every metadata column of {@code def} can be served by this connector. */
  public static void validate(TableDef def) {
    for (ColumnDef c : def.columns()) {
      if (c.kind() == ColumnKind.METADATA && OFFSET.equals(c.metadataKey()) && !c.virtual()) {
        throw new IllegalArgumentException(
            "Metadata key 'offset' of column '" + c.name() + "' is read-only; declare it VIRTUAL");
      }
    }
  }

  @Override
  public Enumerable<Object[]> scan() {
    final List<StoredRow> snapshot = rows;
    final List<ColumnDef> scanned = def.scannedColumns();
    final List<Object[]> out = new ArrayList<>(snapshot.size());
    for (int r = 0; r < snapshot.size(); r++) {
      StoredRow row = snapshot.get(r);
      Object[] values = new Object[scanned.size()];
      for (int i = 0; i < values.length; i++) {
        ColumnDef c = scanned.get(i);
        values[i] =
            c.kind() == ColumnKind.PHYSICAL
                ? row.values[writable.indexOf(c)]
                : metadata(c.metadataKey(), row, r);
      }
      out.add(values);
    }
    return Linq4j.asEnumerable(out);
  }

  private @Nullable Object metadata(@Nullable String key, StoredRow row, int position) {
    if (OFFSET.equals(key)) {
      return (long) position;
    }
    Object written = null;
    for (int i = 0; i < writable.size(); i++) {
      ColumnDef c = writable.get(i);
      if (c.kind() == ColumnKind.METADATA && c.metadataKey().equals(key)) {
        written = row.values[i];
        if (written != null) {
          break;
        }
      }
    }
    if (written == null && TIMESTAMP.equals(key)) {
      return row.insertTime;
    }
    return written;
  }

  @Override
  public synchronized long insert(List<Object[]> newRows) {
    final long now = System.currentTimeMillis();
    final List<StoredRow> next = new ArrayList<>(rows.size() + newRows.size());
    next.addAll(rows);
    for (Object[] values : newRows) {
      if (values.length != writable.size()) {
        throw new IllegalStateException(
            "INSERT row has " + values.length + " values; expected " + writable.size());
      }
      for (int i = 0; i < values.length; i++) {
        if (values[i] == null && !writable.get(i).type().isNullable()) {
          throw new IllegalArgumentException(
              "Column '" + writable.get(i).name() + "' is NOT NULL; the INSERT gives it NULL");
        }
      }
      next.add(new StoredRow(values.clone(), now));
    }
    rows = Collections.unmodifiableList(next);
    return newRows.size();
  }

  /** The number of rows. */
  public int size() {
    return rows.size();
  }
}

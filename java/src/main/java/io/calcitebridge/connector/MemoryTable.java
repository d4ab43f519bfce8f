package io.calcitebridge.connector;

import io.calcitebridge.catalog.ColumnDef;
import io.calcitebridge.catalog.ColumnKind;
import io.calcitebridge.catalog.RowLevelStorage;
import io.calcitebridge.catalog.TableDef;
import io.calcitebridge.catalog.TableStorage;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The {@code memory} connector: an in-process table; INSERT appends.
 *
 * <p>Metadata keys: {@code timestamp} (the insert time unless written), {@code offset} (the row
 * position, read-only) and any other key the DDL declares (NULL until written). An INSERT builds
 * the new row list aside and publishes it with one reference swap, so a failed INSERT changes
 * nothing and a reader sees the rows before or after it, never half of them. UPDATE and DELETE
 * publish the table's new rows the same way; a row keeps its insert time.
 */
public final class MemoryTable implements TableStorage, RowLevelStorage {
  /** Metadata keys with a meaning of their own; every other key is free-form. */
  public static final String TIMESTAMP = "timestamp";

  public static final String OFFSET = "offset";

  private final TableDef def;
  private final List<ColumnDef> writable;
  private final AtomicReference<List<StoredRow>> rows;

  private record StoredRow(Object[] values, long insertTime) {}

  public MemoryTable(TableDef def) {
    this(def, new AtomicReference<>(List.of()));
  }

  private MemoryTable(TableDef def, AtomicReference<List<StoredRow>> rows) {
    this.def = def;
    this.writable = def.writableColumns();
    this.rows = rows;
  }

  /** The same rows, seen with the columns of {@code newDef} (discovered ones added). */
  @Override
  public TableStorage forDef(TableDef newDef) {
    return new MemoryTable(newDef, rows);
  }

  /** Tables declared with {@code ...} answer discovery with their default type. */
  @Override
  public boolean discovers() {
    return def.dynamicColumns();
  }

  @Override
  public @Nullable String discover(String name) {
    if (!def.dynamicColumns()) {
      return null;
    }
    return def.dynamicDefaultType() == null
        ? "STRING"
        : io.calcitebridge.types.TypeNames.renderNullable(def.dynamicDefaultType());
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
    final List<StoredRow> snapshot = rows.get();
    final int shadow = shadowIndex();
    final List<ColumnDef> scanned = def.scannedColumns();
    final int[] stored = new int[scanned.size()]; // where a stored column is in a row, or -1
    for (int i = 0; i < stored.length; i++) {
      stored[i] = writable.indexOf(scanned.get(i));
    }
    final List<Object[]> out = new ArrayList<>(snapshot.size());
    for (int r = 0; r < snapshot.size(); r++) {
      StoredRow row = snapshot.get(r);
      Object[] values = new Object[scanned.size()];
      for (int i = 0; i < values.length; i++) {
        ColumnDef c = scanned.get(i);
        switch (c.kind()) {
          case PHYSICAL:
          case SHADOW:
            values[i] = row.values[stored[i]];
            break;
          case DYNAMIC:
            values[i] = shadow < 0 ? null : DynamicValues.read((ByteString) row.values[shadow], c);
            break;
          default:
            values[i] = metadata(c.metadataKey(), row, r);
        }
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

  private int shadowIndex() {
    for (int i = 0; i < writable.size(); i++) {
      if (writable.get(i).kind() == ColumnKind.SHADOW) {
        return i;
      }
    }
    return -1;
  }

  @Override
  public long insert(List<Object[]> newRows) {
    synchronized (rows) {
      return insertLocked(newRows);
    }
  }

  private long insertLocked(List<Object[]> newRows) {
    final long now = System.currentTimeMillis();
    final List<StoredRow> current = rows.get();
    final List<StoredRow> next = new ArrayList<>(current.size() + newRows.size());
    next.addAll(current);
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
    rows.set(Collections.unmodifiableList(next));
    return newRows.size();
  }

  @Override
  public boolean supportsRowLevelUpdate() {
    return true;
  }

  @Override
  public boolean supportsRowLevelDelete() {
    return true;
  }

  /**
   * Replaces the rows with one swap. The statement read the rows in order, so row {@code r} keeps
   * the insert time of the stored row {@code r}; rows an INSERT appended after the statement read
   * the table are kept after them. (Two UPDATE or DELETE statements at once: the last one wins.)
   */
  @Override
  public void overwrite(List<Object[]> newRows, BitSet deleted) {
    synchronized (rows) {
      final long now = System.currentTimeMillis();
      final List<StoredRow> current = rows.get();
      final boolean aligned = current.size() >= newRows.size();
      final List<StoredRow> next = new ArrayList<>(newRows.size() - deleted.cardinality());
      for (int r = 0; r < newRows.size(); r++) {
        if (deleted.get(r)) {
          continue;
        }
        Object[] values = newRows.get(r);
        if (values.length != writable.size()) {
          throw new IllegalStateException(
              "Row has " + values.length + " values; expected " + writable.size());
        }
        next.add(new StoredRow(values.clone(), aligned ? current.get(r).insertTime : now));
      }
      if (aligned) {
        next.addAll(current.subList(newRows.size(), current.size()));
      }
      rows.set(Collections.unmodifiableList(next));
    }
  }

  /** The number of rows. */
  public int size() {
    return rows.get().size();
  }
}

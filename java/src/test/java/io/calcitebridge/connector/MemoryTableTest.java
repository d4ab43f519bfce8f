package io.calcitebridge.connector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.calcitebridge.catalog.ColumnDef;
import io.calcitebridge.catalog.TableDef;
import io.calcitebridge.catalog.TableStorage;
import io.calcitebridge.dyncol.DynCol;
import io.calcitebridge.dyncol.DynValue;
import io.calcitebridge.types.BridgeTypeFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.Test;

/** {@link MemoryTable}: atomic inserts, metadata keys, dynamic columns from the shadow blob. */
class MemoryTableTest {
  private static final RelDataTypeFactory TF = BridgeTypeFactory.INSTANCE;
  private static final RelDataType INT = TF.createSqlType(SqlTypeName.INTEGER);
  private static final RelDataType STRING =
      TF.createTypeWithNullability(TF.createSqlType(SqlTypeName.VARCHAR, Integer.MAX_VALUE), true);
  private static final RelDataType BIGINT =
      TF.createTypeWithNullability(TF.createSqlType(SqlTypeName.BIGINT), true);
  private static final RelDataType BYTES =
      TF.createTypeWithNullability(TF.createSqlType(SqlTypeName.VARBINARY), true);

  /** id NOT NULL, name, ts (timestamp, persisted), off (offset), tag (free key), c computed. */
  private static TableDef def() {
    return new TableDef(
        "t",
        List.of(
            ColumnDef.physical("id", INT),
            ColumnDef.physical("name", STRING),
            ColumnDef.metadata("ts", BIGINT, "timestamp", false),
            ColumnDef.metadata("off", BIGINT, "offset", true),
            ColumnDef.computed("c", INT, "`id` + 1"),
            ColumnDef.metadata("tag", STRING, null, false),
            ColumnDef.metadata("tag2", STRING, "tag", true)),
        Map.of(),
        false,
        null);
  }

  @Test
  void insertAppendsAndScanReadsScannedColumns() {
    MemoryTable t = new MemoryTable(def());
    assertEquals(2, t.insert(List.of(row(1, "a", 5L, "x"), row(2, "b", 6L, null))));
    assertEquals(1, t.insert(List.<Object[]>of(row(3, "c", 7L, "z"))));
    assertEquals(3, t.size());
    // scanned: id, name, ts, off, tag, tag2 (the computed column is not scanned)
    assertEquals(
        List.of(
            Arrays.asList(1, "a", 5L, 0L, "x", "x"),
            Arrays.asList(2, "b", 6L, 1L, null, null),
            Arrays.asList(3, "c", 7L, 2L, "z", "z")),
        rows(t));
  }

  @Test
  void failingInsertLeavesRowsUnchanged() {
    MemoryTable t = new MemoryTable(def());
    t.insert(List.<Object[]>of(row(1, "a", 5L, "x")));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> t.insert(List.of(row(2, "b", 6L, null), row(null, "c", 7L, null))));
    assertEquals("Column 'id' is NOT NULL; the INSERT gives it NULL", e.getMessage());
    assertEquals(1, t.size());
    assertEquals(List.of(Arrays.asList(1, "a", 5L, 0L, "x", "x")), rows(t));

    assertThrows(
        IllegalStateException.class,
        () -> t.insert(List.of(row(2, "b", 6L, null), new Object[] {3, "c"})));
    assertEquals(1, t.size());
  }

  @Test
  void overwriteReplacesTheRowsAndKeepsRowsInsertedSinceTheStatementRead() {
    MemoryTable t = new MemoryTable(def());
    t.insert(List.of(row(1, "a", 5L, "x"), row(2, "b", 6L, null), row(3, "c", 7L, "z")));
    // The statement read three rows; an INSERT appends a fourth before it writes them back.
    List<Object[]> read =
        List.of(row(1, "A", 5L, "x"), row(2, "b", 6L, null), row(3, "C", 7L, "z"));
    t.insert(List.<Object[]>of(row(4, "d", 8L, null)));
    java.util.BitSet deleted = new java.util.BitSet();
    deleted.set(1);
    t.overwrite(read, deleted);
    assertEquals(
        List.of(
            Arrays.asList(1, "A", 5L, 0L, "x", "x"),
            Arrays.asList(3, "C", 7L, 1L, "z", "z"),
            Arrays.asList(4, "d", 8L, 2L, null, null)),
        rows(t));
    assertTrue(t.supportsRowLevelUpdate() && t.supportsRowLevelDelete());
  }

  @Test
  void insertedArraysAreCopied() {
    MemoryTable t = new MemoryTable(def());
    Object[] r = row(1, "a", 5L, "x");
    t.insert(List.<Object[]>of(r));
    r[1] = "changed";
    assertEquals("a", rows(t).get(0).get(1));
  }

  @Test
  void scanSeesASnapshot() {
    MemoryTable t = new MemoryTable(def());
    t.insert(List.<Object[]>of(row(1, "a", 5L, "x")));
    var before = t.scan();
    t.insert(List.<Object[]>of(row(2, "b", 6L, "y")));
    assertEquals(1, before.count());
    assertEquals(2, t.scan().count());
  }

  @Test
  void timestampDefaultsToTheInsertTime() {
    MemoryTable t = new MemoryTable(def());
    long start = System.currentTimeMillis();
    t.insert(List.<Object[]>of(row(1, "a", null, null)));
    long end = System.currentTimeMillis();
    long ts = (Long) rows(t).get(0).get(2);
    assertTrue(start <= ts && ts <= end, ts + " outside [" + start + ", " + end + "]");
  }

  @Test
  void timestampIsReadWithoutAPersistedColumn() {
    TableDef def =
        new TableDef(
            "t",
            List.of(
                ColumnDef.physical("id", INT),
                ColumnDef.metadata("rt", BIGINT, "timestamp", true),
                ColumnDef.metadata("free", STRING, "other", true)),
            Map.of(),
            false,
            null);
    MemoryTable t = new MemoryTable(def);
    assertEquals(List.of("id"), def.writableColumns().stream().map(ColumnDef::name).toList());
    t.insert(List.<Object[]>of(new Object[] {1}));
    List<Object> r = rows(t).get(0);
    assertTrue(r.get(1) instanceof Long && (Long) r.get(1) > 0, r.toString());
    assertNull(r.get(2), "a key never written is NULL");
  }

  @Test
  void offsetMustBeVirtual() {
    TableDef bad =
        new TableDef(
            "t",
            List.of(ColumnDef.metadata("off", BIGINT, "offset", false)),
            Map.of(),
            false,
            null);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> MemoryTable.validate(bad));
    assertEquals(
        "Metadata key 'offset' of column 'off' is read-only; declare it VIRTUAL", e.getMessage());
    MemoryTable.validate(def());
  }

  @Test
  void discoveryAnswersWithTheDefaultType() {
    assertFalse(new MemoryTable(def()).discovers());
    assertNull(new MemoryTable(def()).discover("x"));
    TableDef strings = new TableDef("d", List.of(ColumnDef.shadow(BYTES)), Map.of(), true, null);
    assertTrue(new MemoryTable(strings).discovers());
    assertEquals("STRING", new MemoryTable(strings).discover("x"));
    TableDef ints = new TableDef("d", List.of(ColumnDef.shadow(BYTES)), Map.of(), true, INT);
    assertEquals("INT", new MemoryTable(ints).discover("x"));
  }

  @Test
  void discoveredColumnsAreReadFromTheShadowBlob() {
    TableDef def =
        new TableDef(
            "d",
            List.of(ColumnDef.physical("id", INT), ColumnDef.shadow(BYTES)),
            Map.of(),
            true,
            null);
    MemoryTable t = new MemoryTable(def);
    ByteString blob =
        new ByteString(
            DynCol.create(Map.of("n", DynValue.ofLong(42), "s", DynValue.ofString("hi"))));
    t.insert(List.of(new Object[] {1, blob}, new Object[] {2, null}));

    TableStorage seen =
        t.forDef(
            def.withColumns(
                List.of(
                    ColumnDef.dynamic("n", BIGINT),
                    ColumnDef.dynamic("s", STRING),
                    ColumnDef.dynamic("missing", STRING))));
    List<List<Object>> out = new ArrayList<>();
    for (Object[] r : seen.scan()) {
      out.add(Arrays.asList(r));
    }
    assertEquals(
        List.of(Arrays.asList(1, blob, 42L, "hi", null), Arrays.asList(2, null, null, null, null)),
        out);
    // the same rows: an insert through one is seen through the other
    seen.insert(List.<Object[]>of(new Object[] {3, null}));
    assertEquals(3, t.size());
  }

  private static Object[] row(Object id, Object name, Object ts, Object tag) {
    return new Object[] {id, name, ts, tag};
  }

  private static List<List<Object>> rows(MemoryTable t) {
    List<List<Object>> out = new ArrayList<>();
    for (Object[] r : t.scan()) {
      out.add(Arrays.asList(r));
    }
    return out;
  }
}

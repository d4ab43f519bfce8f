package io.calcitebridge.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeSystem;
import org.apache.calcite.sql.type.SqlTypeFactoryImpl;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.Test;

/** {@link TableDef}, {@link ColumnDef} and {@link ExpansionStrategy}. */
class TableDefTest {
  private static final RelDataTypeFactory TF = new SqlTypeFactoryImpl(RelDataTypeSystem.DEFAULT);
  private static final RelDataType INT = TF.createSqlType(SqlTypeName.INTEGER);
  private static final RelDataType BIGINT = TF.createSqlType(SqlTypeName.BIGINT);
  private static final RelDataType BYTES = TF.createSqlType(SqlTypeName.VARBINARY);

  private static final ColumnDef PHYSICAL = ColumnDef.physical("id", INT);
  private static final ColumnDef COMPUTED = ColumnDef.computed("c", INT, "`id` + 1");
  private static final ColumnDef DEFAULT_VIRTUAL = ColumnDef.metadata("offset", BIGINT, null, true);
  private static final ColumnDef ALIASED_VIRTUAL =
      ColumnDef.metadata("rt", BIGINT, "timestamp", true);
  private static final ColumnDef DEFAULT_PERSISTED = ColumnDef.metadata("tag", INT, null, false);
  private static final ColumnDef ALIASED_PERSISTED =
      ColumnDef.metadata("ts", BIGINT, "time", false);
  private static final ColumnDef DYNAMIC = ColumnDef.dynamic("x", INT);
  private static final ColumnDef SHADOW = ColumnDef.shadow(BYTES);

  private static final List<ColumnDef> ALL =
      List.of(
          PHYSICAL,
          COMPUTED,
          DEFAULT_VIRTUAL,
          ALIASED_VIRTUAL,
          DEFAULT_PERSISTED,
          ALIASED_PERSISTED,
          DYNAMIC,
          SHADOW);

  @Test
  void metadataColumnKeys() {
    assertEquals("offset", DEFAULT_VIRTUAL.metadataKey());
    assertFalse(DEFAULT_VIRTUAL.aliased());
    assertEquals("timestamp", ALIASED_VIRTUAL.metadataKey());
    assertTrue(ALIASED_VIRTUAL.aliased());
    assertEquals("METADATA VIRTUAL", ALIASED_VIRTUAL.describeKind());
    assertEquals("METADATA", ALIASED_PERSISTED.describeKind());
    assertEquals("_dynamic", SHADOW.name());
    assertTrue(COMPUTED.virtual());
    assertEquals("`id` + 1", COMPUTED.expression());
    assertThrows(NullPointerException.class, () -> ColumnDef.physical(null, INT));
  }

  @Test
  void eachStrategyHidesItsKindOnly() {
    assertEquals(
        List.of(DEFAULT_VIRTUAL),
        hidden(ExpansionStrategy.EXCLUDE_DEFAULT_VIRTUAL_METADATA_COLUMNS));
    assertEquals(
        List.of(ALIASED_VIRTUAL),
        hidden(ExpansionStrategy.EXCLUDE_ALIASED_VIRTUAL_METADATA_COLUMNS));
    assertEquals(List.of(COMPUTED), hidden(ExpansionStrategy.EXCLUDE_COMPUTED_COLUMNS));
    assertEquals(
        List.of(DEFAULT_PERSISTED, ALIASED_PERSISTED),
        hidden(ExpansionStrategy.EXCLUDE_PERSISTED_METADATA_COLUMNS));
  }

  @Test
  void isHiddenByAnyStrategyOfTheList() {
    List<ExpansionStrategy> two =
        List.of(
            ExpansionStrategy.EXCLUDE_COMPUTED_COLUMNS,
            ExpansionStrategy.EXCLUDE_ALIASED_VIRTUAL_METADATA_COLUMNS);
    List<ColumnDef> hidden = new ArrayList<>();
    for (ColumnDef c : ALL) {
      if (ExpansionStrategy.isHidden(c, two)) {
        hidden.add(c);
      }
    }
    assertEquals(List.of(COMPUTED, ALIASED_VIRTUAL), hidden);
    for (ColumnDef c : ALL) {
      assertFalse(ExpansionStrategy.isHidden(c, List.of()), c.name());
      // dynamic and shadow columns are the validator's business, not the strategy's
      assertFalse(
          (c == DYNAMIC || c == SHADOW)
              && ExpansionStrategy.isHidden(c, List.of(ExpansionStrategy.values())),
          c.name());
    }
  }

  @Test
  void writableAndScannedColumns() {
    TableDef def = new TableDef("t", ALL, Map.of(), true, null);
    assertEquals(
        List.of("id", "offset", "rt", "tag", "ts", "x", "_dynamic"), names(def.scannedColumns()));
    assertEquals(List.of("id", "tag", "ts", "_dynamic"), names(def.writableColumns()));
    assertEquals(
        List.of("id", "c", "offset", "rt", "tag", "ts", "x", "_dynamic"),
        def.rowType(TF).getFieldNames());
    assertEquals(List.of("id", "tag", "ts", "_dynamic"), def.writableRowType(TF).getFieldNames());
    assertEquals(names(def.scannedColumns()), def.scanRowType(TF).getFieldNames());
  }

  @Test
  void indexOfConnectorAndWithColumns() {
    Map<String, String> options = new LinkedHashMap<>();
    options.put("connector", "files");
    options.put("path", "/tmp");
    TableDef def = new TableDef("t", List.of(PHYSICAL, COMPUTED), options, false, null);
    assertEquals(1, def.indexOf("c"));
    assertEquals(-1, def.indexOf("C"));
    assertEquals("files", def.connector());
    assertEquals("memory", new TableDef("m", List.of(), Map.of(), false, null).connector());

    TableDef more = def.withColumns(List.of(DYNAMIC));
    assertEquals(List.of("id", "c", "x"), names(more.columns()));
    assertEquals(List.of("id", "c"), names(def.columns()));
    assertEquals(List.of("connector", "path"), List.copyOf(more.options().keySet()));
    assertThrows(UnsupportedOperationException.class, () -> def.options().put("a", "b"));
    assertThrows(UnsupportedOperationException.class, () -> def.columns().add(DYNAMIC));
  }

  private static List<ColumnDef> hidden(ExpansionStrategy s) {
    List<ColumnDef> out = new ArrayList<>();
    for (ColumnDef c : ALL) {
      if (s.hides(c)) {
        out.add(c);
      }
    }
    return out;
  }

  private static List<String> names(List<ColumnDef> columns) {
    return columns.stream().map(ColumnDef::name).toList();
  }
}

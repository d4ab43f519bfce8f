package io.calcitebridge.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.apache.calcite.sql.SqlSelect;
import org.junit.jupiter.api.Test;

/**
 * Tests of the accessors of the statement nodes; {@link BridgeParserTest} covers parsing and
 * unparsing.
 */
class BridgeStatementTest {
  @Test
  void createTableGetters() throws Exception {
    final SqlCreateTable t =
        (SqlCreateTable)
            BridgeParser.parseStatement(
                "CREATE TABLE IF NOT EXISTS db.users (\n"
                    + "  id BIGINT NOT NULL,\n"
                    + "  user ROW<name STRING, age INT>,\n"
                    + "  rt TIMESTAMP_LTZ(3) METADATA FROM 'timestamp' VIRTUAL,\n"
                    + "  ts TIMESTAMP_LTZ(3) METADATA,\n"
                    + "  c AS id + 1,\n"
                    + "  ... INT\n"
                    + ") WITH ('connector' = 'memory', 'b' = '2', 'a' = '1')");
    assertEquals(List.of("db", "users"), t.name().names);
    assertTrue(t.ifNotExists());
    assertTrue(t.hasDynamicColumns());
    assertTrue(t.hasEllipsis());
    assertNull(t.dynamicColumnsOption());
    assertEquals("INTEGER", t.dynamicDefaultType().getTypeName().getSimple());
    assertEquals(List.of("connector", "b", "a"), List.copyOf(t.options().keySet()));
    assertEquals(Map.of("connector", "memory", "a", "1", "b", "2"), t.options());

    final List<SqlTableColumn> cols = t.columns();
    assertEquals(5, cols.size());
    final SqlPhysicalColumn id = (SqlPhysicalColumn) cols.get(0);
    assertEquals("id", id.name());
    assertEquals(Boolean.FALSE, id.type().getNullable());
    assertEquals(2, id.position.getLineNum());
    assertEquals(3, id.position().getColumnNum());
    final SqlPhysicalColumn user = (SqlPhysicalColumn) cols.get(1);
    assertEquals("user", user.name());
    assertEquals(Boolean.TRUE, user.type().getNullable());
    final SqlMetadataColumn rt = (SqlMetadataColumn) cols.get(2);
    assertEquals("timestamp", rt.metadataKey());
    assertTrue(rt.isVirtual());
    final SqlMetadataColumn ts = (SqlMetadataColumn) cols.get(3);
    assertNull(ts.metadataKey());
    assertEquals("ts", ts.effectiveKey());
    assertFalse(ts.isVirtual());
    final SqlComputedColumn c = (SqlComputedColumn) cols.get(4);
    assertEquals("`id` + 1", BridgeParser.unparse(c.expression()));
    assertEquals(6, c.position.getLineNum());
  }

  @Test
  void dynamicColumnsOption() throws Exception {
    final SqlCreateTable on =
        (SqlCreateTable) BridgeParser.parseStatement("CREATE TABLE t (a INT) DYNAMIC_COLUMNS = ON");
    assertTrue(on.hasDynamicColumns());
    assertFalse(on.hasEllipsis());
    assertNull(on.dynamicDefaultType());
    final SqlCreateTable off =
        (SqlCreateTable)
            BridgeParser.parseStatement("CREATE TABLE t (a INT) DYNAMIC_COLUMNS = OFF");
    assertFalse(off.hasDynamicColumns());
    final SqlCreateTable plain =
        (SqlCreateTable) BridgeParser.parseStatement("CREATE TABLE t (a INT)");
    assertFalse(plain.hasDynamicColumns());
    assertTrue(plain.options().isEmpty());
  }

  @Test
  void viewDropShowSet() throws Exception {
    final SqlCreateView v =
        (SqlCreateView)
            BridgeParser.parseStatement(
                "CREATE TEMPORARY VIEW IF NOT EXISTS v (a, b) AS SELECT 1, 2");
    assertTrue(v.temporary());
    assertTrue(v.ifNotExists());
    assertEquals(2, v.columnList().size());
    assertInstanceOf(SqlSelect.class, v.query());
    final SqlCreateView w =
        (SqlCreateView) BridgeParser.parseStatement("CREATE VIEW w AS SELECT 1");
    assertNull(w.columnList());
    assertFalse(w.temporary());

    final SqlDropObject d = (SqlDropObject) BridgeParser.parseStatement("DROP VIEW IF EXISTS v");
    assertTrue(d.isView());
    assertTrue(d.ifExists());
    assertEquals("v", d.name().getSimple());

    final SqlShowCreateTable s =
        (SqlShowCreateTable) BridgeParser.parseStatement("SHOW CREATE TABLE t");
    assertFalse(s.isView());

    final SqlSetConfig set = (SqlSetConfig) BridgeParser.parseStatement("SET 'a.b' = 'c'");
    assertEquals("a.b", set.key());
    assertEquals("c", set.value());
    assertNull(set.getScope());
    assertTrue(((SqlSetConfig) BridgeParser.parseStatement("SET")).isList());
    assertEquals("k", ((SqlResetConfig) BridgeParser.parseStatement("RESET 'k'")).key());
    assertNull(((SqlResetConfig) BridgeParser.parseStatement("RESET")).key());
  }
}

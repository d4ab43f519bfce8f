package io.calcitebridge.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.calcitebridge.errors.CatalogException;
import java.util.List;
import java.util.Map;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeSystem;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.type.SqlTypeFactoryImpl;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.Test;

/** {@link Catalog}: adding, dropping and requiring tables and views, and their error messages. */
class CatalogTest {
  private final Catalog catalog = new Catalog();

  @Test
  void addAndLookUp() {
    Table t = new Plain();
    assertTrue(catalog.addTable("t", t, false));
    assertSame(t, catalog.table("t"));
    assertSame(t, catalog.require("t"));
    assertNull(catalog.table("T"));
    assertNull(catalog.view("t"));
    assertSame(t, catalog.rootSchema().getTable("t", true).getTable());
  }

  @Test
  void addingATakenNameFails() {
    catalog.addTable("t", new Plain(), false);
    CatalogException e =
        assertThrows(CatalogException.class, () -> catalog.addTable("t", new Plain(), false));
    assertEquals("Table 't' already exists", e.getMessage());
    Table other = new Plain();
    assertFalse(catalog.addTable("t", other, true));
    assertTrue(catalog.table("t") != other);

    catalog.addView(view("v"), new Plain(), false);
    assertEquals(
        "View 'v' already exists",
        assertThrows(CatalogException.class, () -> catalog.addTable("v", new Plain(), false))
            .getMessage());
    assertEquals(
        "Table 't' already exists",
        assertThrows(CatalogException.class, () -> catalog.addView(view("t"), new Plain(), false))
            .getMessage());
    assertFalse(catalog.addView(view("t"), new Plain(), true));
    assertNull(catalog.view("t"));
  }

  @Test
  void requireNamesTheMissingTable() {
    CatalogException e = assertThrows(CatalogException.class, () -> catalog.require("nope"));
    assertEquals("Table 'nope' does not exist", e.getMessage());
  }

  @Test
  void dropTablesAndViews() {
    Closing t = new Closing();
    catalog.addTable("t", t, false);
    catalog.addView(view("v"), new Plain(), false);
    assertEquals(List.of("t", "v"), catalog.names());

    assertEquals(
        "'t' is a table; use DROP TABLE",
        assertThrows(CatalogException.class, () -> catalog.drop("t", true, false)).getMessage());
    assertEquals(
        "'v' is a view; use DROP VIEW",
        assertThrows(CatalogException.class, () -> catalog.drop("v", false, true)).getMessage());

    assertTrue(catalog.drop("t", false, false));
    assertTrue(t.closed, "dropping a catalog table closes its storage");
    assertTrue(catalog.drop("v", true, false));
    assertNull(catalog.view("v"));
    assertEquals(List.of(), catalog.names());

    assertEquals(
        "Table 't' does not exist",
        assertThrows(CatalogException.class, () -> catalog.drop("t", false, false)).getMessage());
    assertEquals(
        "View 'v' does not exist",
        assertThrows(CatalogException.class, () -> catalog.drop("v", true, false)).getMessage());
    assertFalse(catalog.drop("t", false, true));
    assertFalse(catalog.drop("v", true, true));
  }

  @Test
  void namesAreSorted() {
    catalog.addTable("b", new Plain(), false);
    catalog.addTable("a", new Plain(), false);
    catalog.addView(view("C"), new Plain(), false);
    assertEquals(List.of("C", "a", "b"), catalog.names());
  }

  private static ViewDef view(String name) {
    return new ViewDef(name, "SELECT 1", "SELECT 1", List.of());
  }

  /** A table Calcite knows nothing special about. */
  private static class Plain extends AbstractTable {
    @Override
    public RelDataType getRowType(RelDataTypeFactory typeFactory) {
      return typeFactory.builder().add("x", SqlTypeName.INTEGER).build();
    }
  }

  /** A catalog table whose storage records that it was closed. */
  private static final class Closing extends Plain implements CatalogTable, TableStorage {
    boolean closed;

    @Override
    public TableDef def() {
      RelDataTypeFactory tf = new SqlTypeFactoryImpl(RelDataTypeSystem.DEFAULT);
      return new TableDef(
          "t",
          List.of(ColumnDef.physical("x", tf.createSqlType(SqlTypeName.INTEGER))),
          Map.of(),
          false,
          null);
    }

    @Override
    public TableStorage storage() {
      return this;
    }

    @Override
    public Enumerable<Object[]> scan() {
      return Linq4j.emptyEnumerable();
    }

    @Override
    public long insert(List<Object[]> rows) {
      return 0;
    }

    @Override
    public void close() {
      closed = true;
    }
  }
}

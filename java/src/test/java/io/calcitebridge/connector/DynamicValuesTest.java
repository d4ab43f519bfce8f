package io.calcitebridge.connector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.calcitebridge.catalog.ColumnDef;
import io.calcitebridge.dyncol.DynCol;
import io.calcitebridge.dyncol.DynValue;
import io.calcitebridge.types.BridgeTypeFactory;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.Test;

/**
 * {@link DynamicValues}: values written into a dynamic-columns blob read back as the SQL type of
 * the discovered column, with MariaDB's conversions.
 */
class DynamicValuesTest {
  private static final RelDataTypeFactory TF = BridgeTypeFactory.INSTANCE;

  private static final ByteString BLOB;

  static {
    Map<String, DynValue> m = new LinkedHashMap<>();
    m.put("i", DynValue.ofLong(42));
    m.put("neg", DynValue.ofLong(-7));
    m.put("d", DynValue.ofDouble(2.5));
    m.put("dec", DynValue.ofDecimal(new BigDecimal("12.345")));
    m.put("s", DynValue.ofString("hello"));
    m.put("num", DynValue.ofString("17"));
    m.put("b", DynValue.ofBinary(new byte[] {1, 2, 3}));
    m.put("zero", DynValue.ofLong(0));
    BLOB = new ByteString(DynCol.create(m));
  }

  private static Object read(String name, SqlTypeName type) {
    return DynamicValues.read(BLOB, ColumnDef.dynamic(name, TF.createSqlType(type)));
  }

  @Test
  void roundTripInTheirOwnTypes() {
    assertEquals(42L, read("i", SqlTypeName.BIGINT));
    assertEquals(-7L, read("neg", SqlTypeName.BIGINT));
    assertEquals(2.5, read("d", SqlTypeName.DOUBLE));
    assertEquals("hello", read("s", SqlTypeName.VARCHAR));
    assertEquals(new ByteString(new byte[] {1, 2, 3}), read("b", SqlTypeName.VARBINARY));
    RelDataType decimal = TF.createSqlType(SqlTypeName.DECIMAL, 10, 3);
    assertEquals(
        new BigDecimal("12.345"), DynamicValues.read(BLOB, ColumnDef.dynamic("dec", decimal)));
  }

  @Test
  void integersNarrowToTheColumnType() {
    assertEquals(42, read("i", SqlTypeName.INTEGER));
    assertEquals((short) 42, read("i", SqlTypeName.SMALLINT));
    assertEquals((byte) -7, read("neg", SqlTypeName.TINYINT));
  }

  @Test
  void booleansAreNonZeroIntegers() {
    assertEquals(true, read("i", SqlTypeName.BOOLEAN));
    assertEquals(false, read("zero", SqlTypeName.BOOLEAN));
  }

  @Test
  void conversionsFollowMariaDb() {
    assertEquals(17, read("num", SqlTypeName.INTEGER));
    assertEquals("42", read("i", SqlTypeName.VARCHAR));
    assertEquals(42.0, read("i", SqlTypeName.DOUBLE));
  }

  @Test
  void missingColumnOrBlobIsNull() {
    assertNull(read("absent", SqlTypeName.INTEGER));
    assertNull(read("absent", SqlTypeName.VARCHAR));
    assertNull(
        DynamicValues.read(null, ColumnDef.dynamic("i", TF.createSqlType(SqlTypeName.INTEGER))));
  }
}

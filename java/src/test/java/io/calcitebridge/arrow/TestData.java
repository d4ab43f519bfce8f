package io.calcitebridge.arrow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.StructKind;
import org.apache.calcite.sql.type.SqlTypeName;

/** Row types and rows covering every supported type, with NULLs at every nesting level. */
final class TestData {
  static final RelDataTypeFactory TF = new JavaTypeFactoryImpl();

  private TestData() {}

  static RelDataType type(SqlTypeName name) {
    return nullable(TF.createSqlType(name));
  }

  static RelDataType type(SqlTypeName name, int precision) {
    return nullable(TF.createSqlType(name, precision));
  }

  static RelDataType nullable(RelDataType t) {
    return TF.enforceTypeWithNullability(t, true);
  }

  static RelDataType notNull(RelDataType t) {
    return TF.enforceTypeWithNullability(t, false);
  }

  static RelDataType row(boolean nullable, List<String> names, RelDataType... types) {
    return TF.enforceTypeWithNullability(
        TF.createStructType(StructKind.PEEK_FIELDS_NO_EXPAND, Arrays.asList(types), names),
        nullable);
  }

  /** ROW(a INTEGER NOT NULL, b VARCHAR, inner ROW(x DOUBLE)). */
  static RelDataType structType() {
    RelDataType inner = row(true, List.of("x"), type(SqlTypeName.DOUBLE));
    return row(
        true,
        List.of("a", "b", "inner"),
        notNull(TF.createSqlType(SqlTypeName.INTEGER)),
        type(SqlTypeName.VARCHAR),
        inner);
  }

  /** Every scalar type, then nested types; no ARRAY of ROW when {@code forScan}. */
  static RelDataType allTypes(boolean forScan) {
    RelDataType in = type(SqlTypeName.INTEGER);
    RelDataType vc = type(SqlTypeName.VARCHAR);
    RelDataTypeFactory.Builder b =
        TF.builder()
            .add("nn", notNull(TF.createSqlType(SqlTypeName.INTEGER)))
            .add("bo", type(SqlTypeName.BOOLEAN))
            .add("ti", type(SqlTypeName.TINYINT))
            .add("si", type(SqlTypeName.SMALLINT))
            .add("i", in)
            .add("bi", type(SqlTypeName.BIGINT))
            .add("re", type(SqlTypeName.REAL))
            .add("db", type(SqlTypeName.DOUBLE))
            .add("de", nullable(TF.createSqlType(SqlTypeName.DECIMAL, 10, 2)))
            .add("s", vc)
            .add("c", type(SqlTypeName.CHAR, 3))
            .add("bin", type(SqlTypeName.VARBINARY))
            .add("d", type(SqlTypeName.DATE))
            .add("t", type(SqlTypeName.TIME, 3))
            .add("ts0", type(SqlTypeName.TIMESTAMP, 0))
            .add("ts", type(SqlTypeName.TIMESTAMP, 3))
            .add("ltz", type(SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE, 3))
            .add("st", structType())
            .add("arr", nullable(TF.createArrayType(in, -1)))
            .add("aa", nullable(TF.createArrayType(nullable(TF.createArrayType(vc, -1)), -1)))
            .add("m", nullable(TF.createMapType(notNull(vc), in)));
    if (!forScan) {
      b.add("arrs", nullable(TF.createArrayType(structType(), -1)))
          .add("ms", nullable(TF.createMapType(notNull(vc), structType())));
    }
    return b.build();
  }

  static Map<Object, Object> map(Object... kv) {
    Map<Object, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return m;
  }

  static Object[] struct(Object a, Object b, Object x) {
    return new Object[] {a, b, x == null ? null : new Object[] {x}};
  }

  /** Rows in Calcite's exact runtime representation. */
  static List<Object[]> allRows(boolean forScan) {
    List<Object[]> rows = new ArrayList<>();
    rows.add(
        row(
            forScan,
            1,
            true,
            (byte) -1,
            (short) 300,
            42,
            1L << 40,
            1.5f,
            2.25,
            new BigDecimal("12.34"),
            "héllo",
            "ab ",
            new ByteString(new byte[] {0, 1, -1}),
            19000,
            3_600_123,
            1_700_000_000_000L,
            1_700_000_000_123L,
            -1_234L,
            struct(7, "x", 0.5),
            Arrays.asList(10, null, 30),
            Arrays.asList(Arrays.asList("p", null), null, List.of()),
            map("k", 7, "n", null),
            Arrays.asList(struct(1, "a", 1.0), null, struct(2, null, null)),
            map("r", struct(3, "c", null), "nul", null)));
    rows.add(
        row(
            forScan, 2, null, null, null, null, null, null, null, null, null, null, null, null,
            null, null, null, null, null, null, null, null, null, null));
    rows.add(
        row(
            forScan,
            3,
            false,
            (byte) 0,
            (short) 0,
            0,
            0L,
            0f,
            -0.5,
            new BigDecimal("-0.01"),
            "",
            "   ",
            new ByteString(new byte[0]),
            -1,
            0,
            -86_400_000L,
            -1L,
            0L,
            struct(0, null, null),
            List.of(),
            List.of(List.of()),
            map(),
            List.of(),
            map()));
    return rows;
  }

  private static Object[] row(boolean forScan, Object... values) {
    return forScan ? Arrays.copyOf(values, values.length - 2) : values;
  }

  /** Deep equality over Object[], List and Map, with a path in the failure message. */
  static void assertDeepEquals(Object expected, Object actual, String path) {
    if (expected instanceof Object[]) {
      if (!(actual instanceof Object[])) {
        fail(path + ": expected Object[] but was " + describe(actual));
      }
      Object[] e = (Object[]) expected;
      Object[] a = (Object[]) actual;
      assertEquals(e.length, a.length, path + ": length");
      for (int i = 0; i < e.length; i++) {
        assertDeepEquals(e[i], a[i], path + "[" + i + "]");
      }
    } else if (expected instanceof List) {
      assertTrue(actual instanceof List, path + ": expected List but was " + describe(actual));
      List<?> e = (List<?>) expected;
      List<?> a = (List<?>) actual;
      assertEquals(e.size(), a.size(), path + ": size");
      for (int i = 0; i < e.size(); i++) {
        assertDeepEquals(e.get(i), a.get(i), path + "[" + i + "]");
      }
    } else if (expected instanceof Map) {
      assertTrue(actual instanceof Map, path + ": expected Map but was " + describe(actual));
      Iterator<? extends Map.Entry<?, ?>> e = ((Map<?, ?>) expected).entrySet().iterator();
      Iterator<? extends Map.Entry<?, ?>> a = ((Map<?, ?>) actual).entrySet().iterator();
      while (e.hasNext()) {
        assertTrue(a.hasNext(), path + ": fewer entries");
        Map.Entry<?, ?> ee = e.next();
        Map.Entry<?, ?> ae = a.next();
        assertDeepEquals(ee.getKey(), ae.getKey(), path + ".key");
        assertDeepEquals(ee.getValue(), ae.getValue(), path + "[" + ee.getKey() + "]");
      }
      assertTrue(!a.hasNext(), path + ": more entries");
    } else {
      if (expected != null && actual != null) {
        assertEquals(expected.getClass(), actual.getClass(), path + ": class");
      }
      assertEquals(expected, actual, path);
    }
  }

  static void assertRowsEqual(List<Object[]> expected, List<Object[]> actual) {
    assertEquals(expected.size(), actual.size(), "row count");
    for (int i = 0; i < expected.size(); i++) {
      assertDeepEquals(expected.get(i), actual.get(i), "row " + i);
    }
  }

  private static String describe(Object o) {
    return o == null ? "null" : o.getClass().getName() + " " + o;
  }
}

package io.calcitebridge.arrow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.calcite.DataContext;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.prepare.CalcitePrepareImpl;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.impl.AbstractTable;
import org.junit.jupiter.api.Test;

/**
 * Pins down the Java classes Calcite's Enumerable engine produces for each SQL type, which the
 * package documentation lists; a Calcite upgrade that changes them fails here.
 */
class RuntimeRepresentationTest {
  private static List<Object> run(List<Object[]> input, String sql) throws Exception {
    Properties p = new Properties();
    p.put("caseSensitive", "true");
    p.put("unquotedCasing", "UNCHANGED");
    p.put("quoting", "BACK_TICK");
    try (Connection c = DriverManager.getConnection("jdbc:calcite:", p)) {
      CalciteConnection cc = c.unwrap(CalciteConnection.class);
      RelDataType rowType = TestData.allTypes(true);
      cc.getRootSchema().add("t", new Table(rowType, input));
      CalcitePrepare.Context ctx = cc.createPrepareContext();
      CalcitePrepare.CalciteSignature<Object> signature =
          new CalcitePrepareImpl()
              .prepareSql(ctx, CalcitePrepare.Query.of(sql), Object[].class, -1);
      List<Object> out = new ArrayList<>();
      for (Object row : signature.enumerable(ctx.getDataContext())) {
        out.add(row);
      }
      return out;
    }
  }

  /** A table over rows in memory. */
  private static final class Table extends AbstractTable implements ScannableTable {
    private final RelDataType rowType;
    private final List<Object[]> rows;

    Table(RelDataType rowType, List<Object[]> rows) {
      this.rowType = rowType;
      this.rows = rows;
    }

    @Override
    public RelDataType getRowType(RelDataTypeFactory typeFactory) {
      return rowType;
    }

    @Override
    public Enumerable<Object[]> scan(DataContext root) {
      return Linq4j.asEnumerable(rows);
    }
  }

  @Test
  void computedValuesHaveTheDocumentedClasses() throws Exception {
    List<Object> rows =
        run(
            TestData.allRows(true).subList(0, 1),
            "select bo and true, cast(ti + 1 as tinyint), cast(si + 1 as smallint), i + 1, bi + 1, "
                + "re * 2, db * 2, de * 2, s || 'x', bin, d + interval '1' day, t, ts, ltz, "
                + "row(i, s), array[i, 1], map['k', i], st, st.`inner`, arr[1], m['k'] from t");
    Object[] r = (Object[]) rows.get(0);
    Class<?>[] expected = {
      Boolean.class,
      Byte.class,
      Short.class,
      Integer.class,
      Long.class,
      Float.class,
      Double.class,
      BigDecimal.class,
      String.class,
      ByteString.class,
      Integer.class,
      Integer.class,
      Long.class,
      Long.class,
      Object[].class,
      List.class,
      Map.class,
      Object[].class,
      Object[].class,
      Integer.class,
      Integer.class
    };
    assertEquals(expected.length, r.length);
    for (int i = 0; i < expected.length; i++) {
      assertInstanceOf(expected[i], r[i], "column " + i);
    }
    assertEquals(19001, r[10]);
  }

  @Test
  void singleColumnResultsAreBareValues() throws Exception {
    List<Object> rows = run(TestData.allRows(true), "select i from t where nn = 1");
    assertEquals(List.of(42), rows);
  }

  @Test
  void scanValuesMustHaveTheExactBoxedType() {
    List<Object[]> input = new ArrayList<>();
    Object[] row = TestData.allRows(true).get(0).clone();
    row[5] = 7; // an Integer in a BIGINT column
    input.add(row);
    Exception e = assertThrows(Exception.class, () -> run(input, "select bi + 1 from t"));
    Throwable t = e;
    while (t.getCause() != null) {
      t = t.getCause();
    }
    assertInstanceOf(ClassCastException.class, t);
  }
}

package io.calcitebridge.arrow;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.function.Function;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.calcite.DataContext;
import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.prepare.CalcitePrepareImpl;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.impl.AbstractTable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Runs SQL through Calcite's Enumerable engine over a table whose rows come from Arrow ({@link
 * ArrowToRows}), and turns the result back into Arrow ({@link RowsToArrow}).
 */
class SqlOverArrowTest {
  private BufferAllocator allocator;
  private Connection connection;

  /** A table whose every scan reads a fresh Arrow stream. */
  private static final class ArrowTable extends AbstractTable implements ScannableTable {
    private final RelDataType rowType;
    private final java.util.function.Supplier<ArrowReader> source;

    ArrowTable(RelDataType rowType, java.util.function.Supplier<ArrowReader> source) {
      this.rowType = rowType;
      this.source = source;
    }

    @Override
    public RelDataType getRowType(RelDataTypeFactory typeFactory) {
      return rowType;
    }

    @Override
    public Enumerable<Object[]> scan(DataContext root) {
      return ArrowToRows.of(source, null);
    }
  }

  @BeforeEach
  void open() throws Exception {
    allocator = new RootAllocator();
    Properties p = new Properties();
    p.put("caseSensitive", "true");
    p.put("unquotedCasing", "UNCHANGED");
    p.put("quotedCasing", "UNCHANGED");
    p.put("quoting", "BACK_TICK");
    connection = DriverManager.getConnection("jdbc:calcite:", p);
    RelDataType rowType = TestData.allTypes(true);
    List<Object[]> rows = TestData.allRows(true);
    // Batches of two rows, so that scans cross batch boundaries.
    connection
        .unwrap(CalciteConnection.class)
        .getRootSchema()
        .add(
            "t",
            new ArrowTable(
                rowType,
                () ->
                    new RowsToArrow(
                        allocator,
                        rowType,
                        org.apache.calcite.linq4j.Linq4j.enumerator(rows),
                        2,
                        1 << 20)));
  }

  @AfterEach
  void close() throws Exception {
    connection.close();
    assertEquals(0, allocator.getAllocatedMemory(), "leaked Arrow memory");
    allocator.close();
  }

  /** Runs a query, exports its result as Arrow and reads that back as rows. */
  private List<Object[]> query(String sql) throws Exception {
    CalciteConnection cc = connection.unwrap(CalciteConnection.class);
    CalcitePrepare.Context ctx = cc.createPrepareContext();
    CalcitePrepare.CalciteSignature<Object> signature =
        new CalcitePrepareImpl().prepareSql(ctx, CalcitePrepare.Query.of(sql), Object[].class, -1);
    Enumerable<Object> result = signature.enumerable(ctx.getDataContext());
    try (ExportedStream exported =
        ArrowStreams.exportStream(
            allocator,
            RowsToArrow.fromCalcite(allocator, signature.rowType, result.enumerator()))) {
      // The enumerator closes the imported reader (which must not be closed twice).
      ArrowReader imported = ArrowStreams.importStream(allocator, exported.address());
      return RoundTripTest.readAll(ArrowToRows.of(imported));
    }
  }

  private static <T> List<T> column(List<Object[]> rows, int i, Function<Object, T> f) {
    List<T> out = new ArrayList<>();
    for (Object[] r : rows) {
      out.add(f.apply(r[i]));
    }
    return out;
  }

  @Test
  void selectStarKeepsEveryValue() throws Exception {
    TestData.assertRowsEqual(TestData.allRows(true), query("select * from t order by nn"));
  }

  @Test
  void nestedAccess() throws Exception {
    List<Object[]> rows =
        query(
            "select nn, st.a, st.b, st.`inner`.x, arr[1], arr[2], "
                + "aa[1][1], m['k'], m['n'], st from t order by nn");
    TestData.assertRowsEqual(
        List.of(
            new Object[] {1, 7, "x", 0.5, 10, null, "p", 7, null, TestData.struct(7, "x", 0.5)},
            new Object[] {2, null, null, null, null, null, null, null, null, null},
            new Object[] {
              3, 0, null, null, null, null, null, null, null, TestData.struct(0, null, null)
            }),
        rows);
  }

  @Test
  void filterOnNestedFieldAndExpressions() throws Exception {
    List<Object[]> rows =
        query(
            "select nn, de * 2 as d2, cast(ts as date) as dd, "
                + "ltz, upper(s) from t where st.a > 3 or (st.b is null and st.a is not null) "
                + "order by nn");
    TestData.assertRowsEqual(
        List.of(
            new Object[] {1, new BigDecimal("24.68"), 19675, -1234L, "HÉLLO"},
            new Object[] {3, new BigDecimal("-0.02"), -1, 0L, ""}),
        rows);
  }

  @Test
  void groupBy() throws Exception {
    List<Object[]> rows =
        query(
            "select st.b is null as nb, count(*) as c, sum(i) as si, "
                + "max(ts) as mt, min(d) as md from t group by st.b is null order by 1");
    TestData.assertRowsEqual(
        List.of(
            new Object[] {false, 1L, 42, 1_700_000_000_123L, 19000},
            new Object[] {true, 2L, 0, -1L, -1}),
        rows);
  }

  @Test
  void constructedNestedValues() throws Exception {
    List<Object[]> rows =
        query(
            "select row(nn, s) as r, array[nn, nn + 1] as a, "
                + "map['k', bi] as m2 from t where nn = 1");
    TestData.assertRowsEqual(
        List.<Object[]>of(
            new Object[] {
              new Object[] {1, "héllo"}, Arrays.asList(1, 2), TestData.map("k", 1L << 40)
            }),
        rows);
  }

  @Test
  void singleColumnResults() throws Exception {
    assertEquals(
        Arrays.asList(1, 2, 3), column(query("select nn from t order by nn"), 0, v -> (Integer) v));
    List<Object[]> structs = query("select st from t order by nn");
    TestData.assertRowsEqual(
        List.of(
            new Object[] {TestData.struct(7, "x", 0.5)},
            new Object[] {null},
            new Object[] {TestData.struct(0, null, null)}),
        structs);
  }

  @Test
  void joinEnumeratesTheScanMoreThanOnce() throws Exception {
    List<Object[]> rows =
        query("select a.nn, b.nn from t a join t b on a.nn < b.nn " + "order by 1, 2");
    assertEquals(3, rows.size());
  }
}

package io.calcitebridge.dyncol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.calcitebridge.arrow.ArrowMemory;
import io.calcitebridge.arrow.ArrowStreams;
import io.calcitebridge.errors.BridgeError;
import io.calcitebridge.facade.BridgeSession;
import io.calcitebridge.facade.StatementResult;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The COLUMN_* functions through SQL; expected values are MariaDB 10.11's. */
class DynColSqlTest {
  private BridgeSession session;

  @BeforeEach
  void setUp() {
    session = new BridgeSession();
  }

  @AfterEach
  void tearDown() {
    session.close();
  }

  /** The single value of {@code SELECT expr}, as text; bytes in upper-case hex. */
  private String value(String expr) {
    try (StatementResult r = session.execute("SELECT " + expr).result();
        ArrowReader reader = ArrowStreams.importStream(ArrowMemory.allocator(), r.address())) {
      VectorSchemaRoot root = reader.getVectorSchemaRoot();
      List<String> out = new ArrayList<>();
      while (reader.loadNextBatch()) {
        for (int i = 0; i < root.getRowCount(); i++) {
          Object o = root.getFieldVectors().get(0).getObject(i);
          out.add(
              o instanceof byte[]
                  ? HexFormat.of().withUpperCase().formatHex((byte[]) o)
                  : String.valueOf(o));
        }
      }
      assertEquals(1, out.size());
      return out.get(0);
    } catch (java.io.IOException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void create() {
    assertEquals("0401000100000000006102", value("COLUMN_CREATE('a', 1)"));
    assertEquals("00010001000002", value("column_create(1, 1)"));
    assertEquals(
        "04030004000000000001001000020020006162636302015802",
        value("COLUMN_CREATE('a', 1, 'b', -1, 'cc', 300, 'd', NULL)"));
    assertEquals("04010001000000020061000000000000F83F", value("COLUMN_CREATE('a', 1.5e0)"));
    assertEquals("0401000100000004006101018105", value("COLUMN_CREATE('a', 1.5)"));
    assertEquals("040100010000000600615DD00F", value("COLUMN_CREATE('a', DATE '2024-02-29')"));
    assertEquals("04010001000000070061B8C800", value("COLUMN_CREATE('a', TIME '12:34:56')"));
    assertEquals(
        "040100010000000500615DD00FB8C800",
        value("COLUMN_CREATE('a', TIMESTAMP '2024-02-29 12:34:56')"));
    assertEquals(
        "040100010000000800610401000100000000006202",
        value("COLUMN_CREATE('a', COLUMN_CREATE('b', 1))"));
    assertEquals("0400000000", value("COLUMN_CREATE('a', NULL)"));
    assertEquals("null", value("COLUMN_CREATE(NULL, 1)"));
  }

  @Test
  void createAsType() {
    assertEquals("0401000100000000006102", value("COLUMN_CREATE('a', '1' AS INT)"));
    assertEquals("0401000100000001006101", value("COLUMN_CREATE('a', 1 AS UNSIGNED INT)"));
    assertEquals("04010001000000020061000000000000F03F", value("COLUMN_CREATE('a', 1 AS DOUBLE)"));
    assertEquals("04010001000000040061010081", value("COLUMN_CREATE('a', 1 AS DECIMAL)"));
    assertEquals("0401000100000006006121D00F", value("COLUMN_CREATE('a', '2024-01-01' AS DATE)"));
    assertEquals(
        "0401000100000005006121D00F00A000",
        value("COLUMN_CREATE('a', '2024-01-01 10:00:00' AS DATETIME)"));
    assertEquals("0401000100000007006100A000", value("COLUMN_CREATE('a', '10:00' AS TIME)"));
    assertEquals("0401000100000000006108", value("COLUMN_CREATE('a', 3.9 AS INT)"));
  }

  @Test
  void get() {
    assertEquals("42", value("COLUMN_GET(COLUMN_CREATE('a', '42x'), 'a' AS INT)"));
    assertEquals("0", value("COLUMN_GET(COLUMN_CREATE('a', 'abc'), 'a' AS INT)"));
    assertEquals("4", value("COLUMN_GET(COLUMN_CREATE('a', 3.9), 'a' AS INT)"));
    assertEquals("null", value("COLUMN_GET(COLUMN_CREATE('a', 1), 'b' AS INT)"));
    assertEquals("null", value("COLUMN_GET(CAST(NULL AS VARBINARY), 'a' AS INT)"));
    assertEquals("hé", value("COLUMN_GET(COLUMN_CREATE('a', 'héllo'), 'a' AS CHAR(2))"));
    assertEquals("12.35", value("COLUMN_GET(COLUMN_CREATE('a', 12.345), 'a' AS DECIMAL(5,2))"));
    assertEquals("12", value("COLUMN_GET(COLUMN_CREATE('a', 12.345), 'a' AS DECIMAL)"));
    assertEquals("12.5", value("COLUMN_GET(COLUMN_CREATE('a', '12.5abc'), 'a' AS DOUBLE)"));
    assertEquals("42", value("COLUMN_GET(COLUMN_CREATE('a', '42'), 'a' AS UNSIGNED)"));
    assertEquals("61620000", value("COLUMN_GET(COLUMN_CREATE('a', 'ab'), 'a' AS BINARY(4))"));
    assertEquals(
        "2020-01-02",
        value(
            "CAST(COLUMN_GET(COLUMN_CREATE('a', '2020-01-02 03:04:05'), 'a' AS DATE) AS VARCHAR)"));
    assertEquals(
        "7",
        value(
            "COLUMN_GET(COLUMN_GET(COLUMN_CREATE('a', COLUMN_CREATE('b', 7)), 'a' AS BINARY),"
                + " 'b' AS INT)"));
    assertEquals("15", value("COLUMN_GET(COLUMN_CREATE('a', 5), 'a' AS INT) + 10"));
  }

  @Test
  void addDeleteAndQueries() {
    assertEquals(
        "0402000200000000000100100033610802", value("COLUMN_ADD(COLUMN_CREATE('a', 1), 3, 4)"));
    assertEquals("null", value("COLUMN_ADD(CAST(NULL AS VARBINARY), 'a', 1)"));
    assertEquals(
        "0401000100000000006102", value("COLUMN_DELETE(COLUMN_CREATE('a', 1, 'b', 2), 'b', 'c')"));
    assertEquals("1", value("COLUMN_EXISTS(COLUMN_CREATE('a', 1), 'a')"));
    assertEquals("0", value("COLUMN_EXISTS(COLUMN_CREATE('a', 1), 'b')"));
    assertEquals("`a`,`b`,`aa`", value("COLUMN_LIST(COLUMN_CREATE('b', 1, 'aa', 2, 'a', 3))"));
    assertEquals("1", value("COLUMN_CHECK(COLUMN_CREATE('a', 1))"));
    assertEquals("0", value("COLUMN_CHECK(X'78797A')"));
    assertEquals(
        "{\"a\":3.5,\"b\":1,\"d\":1.50,\"e\":\"2020-01-02\",\"f\":{\"g\":1}}",
        value(
            "COLUMN_JSON(COLUMN_CREATE('b', 1, 'a', 3.5e0, 'd', 1.50, 'e', DATE '2020-01-02',"
                + " 'f', COLUMN_CREATE('g', 1)))"));
  }

  @Test
  void errors() {
    Throwable dup = assertThrows(Throwable.class, () -> value("COLUMN_CREATE('a', 1, 'a', 2)"));
    assertTrue(
        dup.getMessage().contains("Illegal value used as argument of dynamic column function"),
        dup.getMessage());
    Throwable bad = assertThrows(Throwable.class, () -> value("COLUMN_LIST(X'78797A')"));
    assertTrue(
        bad.getMessage().contains("Encountered illegal format of dynamic column string"),
        bad.getMessage());
    BridgeError type =
        assertThrows(
            BridgeError.class, () -> value("COLUMN_GET(COLUMN_CREATE('a', 1), 'a' AS FOO)"));
    assertTrue(type.getMessage().contains("Unknown dynamic column type"), type.getMessage());
  }

  @Test
  void overTableRows() {
    session
        .execute("CREATE TABLE t (id INT, d BYTES) WITH ('connector' = 'memory')")
        .result()
        .close();
    session
        .execute(
            "INSERT INTO t VALUES (1, COLUMN_CREATE('color', 'red', 'size', 10)),"
                + " (2, COLUMN_CREATE('color', 'blue'))")
        .result()
        .close();
    assertEquals(
        "red",
        value("COLUMN_GET(d, 'color' AS CHAR) FROM t WHERE COLUMN_GET(d, 'size' AS INT) > 5"));
  }
}

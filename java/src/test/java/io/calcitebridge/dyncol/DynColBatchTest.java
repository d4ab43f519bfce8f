package io.calcitebridge.dyncol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigDecimal;
import org.apache.calcite.avatica.util.ByteString;
import org.junit.jupiter.api.Test;

/** A {@code COLUMN_*} call over columns gives, row by row, what the per-row runtime gives. */
class DynColBatchTest {
  private static final String[] INT = {DynColRuntime.INT};
  private static final String[] NO_TYPE = {""};

  private static ByteString create(String key, long value) {
    return DynColRuntime.create(new Object[] {key}, new Object[] {value}, INT, NO_TYPE);
  }

  @Test
  void createMatchesTheRuntimeRowByRow() {
    DynColBatch call = DynColBatch.parse("COLUMN_CREATE;b;;s;i8:INT:;s;s:STRING:INT");
    assertEquals("b", call.result());
    assertEquals(4, call.arity());
    assertEquals("i8", call.code(1));
    Object[][] columns = {
      {"a", "a", null}, {1L, null, 3L}, {"b", "b", "b"}, {"7", "x", "9"},
    };
    Object[] out = call.apply(columns, 3);
    for (int r = 0; r < 3; r++) {
      Object expected =
          DynColRuntime.create(
              new Object[] {columns[0][r], columns[2][r]},
              new Object[] {columns[1][r], columns[3][r]},
              new String[] {DynColRuntime.INT, DynColRuntime.STRING},
              new String[] {"", "INT"});
      assertEquals(expected, out[r]);
    }
    assertNull(out[2]); // a NULL name: NULL, as MariaDB
  }

  @Test
  void getConvertsToTheTypeOfTheSpec() {
    ByteString blob = create("n", 12);
    Object[][] columns = {{blob, blob, null}, {"n", "m", "n"}};
    assertArrayEquals(
        new Object[] {12L, null, null},
        DynColBatch.parse("COLUMN_GET;i8;INT;b;s").apply(columns, 3));
    assertArrayEquals(
        new Object[] {new BigDecimal("12.00"), null, null},
        DynColBatch.parse("COLUMN_GET;n5x2;DECIMAL(5,2);b;s").apply(columns, 3));
    assertArrayEquals(
        new Object[] {"12", null, null},
        DynColBatch.parse("COLUMN_GET;s;CHAR;b;s").apply(columns, 3));
  }

  @Test
  void theOtherFunctions() {
    ByteString blob = create("n", 1);
    Object[][] one = {{blob, null}};
    assertArrayEquals(
        new Object[] {"`n`", null}, DynColBatch.parse("COLUMN_LIST;s;;b").apply(one, 2));
    assertArrayEquals(
        new Object[] {1, null}, DynColBatch.parse("COLUMN_CHECK;i4;;b").apply(one, 2));
    assertArrayEquals(
        new Object[] {"{\"n\":1}", null}, DynColBatch.parse("COLUMN_JSON;s;;b").apply(one, 2));
    Object[][] keyed = {{blob, blob}, {"n", "x"}};
    assertArrayEquals(
        new Object[] {1, 0}, DynColBatch.parse("COLUMN_EXISTS;i4;;b;s").apply(keyed, 2));
    Object[] deleted = DynColBatch.parse("COLUMN_DELETE;b;;b;s").apply(keyed, 2);
    assertEquals(DynColRuntime.delete(blob, new Object[] {"n"}), deleted[0]);
    assertEquals(blob, deleted[1]);
    Object[][] added = {{blob}, {"m"}, {2L}};
    assertEquals(
        DynColRuntime.add(blob, new Object[] {"m"}, new Object[] {2L}, INT, NO_TYPE),
        DynColBatch.parse("COLUMN_ADD;b;;b;s;i8:INT:").apply(added, 1)[0]);
  }

  @Test
  void mariadbsErrorsAreThrown() {
    Object[][] columns = {{"a", "a"}, {1L, 2L}, {"a", "b"}, {3L, 4L}};
    DynColBatch call = DynColBatch.parse("COLUMN_CREATE;b;;s;i8:INT:;s;i8:INT:");
    DynColException e = assertThrows(DynColException.class, () -> call.apply(columns, 2));
    assertEquals(DynColException.DATA, e.code());
    Object[][] bad = {{new ByteString(new byte[] {'x', 'y', 'z'})}, {"a"}};
    assertThrows(
        DynColException.class, () -> DynColBatch.parse("COLUMN_GET;i8;INT;b;s").apply(bad, 1));
  }

  @Test
  void malformedSpecsAreRejected() {
    assertThrows(IllegalArgumentException.class, () -> DynColBatch.parse("COLUMN_GET;i8"));
    assertThrows(IllegalArgumentException.class, () -> DynColBatch.parse("NOPE;i8;;b"));
    assertThrows(
        IllegalArgumentException.class, () -> DynColBatch.parse("COLUMN_GET;i8;INT;b;s;s"));
    assertThrows(IllegalArgumentException.class, () -> DynColBatch.parse("COLUMN_CREATE;b;;s;i8"));
    assertThrows(
        IllegalArgumentException.class,
        () -> DynColBatch.parse("COLUMN_GET;i8;INT;b").apply(new Object[][] {{null}}, 1));
  }
}

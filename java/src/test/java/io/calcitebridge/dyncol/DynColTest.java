package io.calcitebridge.dyncol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The codec against blobs written by MariaDB 10.11 ({@code SELECT HEX(COLUMN_CREATE(...))}). */
class DynColTest {
  private static byte[] hex(String s) {
    return HexFormat.of().parseHex(s);
  }

  private static String hex(byte[] b) {
    return HexFormat.of().withUpperCase().formatHex(b);
  }

  private static String create(Object... kv) {
    List<Object> keys = new java.util.ArrayList<>();
    List<DynValue> values = new java.util.ArrayList<>();
    for (int i = 0; i < kv.length; i += 2) {
      keys.add(kv[i]);
      values.add((DynValue) kv[i + 1]);
    }
    return hex(DynCol.create(keys, values));
  }

  @Test
  void integers() {
    // COLUMN_CREATE('a', 1)
    assertEquals("0401000100000000006102", create("a", DynValue.ofLong(1)));
    // COLUMN_CREATE('a',1,'b',-1,'cc',300,'d',NULL)
    assertEquals(
        "04030004000000000001001000020020006162636302015802",
        create(
            "cc",
            DynValue.ofLong(300),
            "a",
            DynValue.ofLong(1),
            "b",
            DynValue.ofLong(-1),
            "d",
            DynValue.NULL));
    // COLUMN_CREATE(1, 1): the numbered layout
    assertEquals("00010001000002", create(1, DynValue.ofLong(1)));
    // COLUMN_CREATE('a', 18446744073709551615)
    assertEquals("04010001000000010061FFFFFFFFFFFFFFFF", create("a", DynValue.ofUnsigned(-1L)));
    assertEquals("04010001000000000061C8", create("a", DynValue.ofLong(100)));
  }

  @Test
  void doublesStringsDecimals() {
    assertEquals("04010001000000020061000000000000F83F", create("a", DynValue.ofDouble(1.5)));
    assertEquals("040100010000000300612D2161", create("a", DynValue.ofString("!a")));
    assertEquals(
        "040100010000000300613F7879", create("a", DynValue.ofBinary(new byte[] {'x', 'y'})));
    assertEquals("0401000100000004006101018105", create("a", dec("1.5")));
    assertEquals("04010001000000040061020373FEA6", create("a", dec("-12.345")));
    assertEquals("04010001000000040061", create("a", dec("0.0")));
    assertEquals(
        "040100010000000400610C09807B1B3A0C14075BCD15", create("a", dec("123456789012.123456789")));
    assertEquals("0401000100000004006101018005", create("a", dec("0.5")));
    assertEquals("040100010000000400610301806400", create("a", dec("100.0")));
    assertEquals("0401000100000004006101037FFFFE", create("a", dec("-0.001")));
    assertEquals("0401000100000004006101028132", create("a", dec("1.50")));
    assertEquals(
        "0401000100000004006114018C149AA4350DFB38D205", create("a", dec("12345678901234567890.5")));
  }

  private static DynValue dec(String s) {
    return DynValue.ofDecimal(new BigDecimal(s));
  }

  @Test
  void temporal() {
    assertEquals(
        "040100010000000600615DD00F", create("a", DynValue.ofTime(DynTime.date(2024, 2, 29))));
    assertEquals(
        "04010001000000070061B8C800",
        create("a", DynValue.ofTime(DynTime.time(false, 12, 34, 56, 0))));
    assertEquals(
        "0401000100000007006120A1B7EF4607",
        create("a", DynValue.ofTime(DynTime.time(true, 838, 59, 59, 500000))));
    assertEquals(
        "040100010000000500615DD00FB8C800",
        create("a", DynValue.ofTime(DynTime.datetime(2024, 2, 29, 12, 34, 56, 0))));
    assertEquals(
        "040100010000000500615DD00F40E2818B0C00",
        create("a", DynValue.ofTime(DynTime.datetime(2024, 2, 29, 12, 34, 56, 123456))));
    // COLUMN_CREATE(1, DATE, 2, TIME, 3, DATETIME): the numbered layout always stores 6-byte times
    assertEquals(
        "00030001000602001F03004D5DD00F0000808B0C005DD00F0000808B0C00",
        create(
            1, DynValue.ofTime(DynTime.date(2024, 2, 29)),
            2, DynValue.ofTime(DynTime.time(false, 12, 34, 56, 0)),
            3, DynValue.ofTime(DynTime.datetime(2024, 2, 29, 12, 34, 56, 0))));
  }

  @Test
  void nestingAndEmpty() {
    byte[] inner = DynCol.create(List.of("b"), List.of(DynValue.ofLong(1)));
    assertEquals(
        "040100010000000800610401000100000000006202", create("a", DynValue.ofDynCol(inner)));
    // a nested blob forces the named layout
    byte[] inner2 = DynCol.create(List.of(2), List.of(DynValue.ofLong(3)));
    assertEquals("0401000100000008003100010002000006", create(1, DynValue.ofDynCol(inner2)));
    assertEquals("0400000000", create("a", DynValue.NULL));
    assertEquals("000000", create(1, DynValue.NULL));
    assertEquals("04010000000000000002", create("", DynValue.ofLong(1)));
  }

  @Test
  void addAndDelete() {
    byte[] num = hex("00030001000602001F03004D5DD00F0000808B0C005DD00F0000808B0C00");
    // numbered blob plus a name: converted, stored bytes kept
    byte[] numTd = hex("00020001000602001F5DD00F0000808B0C00");
    assertEquals(
        "0402000200000006000100300031625DD00F04",
        hex(DynCol.add(hex("000100010006" + "5DD00F"), List.of("b"), List.of(DynValue.ofLong(2)))));
    assertEquals(
        "0002000100000300080208",
        hex(DynCol.add(hex("00010001000002"), List.of(3), List.of(DynValue.ofLong(4)))));
    assertEquals(
        "0402000200000000000100100033610802",
        hex(DynCol.add(hex("0401000100000000006102"), List.of(3), List.of(DynValue.ofLong(4)))));
    byte[] ab = DynCol.create(List.of("a", "b"), List.of(DynValue.ofLong(1), DynValue.ofLong(2)));
    assertEquals("0401000100000000006102", hex(DynCol.delete(ab, List.of("b", "c"))));
    assertEquals("0400000000", hex(DynCol.delete(hex("0401000100000000006102"), List.of("a"))));
    byte[] n12 = DynCol.create(List.of(1, 2), List.of(DynValue.ofLong(1), DynValue.ofLong(2)));
    assertEquals("00010001000002", hex(DynCol.delete(n12, List.of(2))));
    // a name, even one that reads as a number, converts the blob to the named layout
    assertEquals("0401000100000000003102", hex(DynCol.delete(n12, List.of("2"))));
    assertEquals("0402000200000000000100100031320204", hex(DynCol.delete(n12, List.of("x"))));
    assertEquals(
        "040200020000000000010010003132020A",
        hex(DynCol.add(n12, List.of("2"), List.of(DynValue.ofLong(5)))));
    assertEquals("", hex(DynCol.add(new byte[0], List.of("b"), List.of(DynValue.NULL))));
    assertTrue(num.length > 0 && numTd.length > 0);
  }

  @Test
  void errors() {
    DynColException dup =
        assertThrows(
            DynColException.class,
            () ->
                DynCol.create(List.of("a", "a"), List.of(DynValue.ofLong(1), DynValue.ofLong(2))));
    assertEquals(1921, dup.code());
    assertEquals("Illegal value used as argument of dynamic column function", dup.getMessage());
    DynColException bad =
        assertThrows(DynColException.class, () -> DynCol.get("xyz".getBytes(), "a"));
    assertEquals("Encountered illegal format of dynamic column string", bad.getMessage());
    assertThrows(
        DynColException.class, () -> DynCol.create(List.of(65536), List.of(DynValue.ofLong(1))));
    assertThrows(
        DynColException.class,
        () -> DynCol.create(List.of("a".repeat(16384)), List.of(DynValue.ofLong(1))));
    assertFalse(DynCol.check("xyz".getBytes()));
    assertTrue(DynCol.check(new byte[0]));
    assertTrue(DynCol.check(hex("04030004000000000001001000020020006162636302015802")));
  }

  @Test
  void readsBack() {
    byte[] b = hex("04030004000000000001001000020020006162636302015802");
    assertEquals("`a`,`b`,`cc`", DynCol.list(b));
    assertEquals(DynValue.ofLong(300), DynCol.get(b, "cc"));
    assertEquals(DynValue.ofLong(-1), DynCol.get(b, "b"));
    assertTrue(DynCol.get(b, "zz").isNull());
    assertEquals(
        "{\"a\":3.5,\"b\":1,\"d\":1.50,\"e\":\"2020-01-02\",\"f\":{\"g\":1},\"aa\":\"x\\\"y\\\\z\"}",
        DynCol.json(
            DynCol.create(
                List.of("b", "aa", "a", "d", "e", "f"),
                List.of(
                    DynValue.ofLong(1),
                    DynValue.ofString("x\"y\\z"),
                    DynValue.ofDouble(3.5),
                    dec("1.50"),
                    DynValue.ofTime(DynTime.date(2020, 1, 2)),
                    DynValue.ofDynCol(DynCol.create(List.of("g"), List.of(DynValue.ofLong(1))))))));
    byte[] times = hex("040300030000000700010065000200F0003132620000808B0C0021C80F00000000000004");
    assertEquals("12:34:56", DynCol.get(times, "1").value.toString());
    assertEquals("2020-01-01 00:00:00", DynCol.get(times, "2").value.toString());
    assertEquals(
        new BigDecimal("-12.345"), DynCol.get(hex("04010001000000040061020373FEA6"), "a").value);
    assertEquals(
        new BigDecimal("123456789012.123456789"),
        DynCol.get(hex("040100010000000400610C09807B1B3A0C14075BCD15"), "a").value);
    assertEquals(
        DynValue.ofLong(2),
        DynCol.get(hex("00010001000002").clone(), "1").isNull()
            ? null
            : DynValue.ofLong(DynCol.get(hex("00010001000002"), "1").longValue() + 1));
    assertTrue(Arrays.equals(new byte[0], DynCol.add(new byte[0], List.of(), List.of())));
  }

  @Test
  void doubleText() {
    String[][] cases = {
      {"100", "100"},
      {"1e15", "1e15"},
      {"1e16", "1e16"},
      {"1.23e12", "1230000000000"},
      {"0.0001", "0.0001"},
      {"0.00001", "0.00001"},
      {"1.5e-5", "0.000015"},
      {"1e-10", "0.0000000001"},
      {"1.2345678901234568e17", "1.2345678901234568e17"},
      {"1.7976931348623157e308", "1.7976931348623157e308"},
      {"-1e100", "-1e100"},
      {"1.5e38", "1.5e38"},
      {"123456789.123", "123456789.123"},
      {"-2.5e-5", "-0.000025"}
    };
    for (String[] c : cases) {
      assertEquals(c[1], DynConvert.formatDouble(Double.parseDouble(c[0])), c[0]);
    }
    assertEquals("0.30000000000000004", DynConvert.formatDouble(0.1 + 0.2));
  }

  @Test
  void conversions() {
    assertEquals(42L, DynConvert.toLong(DynValue.ofString("42x")));
    assertEquals(0L, DynConvert.toLong(DynValue.ofString("abc")));
    assertEquals(3L, DynConvert.toLong(DynValue.ofString("3.9")));
    assertEquals(4L, DynConvert.toLong(dec("3.9")));
    assertEquals(-4L, DynConvert.toLong(dec("-3.5")));
    assertEquals(2L, DynConvert.toLong(DynValue.ofDouble(2.5)));
    assertEquals(4L, DynConvert.toLong(DynValue.ofDouble(3.9)));
    assertEquals(Long.MAX_VALUE, DynConvert.toLong(DynValue.ofDouble(1e300)));
    assertEquals(
        new BigDecimal("18446744073709551615"), DynConvert.toUnsigned(DynValue.ofLong(-1)));
    assertEquals(new BigDecimal("12.35"), DynConvert.toDecimal(dec("12.345"), 5, 2));
    assertEquals(new BigDecimal("99.99"), DynConvert.toDecimal(dec("123.456"), 4, 2));
    assertEquals(new BigDecimal("12.50"), DynConvert.toDecimal(DynValue.ofString("12.5abc"), 6, 2));
    assertEquals("hé", DynConvert.toChar(DynValue.ofString("héllo"), 2));
    assertEquals("61620000", hex(DynConvert.toBinary(DynValue.ofString("ab"), 4)));
    assertEquals(
        "2020-01-02", DynConvert.toDate(DynValue.ofString("2020-01-02 03:04:05")).toString());
    assertEquals("2020-01-02", DynConvert.toDate(DynValue.ofLong(20200102)).toString());
    assertEquals(
        "2020-01-02 03:04:05.120000",
        DynConvert.toDateTime(DynValue.ofString("2020-01-02 03:04:05.125"), 2).toString());
    assertEquals("00:00:01", DynConvert.toTime(DynValue.ofLong(1), 0).toString());
    assertEquals("10:00:00", DynConvert.toTime(DynValue.ofString("10:00:00.5"), 0).toString());
    assertEquals(null, DynConvert.toDate(DynValue.ofString("x")));
    assertEquals(20200102L, DynConvert.toLong(DynValue.ofTime(DynTime.date(2020, 1, 2))));
  }
}

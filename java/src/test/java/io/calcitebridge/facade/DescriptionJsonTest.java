package io.calcitebridge.facade;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The strings of a query's description ({@link StatementResult#jsonString}) read back unchanged.
 */
class DescriptionJsonTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static String roundTrip(String s) throws Exception {
    return JSON.readTree(StatementResult.jsonString(s)).asText();
  }

  @Test
  void specialCharactersAndUnicodeReadBackUnchanged() throws Exception {
    for (String s :
        new String[] {
          "",
          "plain",
          "quote \" and backslash \\ and slash /",
          "lines\nand\r\ttabs\b\f",
          "\u0000\u0001\u001f\u007f",
          "é 漢字 😀",
          "SELECT \"a\" FROM 't' WHERE x = '\\n'",
        }) {
      assertEquals(s, roundTrip(s), s);
    }
  }

  @Test
  void nullIsJsonNull() {
    assertEquals("null", StatementResult.jsonString(null));
  }

  @Test
  void randomStringsReadBackUnchanged() throws Exception {
    Random random = new Random(7);
    for (int n = 0; n < 2_000; n++) {
      StringBuilder s = new StringBuilder();
      int length = random.nextInt(12);
      for (int i = 0; i < length; i++) {
        int kind = random.nextInt(4);
        if (kind == 0) {
          s.append((char) random.nextInt(0x80));
        } else if (kind == 1) {
          s.append((char) (0x80 + random.nextInt(0xD800 - 0x80)));
        } else if (kind == 2) {
          s.appendCodePoint(0x10000 + random.nextInt(0x10FFFF - 0x10000));
        } else {
          s.append("\"\\\n");
        }
      }
      assertEquals(s.toString(), roundTrip(s.toString()));
    }
  }
}

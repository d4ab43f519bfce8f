package io.calcitebridge.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link JsonValues} reads and writes JSON as Jackson's data binding does, without a mapper. */
class JsonValuesTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  @Test
  void readsEveryJsonValueAsAMapperReadsItIntoAnObject() throws Exception {
    for (String json :
        List.of(
            "{\"kind\": \"call\", \"function\": \"AND\", \"args\": [{\"kind\": \"literal\","
                + " \"value\": null, \"type\": \"BOOLEAN\"}, {\"kind\": \"field\", \"name\":"
                + " \"a\\\"b\\u00e9\\n\", \"input_index\": 2}]}",
            "[1, -1, 2147483647, 2147483648, -2147483649, 9223372036854775807,"
                + " 9223372036854775808, -9223372036854775809]",
            "[1.5, -0.0, 1e300, 2E-5, 0.1, 123456789012345678901234567890.5]",
            "[true, false, null, \"\", \"snow \u2603 and \ud83d\ude00\"]",
            "{\"a\": 1, \"a\": 2, \"b\": {}}",
            "[]",
            "{}",
            "\"text\"",
            "42",
            "null",
            "{\"accepted\": [0, 2], \"remaining\": [1]} trailing")) {
      assertEquals(MAPPER.readValue(json, Object.class), JsonValues.parse(json), json);
    }
    assertEquals(Integer.class, JsonValues.parse("7").getClass());
    assertEquals(Long.class, JsonValues.parse("7000000000").getClass());
    assertEquals(BigInteger.class, JsonValues.parse("70000000000000000000").getClass());
    assertEquals(Double.class, JsonValues.parse("7.0").getClass());
    assertEquals(LinkedHashMap.class, JsonValues.parse("{}").getClass());
  }

  @Test
  void failsOnWhatIsNotJson() {
    for (String bad : List.of("", "not json", "{\"a\": }", "[1, 2", "{'a': 1}")) {
      assertThrows(IllegalArgumentException.class, () -> JsonValues.parse(bad), bad);
    }
  }

  @Test
  void writesAsAMapperWrites() throws Exception {
    Map<String, Object> call = new LinkedHashMap<>();
    call.put("kind", "call");
    call.put("function", "=");
    call.put("args", List.of(Map.of("kind", "field", "name", "é\"\\\n\t\u0001"), 3L));
    call.put("none", null);
    List<Object> values =
        Arrays.asList(
            call,
            List.of(1, -1L, Long.MAX_VALUE, Long.MIN_VALUE, (short) 3, (byte) -4),
            List.of(1.5, -0.0, 1e300, 2e-5, 0.1, Double.MAX_VALUE, Double.MIN_VALUE),
            List.of(Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 1.5f),
            List.of(
                new BigDecimal("12345678901234567890.125"),
                new BigInteger("-98765432109876543210")),
            List.of(true, false, "", "snow \u2603 \ud83d\ude00"),
            Map.of(),
            List.of(),
            java.util.Set.of("only"),
            null,
            "text",
            7L);
    for (Object v : values) {
      assertEquals(MAPPER.writeValueAsString(v), JsonValues.write(v), String.valueOf(v));
    }
    assertThrows(IllegalArgumentException.class, () -> JsonValues.write(new Object()));
  }

  @Test
  void writesPrettyAsAMappersDefaultPrettyPrinter() throws Exception {
    Map<String, Object> plan = new LinkedHashMap<>();
    plan.put("backend", "duckdb");
    plan.put("scans", List.of(Map.of("name", "scan_0"), List.of()));
    plan.put("rels", List.of(Map.of(), List.of(1, 2.5, "x"), Arrays.asList(null, true)));
    assertEquals(
        MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(plan),
        JsonValues.writePretty(plan));
  }

  @Test
  void whatItWritesReadsBack() {
    Map<String, Object> offer = new LinkedHashMap<>();
    offer.put("filters", List.of(Map.of("kind", "literal", "value", "x", "type", "STRING")));
    offer.put("limit", 10);
    offer.put("projection", Arrays.asList(List.of(0, 1), null));
    assertEquals(offer, JsonValues.parse(JsonValues.write(offer)));
  }
}

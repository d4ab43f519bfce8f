package io.calcitebridge.expr;

import java.util.LinkedHashMap;
import java.util.Map;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A constant. {@code value} is already in wire form: a Boolean, a Long, a Double, or a String
 * (decimals, dates, times and timestamps as text, bytes as base64); null is SQL NULL.
 *
 * @param value the value in wire form
 * @param dataType its SQL type
 */
public record Literal(@Nullable Object value, String dataType) implements Expression {
  @Override
  public String toString() {
    if (value == null) {
      return "NULL";
    }
    String base = dataType.replace(" NOT NULL", "");
    if (!(value instanceof String) || isNumericType()) {
      return String.valueOf(value);
    }
    String text = (String) value;
    if (base.equals("DATE")) {
      return "DATE '" + text + "'";
    }
    if (base.startsWith("TIMESTAMP_LTZ")) {
      return "TIMESTAMP WITH LOCAL TIME ZONE '" + text.replace("Z", "") + "'";
    }
    if (base.startsWith("TIMESTAMP")) {
      return "TIMESTAMP '" + text + "'";
    }
    if (base.startsWith("TIME")) {
      return "TIME '" + text + "'";
    }
    if (base.startsWith("BINARY") || base.startsWith("VARBINARY") || base.equals("BYTES")) {
      return "X'"
          + java.util.HexFormat.of().formatHex(java.util.Base64.getDecoder().decode(text))
          + "'";
    }
    return "'" + text.replace("'", "''") + "'";
  }

  private boolean isNumericType() {
    return dataType.startsWith("DECIMAL");
  }

  @Override
  public Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("kind", "literal");
    m.put("value", value);
    m.put("type", dataType);
    return m;
  }
}

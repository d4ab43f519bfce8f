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
    if (value instanceof String && !isNumericType()) {
      return "'" + ((String) value).replace("'", "''") + "'";
    }
    return String.valueOf(value);
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

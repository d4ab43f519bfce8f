package io.calcitebridge.expr;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Reads the JSON text of the wire format into maps and lists, which {@link
 * Expression#fromJson(Map)} decodes.
 */
final class ExpressionJson {
  private static final ObjectMapper JSON = new ObjectMapper();

  private ExpressionJson() {}

  static @Nullable Object parse(String json) {
    Object value;
    try {
      value = JSON.readValue(json, Object.class);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("Not a JSON expression: " + e.getOriginalMessage(), e);
    }
    return value;
  }
}

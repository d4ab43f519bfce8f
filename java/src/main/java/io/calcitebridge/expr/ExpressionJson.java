package io.calcitebridge.expr;

import io.calcitebridge.json.JsonValues;
import java.util.Map;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Reads the JSON text of the wire format into maps and lists, which {@link
 * Expression#fromJson(Map)} decodes.
 */
final class ExpressionJson {
  private ExpressionJson() {}

  static @Nullable Object parse(String json) {
    try {
      return JsonValues.parse(json);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("Not a JSON expression: " + e.getMessage(), e);
    }
  }
}

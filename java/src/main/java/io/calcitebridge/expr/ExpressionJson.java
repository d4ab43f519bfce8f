package io.calcitebridge.expr;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.checkerframework.checker.nullness.qual.Nullable;

/** Decodes the wire format that {@link Expression#toJson()} writes. */
final class ExpressionJson {
  private static final ObjectMapper JSON = new ObjectMapper();

  private ExpressionJson() {}

  static Expression parse(String json) {
    Object value;
    try {
      value = JSON.readValue(json, Object.class);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("Not a JSON expression: " + e.getOriginalMessage(), e);
    }
    return decode(value);
  }

  static Expression decode(@Nullable Object value) {
    if (!(value instanceof Map<?, ?> m)) {
      throw new IllegalArgumentException("An expression is a JSON object, not " + value);
    }
    String kind = String.valueOf(m.get("kind"));
    switch (kind) {
      case "field":
        return new FieldReference(
            text(m, "name"), text(m, "type"), integer(m, "input_index"), integer(m, "field_index"));
      case "nested":
        List<String> names = new ArrayList<>();
        for (Object n : list(m, "names")) {
          names.add(String.valueOf(n));
        }
        List<Integer> indices = new ArrayList<>();
        for (Object i : list(m, "indices")) {
          indices.add(((Number) i).intValue());
        }
        return new NestedFieldReference(names, indices, text(m, "type"), integer(m, "input_index"));
      case "literal":
        return new Literal(wireValue(m.get("value")), text(m, "type"));
      case "call":
        List<Expression> args = new ArrayList<>();
        for (Object a : list(m, "args")) {
          args.add(decode(a));
        }
        return new Call(text(m, "function"), args, text(m, "type"));
      default:
        throw new IllegalArgumentException("Unknown expression kind '" + kind + "' in " + m);
    }
  }

  /** JSON numbers back in the forms {@link Literal} documents: Long or Double. */
  private static @Nullable Object wireValue(@Nullable Object v) {
    if (v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte) {
      return ((Number) v).longValue();
    }
    if (v instanceof BigInteger b) {
      return b.bitLength() < 64 ? (Object) b.longValue() : b.toString();
    }
    if (v instanceof Float || v instanceof BigDecimal) {
      return ((Number) v).doubleValue();
    }
    return v;
  }

  private static String text(Map<?, ?> m, String key) {
    Object v = m.get(key);
    if (v == null) {
      throw new IllegalArgumentException("Expression " + m + " has no '" + key + "'");
    }
    return String.valueOf(v);
  }

  private static int integer(Map<?, ?> m, String key) {
    Object v = m.get(key);
    return v instanceof Number n ? n.intValue() : 0;
  }

  private static List<?> list(Map<?, ?> m, String key) {
    Object v = m.get(key);
    if (!(v instanceof List<?> l)) {
      throw new IllegalArgumentException("Expression " + m + " has no list '" + key + "'");
    }
    return l;
  }
}

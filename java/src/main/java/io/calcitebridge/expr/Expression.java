package io.calcitebridge.expr;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A resolved expression handed to table sources: a filter the planner offers, or one a source
 * accepted. Immutable, equal by value, and rendered the way Flink's plans write them ({@code
 * <(user.age, 30)}). The same model exists in Python ({@code calcite_bridge.expressions}); {@link
 * #toJson()} is the wire format between them.
 */
public sealed interface Expression permits FieldReference, NestedFieldReference, Literal, Call {
  /**
   * The SQL type of the expression's value.
   *
   * @return the type as DDL writes it ({@code INT}, {@code ROW<...>}, {@code INT NOT NULL}, ...)
   */
  String dataType();

  /**
   * The JSON object of the wire format: a map of strings, numbers, booleans, lists and maps that a
   * JSON library writes as it is. {@link #fromJson(Map)} reads it back.
   *
   * @return the JSON object
   */
  Map<String, Object> toJson();

  /**
   * Reads an expression back from what {@link #toJson()} wrote (once a JSON library has decoded it
   * into maps and lists). A literal's integral numbers come back as {@code Long}, its other numbers
   * as {@code Double}.
   *
   * @param json the decoded JSON object
   * @return the expression, equal to the one that was written
   * @throws IllegalArgumentException when {@code json} is not an expression
   */
  static Expression fromJson(Map<String, ?> json) {
    return decode(json);
  }

  /**
   * Reads an expression from JSON text, as {@link #fromJson(Map)} does.
   *
   * @param json the JSON text of one expression
   * @return the expression
   * @throws IllegalArgumentException when {@code json} is not the JSON of an expression
   */
  static Expression fromJson(String json) {
    return decode(ExpressionJson.parse(json));
  }

  /**
   * Quotes a field name with backticks when it contains a dot or a backtick (or is empty), as the
   * renderings of {@code toString()} do.
   *
   * @param name a field name
   * @return the name, quoted when it needs to be
   */
  static String quoteName(String name) {
    if (name.contains(".") || name.contains("`") || name.isEmpty()) {
      return "`" + name.replace("`", "``") + "`";
    }
    return name;
  }

  /** An expression from its decoded JSON object; {@link #fromJson(Map)} documents the rules. */
  private static Expression decode(@Nullable Object value) {
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

package io.calcitebridge.expr;

import java.util.Map;

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
    return ExpressionJson.decode(json);
  }

  /**
   * Reads an expression from JSON text, as {@link #fromJson(Map)} does.
   *
   * @param json the JSON text of one expression
   * @return the expression
   * @throws IllegalArgumentException when {@code json} is not the JSON of an expression
   */
  static Expression fromJson(String json) {
    return ExpressionJson.parse(json);
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
}

package io.calcitebridge.expr;

import java.util.Map;

/**
 * A resolved expression handed to table sources: a filter the planner offers, or one a source
 * accepted. Immutable, equal by value, and rendered the way Flink's plans write them ({@code
 * <(user.age, 30)}). The same model exists in Python ({@code calcite_bridge.expressions}); {@link
 * #toJson()} is the wire format between them.
 */
public sealed interface Expression permits FieldReference, NestedFieldReference, Literal, Call {
  /** The SQL type as our DDL writes it ({@code INT}, {@code ROW<...>}, ...). */
  String dataType();

  /** The JSON object of the wire format. */
  Map<String, Object> toJson();

  /** Quotes a field name with backticks when it contains a dot or a backtick. */
  static String quoteName(String name) {
    if (name.contains(".") || name.contains("`") || name.isEmpty()) {
      return "`" + name.replace("`", "``") + "`";
    }
    return name;
  }
}

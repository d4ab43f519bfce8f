package io.calcitebridge.expr;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A top-level column of a scan's row type.
 *
 * @param name the column name
 * @param dataType its type
 * @param inputIndex 0 for a scan; the join input otherwise
 * @param fieldIndex the column's position in the scan's row type
 */
public record FieldReference(String name, String dataType, int inputIndex, int fieldIndex)
    implements Expression {
  @Override
  public String toString() {
    return Expression.quoteName(name);
  }

  @Override
  public Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("kind", "field");
    m.put("name", name);
    m.put("type", dataType);
    m.put("input_index", inputIndex);
    m.put("field_index", fieldIndex);
    return m;
  }
}

package io.calcitebridge.expr;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A field inside a ROW column, such as {@code user.age}.
 *
 * @param fieldNames the path, top-level column first
 * @param fieldIndices one index a level: the column in the scan's row type, then the field inside
 *     each ROW
 * @param dataType the type of the leaf
 * @param inputIndex 0 for a scan; the join input otherwise
 */
public record NestedFieldReference(
    List<String> fieldNames, List<Integer> fieldIndices, String dataType, int inputIndex)
    implements Expression {
  /**
   * Creates a reference; the lists are copied.
   *
   * @throws IllegalArgumentException when the paths differ in length or have fewer than 2 levels
   */
  public NestedFieldReference {
    fieldNames = List.copyOf(fieldNames);
    fieldIndices = List.copyOf(fieldIndices);
    if (fieldNames.size() < 2 || fieldNames.size() != fieldIndices.size()) {
      throw new IllegalArgumentException("a nested reference needs matching paths of 2+ levels");
    }
  }

  @Override
  public String toString() {
    return fieldNames.stream().map(Expression::quoteName).collect(Collectors.joining("."));
  }

  @Override
  public Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("kind", "nested");
    m.put("names", fieldNames);
    m.put("indices", fieldIndices);
    m.put("type", dataType);
    m.put("input_index", inputIndex);
    return m;
  }
}

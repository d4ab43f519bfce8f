package io.calcitebridge.functions;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.adapter.enumerable.NullPolicy;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeName;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * ROW values as keys of Calcite's engine, compared by their fields. The engine holds a ROW as an
 * {@code Object[]}, and its hash tables (GROUP BY, DISTINCT, joins on {@code =}, UNION, INTERSECT,
 * EXCEPT) compare keys with {@code equals}: arrays as the same object, not by their fields. {@link
 * #key} wraps a value holding ROWs (a ROW, an ARRAY or MAP of them, nested) in a {@link Key}, equal
 * to another when their fields are, NULL fields equal to each other as grouping has them; {@link
 * #value} gives the value back, typed as before. Not in the operator table: the planner puts them
 * in plans for Calcite's engine ({@code enumerable/RowKeys}).
 */
public final class RowKeyValues {
  private RowKeyValues() {}

  private static final SqlOperator KEY =
      Fn.fn(
          "$ROW_KEY",
          ReturnTypes.explicit(SqlTypeName.ANY),
          OperandTypes.ANY,
          RowKeyValues.class,
          "wrap",
          NullPolicy.STRICT);

  private static final SqlOperator VALUE =
      Fn.fn(
          "$ROW_VALUE",
          ReturnTypes.ARG0,
          OperandTypes.ANY,
          RowKeyValues.class,
          "unwrap",
          NullPolicy.STRICT);

  /** Whether a value of {@code type} is, or holds, a ROW. */
  public static boolean holdsRow(RelDataType type) {
    if (type.isStruct()) {
      return true;
    }
    RelDataType component = type.getComponentType();
    RelDataType key = type.getKeyType();
    RelDataType value = type.getValueType();
    return (component != null && holdsRow(component))
        || (key != null && holdsRow(key))
        || (value != null && holdsRow(value));
  }

  /** {@code value} as a key compared by value, typed {@code ANY} (NULL when it is). */
  public static RexNode key(RexBuilder rex, RexNode value) {
    RelDataTypeFactory types = rex.getTypeFactory();
    RelDataType any =
        types.createTypeWithNullability(
            types.createSqlType(SqlTypeName.ANY), value.getType().isNullable());
    return rex.makeCall(any, KEY, List.of(value));
  }

  /** The value that {@code key} (a call of {@link #key}) wraps, typed {@code type}. */
  public static RexNode value(RexBuilder rex, RexNode key, RelDataType type) {
    return rex.makeCall(type, VALUE, List.of(key));
  }

  /** The key of a value holding ROWs. */
  public static Object wrap(Object value) {
    return new Key(value);
  }

  /** The value a key wraps. */
  public static Object unwrap(Object key) {
    return ((Key) key).value;
  }

  /**
   * A value holding ROWs, equal to another when their fields are: arrays as lists of their
   * elements, lists and maps by their elements, numbers by value ({@code 0.0} and {@code -0.0}
   * equal, as {@code =} has them).
   */
  static final class Key {
    final Object value;
    private final @Nullable Object fields;
    private final int hash;

    Key(Object value) {
      this.value = value;
      this.fields = comparable(value);
      this.hash = java.util.Objects.hashCode(fields);
    }

    @Override
    public boolean equals(@Nullable Object o) {
      return o instanceof Key k && hash == k.hash && java.util.Objects.equals(fields, k.fields);
    }

    @Override
    public int hashCode() {
      return hash;
    }

    @Override
    public String toString() {
      return String.valueOf(fields);
    }
  }

  /** {@code value} with its ROWs as lists, compared by {@code equals} field by field. */
  private static Object comparable(@Nullable Object value) {
    if (value instanceof Object[] fields) {
      List<@Nullable Object> list = new ArrayList<>(fields.length);
      for (Object field : fields) {
        list.add(comparable(field));
      }
      return list;
    }
    if (value instanceof List<?> elements) {
      List<@Nullable Object> list = new ArrayList<>(elements.size());
      for (Object element : elements) {
        list.add(comparable(element));
      }
      return list;
    }
    if (value instanceof Map<?, ?> map) {
      Map<@Nullable Object, @Nullable Object> copy = new HashMap<>();
      for (Map.Entry<?, ?> e : map.entrySet()) {
        copy.put(comparable(e.getKey()), comparable(e.getValue()));
      }
      return copy;
    }
    if (value instanceof Double d && d == 0.0d) {
      return 0.0d;
    }
    if (value instanceof Float f && f == 0.0f) {
      return 0.0f;
    }
    if (value instanceof BigDecimal d) {
      return d.signum() == 0 ? BigDecimal.ZERO : d.stripTrailingZeros();
    }
    return value;
  }
}

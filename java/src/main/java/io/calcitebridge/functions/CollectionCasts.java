package io.calcitebridge.functions;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.adapter.enumerable.NullPolicy;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A cast of an ARRAY or a MAP casts its elements (its keys and values), as in Flink: {@code
 * CAST(ARRAY['bc'] AS ARRAY<CHAR(1)>)} is {@code ['b']}, {@code CAST(ARRAY[1.25] AS
 * ARRAY<DECIMAL(2, 1)>)} is {@code [1.3]}. Calcite's engine kept the elements as they were, so
 * {@code ARRAY_APPEND(ARRAY[ARRAY['a']], ARRAY['bc'])} appended {@code ['bc']} where Flink cuts it
 * to the element type, {@code ['b']}.
 *
 * <p>{@link #elementCasts} rewrites such casts in a plan for Calcite's engine into {@link
 * #CAST_ELEMENTS}, when every element type is one it casts: CHAR(n) (cut or padded to n),
 * VARCHAR(n) (cut), the integer types (a fraction dropped, a string read as Flink reads it),
 * DECIMAL(p, s) (rounded half up), DOUBLE, FLOAT, BOOLEAN, and ARRAYs, MAPs and ROWs of them (a ROW
 * cast field by field, by position). DuckDB refuses casts of ARRAYs and MAPs.
 */
public final class CollectionCasts {
  private CollectionCasts() {}

  private static final SqlOperator CAST_ELEMENTS =
      Fn.fn(
          "$CAST_ELEMENTS",
          ReturnTypes.ARG0,
          OperandTypes.ANY,
          CollectionCasts.class,
          "castElements",
          NullPolicy.STRICT);

  /**
   * {@code call} computed by {@link #CAST_ELEMENTS} when it is a cast of an ARRAY or MAP that
   * changes its elements' types; else {@code call}. The planner applies it to each call of a plan
   * for Calcite's engine.
   */
  public static RexNode elementCasts(RexBuilder rex, RexCall call) {
    if (call.getKind() != SqlKind.CAST) {
      return call;
    }
    RelDataType from = call.getOperands().get(0).getType();
    RelDataType to = call.getType();
    boolean collection = to.getComponentType() != null || to.getKeyType() != null;
    String target = collection ? descriptor(to) : null;
    if (target == null || sameElements(from, to)) {
      return call;
    }
    return rex.makeCall(
        to, CAST_ELEMENTS, List.of(call.getOperands().get(0), rex.makeLiteral(target)));
  }

  private static boolean sameElements(RelDataType from, RelDataType to) {
    RelDataType a = from.getComponentType();
    RelDataType b = to.getComponentType();
    if (a != null && b != null) {
      return a.getFullTypeString().equals(b.getFullTypeString());
    }
    if (from.getKeyType() != null && to.getKeyType() != null) {
      return from.getKeyType().getFullTypeString().equals(to.getKeyType().getFullTypeString())
          && java.util.Objects.requireNonNull(from.getValueType())
              .getFullTypeString()
              .equals(java.util.Objects.requireNonNull(to.getValueType()).getFullTypeString());
    }
    return false;
  }

  /**
   * The conversion to {@code type} as text ({@code A(C1)} for ARRAY&lt;CHAR(1)&gt;), or null when a
   * type in it is not one this casts.
   */
  private static @Nullable String descriptor(RelDataType type) {
    RelDataType element = type.getComponentType();
    if (element != null) {
      String e = descriptor(element);
      return e == null ? null : "A(" + e + ")";
    }
    RelDataType key = type.getKeyType();
    RelDataType value = type.getValueType();
    if (key != null && value != null) {
      String k = descriptor(key);
      String v = descriptor(value);
      return k == null || v == null ? null : "M(" + k + ";" + v + ")";
    }
    if (type.isStruct()) {
      StringBuilder fields = new StringBuilder("R(");
      for (RelDataTypeField field : type.getFieldList()) {
        String f = descriptor(field.getType());
        if (f == null) {
          return null;
        }
        fields.append(field.getIndex() == 0 ? "" : ";").append(f);
      }
      return fields.append(')').toString();
    }
    return switch (type.getSqlTypeName()) {
      case BOOLEAN -> "B";
      case CHAR -> "C" + type.getPrecision();
      case VARCHAR -> "V" + type.getPrecision();
      case TINYINT -> "T";
      case SMALLINT -> "S";
      case INTEGER -> "I";
      case BIGINT -> "L";
      case DECIMAL -> "N" + type.getScale();
      case DOUBLE -> "D";
      case FLOAT, REAL -> "F";
      default -> null;
    };
  }

  /** {@code value} (a list or a map) with its elements cast as {@code target} says. */
  public static @Nullable Object castElements(Object value, String target) {
    return cast(value, target);
  }

  private static @Nullable Object cast(@Nullable Object value, String t) {
    if (value == null) {
      return null;
    }
    switch (t.charAt(0)) {
      case 'A':
        {
          String inner = t.substring(2, t.length() - 1);
          List<@Nullable Object> out = new ArrayList<>();
          for (Object e : (List<?>) value) {
            out.add(cast(e, inner));
          }
          return out;
        }
      case 'M':
        {
          String inner = t.substring(2, t.length() - 1);
          int split = split(inner);
          String k = inner.substring(0, split);
          String v = inner.substring(split + 1);
          Map<@Nullable Object, @Nullable Object> out = new LinkedHashMap<>();
          for (Map.Entry<?, ?> e : ((Map<?, ?>) value).entrySet()) {
            out.put(cast(e.getKey(), k), cast(e.getValue(), v));
          }
          return out;
        }
      case 'R':
        {
          List<String> fields = fields(t.substring(2, t.length() - 1));
          @Nullable Object[] row =
              value instanceof Object[] array ? array : ((List<?>) value).toArray();
          @Nullable Object[] out = new Object[fields.size()];
          for (int i = 0; i < out.length; i++) {
            out[i] = cast(row[i], fields.get(i));
          }
          return value instanceof Object[] ? out : java.util.Arrays.asList(out);
        }
      case 'B':
        return value;
      case 'C':
        {
          int n = Integer.parseInt(t.substring(1));
          String s = value.toString();
          return s.length() >= n ? s.substring(0, n) : s + " ".repeat(n - s.length());
        }
      case 'V':
        {
          int n = Integer.parseInt(t.substring(1));
          String s = value.toString();
          return n >= 0 && s.length() > n ? s.substring(0, n) : s;
        }
      case 'T':
        return (byte) integer(value);
      case 'S':
        return (short) integer(value);
      case 'I':
        return (int) integer(value);
      case 'L':
        return integer(value);
      case 'N':
        return decimal(value).setScale(Integer.parseInt(t.substring(1)), RoundingMode.HALF_UP);
      case 'D':
        return value instanceof Number n ? n.doubleValue() : Double.parseDouble(value.toString());
      case 'F':
        return value instanceof Number n ? n.floatValue() : Float.parseFloat(value.toString());
      default:
        throw new IllegalStateException("no element cast " + t);
    }
  }

  /** The descriptors of a ROW's fields, split at the {@code ;} between them. */
  private static List<String> fields(String inner) {
    List<String> out = new ArrayList<>();
    String rest = inner;
    for (int at = separator(rest); at >= 0; at = separator(rest)) {
      out.add(rest.substring(0, at));
      rest = rest.substring(at + 1);
    }
    out.add(rest);
    return out;
  }

  /** The position of the {@code ;} between a map's key and value descriptors. */
  private static int split(String inner) {
    int at = separator(inner);
    if (at < 0) {
      throw new IllegalStateException("no map descriptor: " + inner);
    }
    return at;
  }

  /** The position of the first {@code ;} outside parentheses, or -1. */
  private static int separator(String inner) {
    int depth = 0;
    for (int i = 0; i < inner.length(); i++) {
      char c = inner.charAt(i);
      if (c == '(') {
        depth++;
      } else if (c == ')') {
        depth--;
      } else if (c == ';' && depth == 0) {
        return i;
      }
    }
    return -1;
  }

  private static long integer(Object value) {
    if (value instanceof String s) {
      return NumberFunctions.parseInteger(s);
    }
    if (value instanceof BigDecimal d) {
      return d.longValue();
    }
    return ((Number) value).longValue();
  }

  private static BigDecimal decimal(Object value) {
    if (value instanceof BigDecimal d) {
      return d;
    }
    if (value instanceof Double || value instanceof Float) {
      return BigDecimal.valueOf(((Number) value).doubleValue());
    }
    if (value instanceof Number n) {
      return BigDecimal.valueOf(n.longValue());
    }
    return new BigDecimal(value.toString().trim());
  }
}

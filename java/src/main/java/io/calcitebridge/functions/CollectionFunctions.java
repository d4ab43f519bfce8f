package io.calcitebridge.functions;

import static io.calcitebridge.functions.Fn.Nulls.ANY;
import static io.calcitebridge.functions.Fn.fn;
import static io.calcitebridge.functions.Fn.strict;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.calcite.adapter.enumerable.NullPolicy;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlOperandCountRange;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.SqlOperandCountRanges;
import org.apache.calcite.sql.type.SqlOperandTypeChecker;
import org.apache.calcite.sql.type.SqlReturnTypeInference;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Flink's collection functions over {@code ARRAY} (a {@link List} at run time) and {@code MAP} (a
 * {@link Map}) values. An array that is NULL gives NULL; NULL elements are values like any other
 * ({@code ARRAY_CONTAINS(ARRAY[1, NULL], NULL)} is TRUE, {@code ARRAY_REMOVE(a, NULL)} removes
 * them), as in Flink. The functions that make sets ({@code ARRAY_DISTINCT}, {@code ARRAY_UNION},
 * {@code ARRAY_EXCEPT}, {@code ARRAY_INTERSECT}) keep the order in which elements first appear.
 */
public final class CollectionFunctions {
  private CollectionFunctions() {}

  private static final Class<?> C = CollectionFunctions.class;

  private static final SqlOperandTypeChecker A = OperandTypes.ARRAY;
  private static final SqlOperandTypeChecker AA =
      OperandTypes.family(SqlTypeFamily.ARRAY, SqlTypeFamily.ARRAY);

  /** An array and an element of it, cast to the array's element type as Flink casts it. */
  private static final SqlOperandTypeChecker A_ANY = new ArrayElement();

  private static final org.apache.calcite.sql.type.SqlSingleOperandTypeChecker M =
      OperandTypes.family(SqlTypeFamily.MAP);

  private static RelDataType nullable(RelDataTypeFactory f, RelDataType t, boolean nullable) {
    return f.createTypeWithNullability(t, nullable);
  }

  private static boolean anyNullable(SqlOperatorBinding b) {
    return b.collectOperandTypes().stream().anyMatch(RelDataType::isNullable);
  }

  /** The first operand's type, nullable when any operand is. */
  private static final SqlReturnTypeInference ARG0_ANY =
      b -> nullable(b.getTypeFactory(), b.getOperandType(0), anyNullable(b));

  /** The first operand's type, nullable when it is. */
  private static final SqlReturnTypeInference ARG0 = b -> b.getOperandType(0);

  /** The common array type of the operands, nullable when any operand is. */
  private static final SqlReturnTypeInference COMMON =
      b -> {
        RelDataType t = b.getTypeFactory().leastRestrictive(b.collectOperandTypes());
        if (t == null) {
          throw b instanceof SqlCallBinding call
              ? call.newValidationSignatureError()
              : new IllegalArgumentException("arrays of different types");
        }
        return nullable(b.getTypeFactory(), t, anyNullable(b));
      };

  /**
   * ARRAY_APPEND and ARRAY_PREPEND: the array's type, its element nullable if the new one is, and
   * nullable when an operand is (as Flink types it, though only a NULL array gives NULL).
   */
  private static final SqlReturnTypeInference WITH_ELEMENT =
      b -> {
        RelDataTypeFactory f = b.getTypeFactory();
        RelDataType array = b.getOperandType(0);
        RelDataType element = Objects.requireNonNull(array.getComponentType());
        RelDataType e =
            nullable(f, element, element.isNullable() || b.getOperandType(1).isNullable());
        return nullable(f, f.createArrayType(e, -1), anyNullable(b));
      };

  /** The element type of the array, always nullable: ARRAY_MAX, ARRAY_MIN. */
  private static final SqlReturnTypeInference ELEMENT =
      b ->
          nullable(
              b.getTypeFactory(),
              Objects.requireNonNull(b.getOperandType(0).getComponentType()),
              true);

  private static SqlReturnTypeInference of(SqlTypeName name, boolean anyOperand) {
    return b ->
        nullable(
            b.getTypeFactory(),
            b.getTypeFactory().createSqlType(name),
            anyOperand ? anyNullable(b) : b.getOperandType(0).isNullable());
  }

  private static SqlReturnTypeInference mapPart(boolean keys) {
    return b -> {
      RelDataTypeFactory f = b.getTypeFactory();
      RelDataType map = b.getOperandType(0);
      RelDataType part = Objects.requireNonNull(keys ? map.getKeyType() : map.getValueType());
      return nullable(f, f.createArrayType(part, -1), map.isNullable());
    };
  }

  private static final SqlReturnTypeInference ENTRIES =
      b -> {
        RelDataTypeFactory f = b.getTypeFactory();
        RelDataType map = b.getOperandType(0);
        RelDataType row =
            f.builder()
                .add("key", Objects.requireNonNull(map.getKeyType()))
                .add("value", Objects.requireNonNull(map.getValueType()))
                .build();
        return nullable(f, f.createArrayType(row, -1), map.isNullable());
      };

  private static final SqlReturnTypeInference FROM_ARRAYS =
      b -> {
        RelDataTypeFactory f = b.getTypeFactory();
        RelDataType k = Objects.requireNonNull(b.getOperandType(0).getComponentType());
        RelDataType v = Objects.requireNonNull(b.getOperandType(1).getComponentType());
        return nullable(f, f.createMapType(k, v), anyNullable(b));
      };

  private static final SqlReturnTypeInference STRINGS =
      b -> {
        RelDataTypeFactory f = b.getTypeFactory();
        RelDataType s = nullable(f, f.createSqlType(SqlTypeName.VARCHAR, Integer.MAX_VALUE), true);
        return nullable(f, f.createArrayType(s, -1), anyNullable(b));
      };

  public static final SqlOperator ARRAY_APPEND =
      fn("ARRAY_APPEND", WITH_ELEMENT, A_ANY, C, "arrayAppend", NullPolicy.ARG0);
  public static final SqlOperator ARRAY_PREPEND =
      fn("ARRAY_PREPEND", WITH_ELEMENT, A_ANY, C, "arrayPrepend", NullPolicy.ARG0);
  public static final SqlOperator ARRAY_CONCAT =
      strict(
          "ARRAY_CONCAT",
          COMMON,
          OperandTypes.repeat(SqlOperandCountRanges.from(1), OperandTypes.ARRAY),
          C,
          "arrayConcat");
  public static final SqlOperator ARRAY_CONTAINS =
      fn(
          "ARRAY_CONTAINS",
          of(SqlTypeName.BOOLEAN, false),
          A_ANY,
          C,
          "arrayContains",
          NullPolicy.ARG0);
  public static final SqlOperator ARRAY_POSITION =
      fn(
          "ARRAY_POSITION",
          of(SqlTypeName.INTEGER, true),
          A_ANY,
          C,
          "arrayPosition",
          NullPolicy.ARG0);
  public static final SqlOperator ARRAY_DISTINCT =
      strict("ARRAY_DISTINCT", ARG0, A, C, "arrayDistinct");
  public static final SqlOperator ARRAY_REMOVE =
      fn("ARRAY_REMOVE", ARG0, A_ANY, C, "arrayRemove", NullPolicy.ARG0);
  public static final SqlOperator ARRAY_REVERSE =
      strict("ARRAY_REVERSE", ARG0, A, C, "arrayReverse");
  public static final SqlOperator ARRAY_SLICE =
      strict(
          "ARRAY_SLICE",
          ARG0_ANY,
          OperandTypes.or(
              OperandTypes.family(SqlTypeFamily.ARRAY, SqlTypeFamily.INTEGER),
              OperandTypes.family(
                  SqlTypeFamily.ARRAY, SqlTypeFamily.INTEGER, SqlTypeFamily.INTEGER)),
          C,
          "arraySlice");
  public static final SqlOperator ARRAY_SORT =
      strict(
          "ARRAY_SORT",
          ARG0_ANY,
          new Elements(
              OperandTypes.or(
                  A,
                  OperandTypes.family(SqlTypeFamily.ARRAY, SqlTypeFamily.BOOLEAN),
                  OperandTypes.family(
                      SqlTypeFamily.ARRAY, SqlTypeFamily.BOOLEAN, SqlTypeFamily.BOOLEAN)),
              true),
          C,
          "arraySort");
  public static final SqlOperator ARRAY_UNION = strict("ARRAY_UNION", COMMON, AA, C, "arrayUnion");
  public static final SqlOperator ARRAY_EXCEPT =
      strict("ARRAY_EXCEPT", COMMON, AA, C, "arrayExcept");
  public static final SqlOperator ARRAY_INTERSECT =
      strict("ARRAY_INTERSECT", COMMON, AA, C, "arrayIntersect");

  /**
   * Flink's {@code ELEMENT(array)}: the only element of the array, NULL for an empty or NULL array,
   * an error for more than one. Its type is the element type, NOT NULL (as Flink types it) when the
   * operand is an array constructor of one NOT NULL element, which cannot be empty; Calcite's
   * {@code ELEMENT}, which it replaces, is always nullable.
   */
  public static final SqlOperator ELEMENT_OF =
      strict(
          "ELEMENT",
          b -> {
            RelDataType element = b.getOperandType(0).getComponentType();
            if (element == null) {
              // ELEMENT(NULL): untyped, which validation refuses with its position (it was a
              // NullPointerException).
              return b.getTypeFactory().createSqlType(org.apache.calcite.sql.type.SqlTypeName.NULL);
            }
            boolean one =
                b instanceof org.apache.calcite.sql.SqlCallBinding call
                    && call.operand(0).getKind()
                        == org.apache.calcite.sql.SqlKind.ARRAY_VALUE_CONSTRUCTOR
                    && ((org.apache.calcite.sql.SqlCall) call.operand(0)).operandCount() == 1
                    && !element.isNullable();
            return nullable(b.getTypeFactory(), element, !one);
          },
          A,
          C,
          "element");

  public static final SqlOperator ARRAY_MAX =
      strict("ARRAY_MAX", ELEMENT, new Elements(A, true), C, "arrayMax");
  public static final SqlOperator ARRAY_MIN =
      strict("ARRAY_MIN", ELEMENT, new Elements(A, true), C, "arrayMin");
  public static final SqlOperator ARRAY_JOIN =
      strict(
          "ARRAY_JOIN",
          Fn.string(ANY),
          new Elements(
              OperandTypes.or(
                  OperandTypes.family(SqlTypeFamily.ARRAY, SqlTypeFamily.CHARACTER),
                  OperandTypes.family(
                      SqlTypeFamily.ARRAY, SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER)),
              false),
          C,
          "arrayJoin");
  public static final SqlOperator MAP_KEYS = strict("MAP_KEYS", mapPart(true), M, C, "mapKeys");
  public static final SqlOperator MAP_VALUES =
      strict("MAP_VALUES", mapPart(false), M, C, "mapValues");
  public static final SqlOperator MAP_ENTRIES = strict("MAP_ENTRIES", ENTRIES, M, C, "mapEntries");
  public static final SqlOperator MAP_UNION =
      strict(
          "MAP_UNION",
          COMMON,
          OperandTypes.repeat(SqlOperandCountRanges.from(1), M),
          C,
          "mapUnion");
  public static final SqlOperator MAP_FROM_ARRAYS =
      strict("MAP_FROM_ARRAYS", FROM_ARRAYS, AA, C, "mapFromArrays");
  public static final SqlOperator SPLIT =
      strict(
          "SPLIT",
          STRINGS,
          OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER),
          C,
          "split");

  /**
   * The operands of ARRAY_APPEND, ARRAY_PREPEND, ARRAY_CONTAINS, ARRAY_POSITION and ARRAY_REMOVE:
   * an array and an element that Flink casts implicitly to the array's element type ({@link
   * #implicit}), else the call is invalid. The element becomes a {@code CAST} to that type (its own
   * nullability kept), so {@code ARRAY_APPEND(ARRAY['a'], 'bc')} appends {@code 'b'}, {@code
   * ARRAY_CONTAINS(ARRAY[1.5], 1.54)} is TRUE and {@code ARRAY_APPEND(ARRAY[1], 2.5)} is refused,
   * as in Flink. The cast is added as Calcite's implicit coercion adds one, with its validated
   * type.
   */
  private static final class ArrayElement implements SqlOperandTypeChecker {
    @Override
    public boolean checkOperandTypes(SqlCallBinding binding, boolean throwOnFailure) {
      RelDataType array = binding.getOperandType(0);
      RelDataType element = binding.getOperandType(1);
      RelDataType component = array.getComponentType();
      if (array.getSqlTypeName() != SqlTypeName.ARRAY
          || component == null
          || !implicit(element, component)) {
        if (throwOnFailure) {
          throw binding.newValidationSignatureError();
        }
        return false;
      }
      if (element.getSqlTypeName() != SqlTypeName.NULL
          && !SqlTypeUtil.equalSansNullability(binding.getTypeFactory(), element, component)) {
        RelDataType target =
            binding.getTypeFactory().createTypeWithNullability(component, element.isNullable());
        org.apache.calcite.sql.SqlNode operand = binding.operand(1);
        org.apache.calcite.sql.SqlCall cast =
            org.apache.calcite.sql.fun.SqlStdOperatorTable.CAST.createCall(
                operand.getParserPosition(),
                operand,
                SqlTypeUtil.convertTypeToSpec(target).withNullable(target.isNullable()));
        binding.getCall().setOperand(1, cast);
        binding.getValidator().setValidatedNodeType(cast, target);
      }
      return true;
    }

    @Override
    public SqlOperandCountRange getOperandCountRange() {
      return SqlOperandCountRanges.of(2);
    }

    @Override
    public String getAllowedSignatures(SqlOperator op, String opName) {
      return opName + "(<ARRAY>, <ELEMENT>)";
    }
  }

  /** Messages of the errors of the collection functions. */
  public interface Messages {
    Messages RESOURCE = org.apache.calcite.runtime.Resources.create(Messages.class);

    @org.apache.calcite.runtime.Resources.BaseMessage(
        "{0} needs elements that can be ordered: type ''{1}'' should support both ''EQUALS'' and"
            + " ''ORDER'' comparison with itself (as in Flink)")
    org.apache.calcite.runtime.Resources.ExInst<
            org.apache.calcite.sql.validate.SqlValidatorException>
        unordered(String function, String type);
  }

  /**
   * The operands of {@code inner}, whose first is an array of elements that Flink takes: ARRAY_JOIN
   * joins strings only ({@code ARRAY_JOIN(ARRAY[1, 2], ',')} is refused, as in Flink: write the
   * CAST), and ARRAY_MIN, ARRAY_MAX and ARRAY_SORT ({@code ordered}) need elements that Flink
   * orders: not a BOOLEAN, an interval, an ARRAY, a MAP, a MULTISET or a ROW ("Type 'BOOLEAN NOT
   * NULL' should support both 'EQUALS' and 'ORDER' comparison with itself", Flink says). Flink
   * refuses them while validating, and so do these.
   */
  private static final class Elements implements SqlOperandTypeChecker {
    private final SqlOperandTypeChecker inner;
    private final boolean ordered;

    Elements(SqlOperandTypeChecker inner, boolean ordered) {
      this.inner = inner;
      this.ordered = ordered;
    }

    @Override
    public boolean checkOperandTypes(SqlCallBinding binding, boolean throwOnFailure) {
      if (!inner.checkOperandTypes(binding, throwOnFailure)) {
        return false;
      }
      RelDataType element = binding.getOperandType(0).getComponentType();
      if (element == null || element.getSqlTypeName() == SqlTypeName.NULL) {
        return true;
      }
      if (!ordered) {
        if (SqlTypeUtil.inCharFamily(element)) {
          return true;
        }
        if (throwOnFailure) {
          throw binding.newValidationSignatureError();
        }
        return false;
      }
      if (orderable(element)) {
        return true;
      }
      if (throwOnFailure) {
        throw binding.newValidationError(
            Messages.RESOURCE.unordered(
                binding.getOperator().getName(), element.getFullTypeString()));
      }
      return false;
    }

    /** Whether Flink orders values of {@code t}: not BOOLEAN, intervals or composite types. */
    private static boolean orderable(RelDataType t) {
      return !(SqlTypeUtil.isBoolean(t)
          || SqlTypeUtil.isInterval(t)
          || t.isStruct()
          || t.getComponentType() != null
          || SqlTypeUtil.isMap(t));
    }

    @Override
    public SqlOperandCountRange getOperandCountRange() {
      return inner.getOperandCountRange();
    }

    @Override
    public String getAllowedSignatures(SqlOperator op, String opName) {
      return ordered
          ? inner.getAllowedSignatures(op, opName)
          : opName + "(<ARRAY<STRING>>, <STRING>[, <STRING>])";
    }
  }

  /**
   * Whether Flink casts a value of {@code from} to {@code to} implicitly (its {@code
   * LogicalTypeCasts.supportsImplicitCast}, as PyFlink 2.3 answers for the array functions): the
   * same type of any length or precision; CHAR to VARCHAR and BINARY to VARBINARY, not back; an
   * integer to a wider one; any number to a DECIMAL or DOUBLE, and to a FLOAT but a DOUBLE; a
   * TIMESTAMP to a DATE or TIMESTAMP_LTZ; an interval to one of the same kind (day-time or
   * year-month); ROWs of as many fields, ARRAYs, MAPs and MULTISETs whose parts cast so.
   */
  static boolean implicit(RelDataType from, RelDataType to) {
    SqlTypeName f = from.getSqlTypeName();
    SqlTypeName t = to.getSqlTypeName();
    if (f == SqlTypeName.NULL) {
      return true;
    }
    if (from.isStruct() || to.isStruct()) {
      if (!from.isStruct() || !to.isStruct() || from.getFieldCount() != to.getFieldCount()) {
        return false;
      }
      for (int i = 0; i < from.getFieldCount(); i++) {
        if (!implicit(from.getFieldList().get(i).getType(), to.getFieldList().get(i).getType())) {
          return false;
        }
      }
      return true;
    }
    if (f == SqlTypeName.MAP || t == SqlTypeName.MAP) {
      return f == t
          && implicit(
              Objects.requireNonNull(from.getKeyType()), Objects.requireNonNull(to.getKeyType()))
          && implicit(
              Objects.requireNonNull(from.getValueType()),
              Objects.requireNonNull(to.getValueType()));
    }
    if (from.getComponentType() != null || to.getComponentType() != null) {
      return f == t
          && from.getComponentType() != null
          && to.getComponentType() != null
          && implicit(from.getComponentType(), to.getComponentType());
    }
    if (f == t
        || (SqlTypeName.DAY_INTERVAL_TYPES.contains(f)
            && SqlTypeName.DAY_INTERVAL_TYPES.contains(t))
        || (SqlTypeName.YEAR_INTERVAL_TYPES.contains(f)
            && SqlTypeName.YEAR_INTERVAL_TYPES.contains(t))) {
      return true;
    }
    switch (t) {
      case VARCHAR:
        return f == SqlTypeName.CHAR;
      case VARBINARY:
        return f == SqlTypeName.BINARY;
      case SMALLINT:
        return f == SqlTypeName.TINYINT;
      case INTEGER:
        return f == SqlTypeName.TINYINT || f == SqlTypeName.SMALLINT;
      case BIGINT:
        return f == SqlTypeName.TINYINT || f == SqlTypeName.SMALLINT || f == SqlTypeName.INTEGER;
      case DECIMAL:
      case DOUBLE:
        return SqlTypeName.NUMERIC_TYPES.contains(f);
      case FLOAT:
      case REAL:
        return SqlTypeName.NUMERIC_TYPES.contains(f) && f != SqlTypeName.DOUBLE;
      case DATE:
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
        return f == SqlTypeName.TIMESTAMP;
      default:
        return false;
    }
  }

  public static final List<SqlOperator> ALL =
      List.of(
          ELEMENT_OF,
          ARRAY_APPEND,
          ARRAY_PREPEND,
          ARRAY_CONCAT,
          ARRAY_CONTAINS,
          ARRAY_POSITION,
          ARRAY_DISTINCT,
          ARRAY_REMOVE,
          ARRAY_REVERSE,
          ARRAY_SLICE,
          ARRAY_SORT,
          ARRAY_UNION,
          ARRAY_EXCEPT,
          ARRAY_INTERSECT,
          ARRAY_MAX,
          ARRAY_MIN,
          ARRAY_JOIN,
          MAP_KEYS,
          MAP_VALUES,
          MAP_ENTRIES,
          MAP_UNION,
          MAP_FROM_ARRAYS,
          SPLIT);

  // ---- implementations ---------------------------------------------------------------------

  public static List<@Nullable Object> arrayAppend(List<@Nullable Object> a, @Nullable Object e) {
    List<@Nullable Object> out = new ArrayList<>(a);
    out.add(e);
    return out;
  }

  public static List<@Nullable Object> arrayPrepend(List<@Nullable Object> a, @Nullable Object e) {
    List<@Nullable Object> out = new ArrayList<>(a.size() + 1);
    out.add(e);
    out.addAll(a);
    return out;
  }

  @SuppressWarnings("unchecked")
  public static List<@Nullable Object> arrayConcat(List<?>... arrays) {
    List<@Nullable Object> out = new ArrayList<>();
    for (List<?> a : arrays) {
      out.addAll(a);
    }
    return out;
  }

  /**
   * Whether an element equals {@code e}: numbers by value, whatever their class and scale ({@code
   * 2.5} and {@code 2.50}, an INT and a BIGINT), as Flink compares them; a DOUBLE or FLOAT with
   * Java's {@code ==}, as Flink does, so NaN equals nothing (not even NaN) and -0.0 equals 0.0;
   * else {@link Objects#equals}.
   */
  private static boolean same(@Nullable Object x, @Nullable Object e) {
    if (floating(x) && floating(e)) {
      return ((Number) x).doubleValue() == ((Number) e).doubleValue();
    }
    if (x instanceof Number a
        && e instanceof Number b
        && (a.getClass() != b.getClass() || a instanceof BigDecimal)
        && !(a instanceof Double
            || a instanceof Float
            || b instanceof Double
            || b instanceof Float)) {
      return new BigDecimal(a.toString()).compareTo(new BigDecimal(b.toString())) == 0;
    }
    return Objects.equals(x, e);
  }

  private static boolean floating(@Nullable Object x) {
    return x instanceof Double || x instanceof Float;
  }

  /**
   * What an element is told apart by in ARRAY_DISTINCT, ARRAY_UNION, ARRAY_EXCEPT and
   * ARRAY_INTERSECT, as {@link #same} compares: -0.0 is 0.0, and each NaN is a key of its own, as
   * Flink keeps every NaN ({@code ARRAY_DISTINCT(ARRAY[NaN, NaN])} is both).
   */
  private static @Nullable Object key(@Nullable Object x) {
    if (x instanceof Double d) {
      return d.isNaN() ? new Object() : d == 0.0 ? (Object) 0.0d : d;
    }
    if (x instanceof Float f) {
      return f.isNaN() ? new Object() : f == 0.0f ? (Object) 0.0f : f;
    }
    return x;
  }

  /** The elements of {@code a} whose key is (or, if not {@code in}, is not) among {@code keys}. */
  private static List<@Nullable Object> distinct(
      List<@Nullable Object> a, @Nullable Set<@Nullable Object> keys, boolean in) {
    Map<@Nullable Object, @Nullable Object> out = new LinkedHashMap<>();
    for (Object x : a) {
      Object k = key(x);
      if (keys == null || keys.contains(k) == in) {
        out.putIfAbsent(k, x);
      }
    }
    return new ArrayList<>(out.values());
  }

  private static Set<@Nullable Object> keys(List<@Nullable Object> a) {
    Set<@Nullable Object> out = new HashSet<>();
    for (Object x : a) {
      out.add(key(x));
    }
    return out;
  }

  public static boolean arrayContains(List<@Nullable Object> a, @Nullable Object e) {
    for (Object x : a) {
      if (same(x, e)) {
        return true;
      }
    }
    return false;
  }

  public static @Nullable Integer arrayPosition(List<@Nullable Object> a, @Nullable Object e) {
    if (e == null) {
      return null;
    }
    for (int i = 0; i < a.size(); i++) {
      if (same(a.get(i), e)) {
        return i + 1;
      }
    }
    return 0;
  }

  public static List<@Nullable Object> arrayDistinct(List<@Nullable Object> a) {
    return distinct(a, null, true);
  }

  public static List<@Nullable Object> arrayRemove(List<@Nullable Object> a, @Nullable Object e) {
    List<@Nullable Object> out = new ArrayList<>(a.size());
    for (Object x : a) {
      if (!same(x, e)) {
        out.add(x);
      }
    }
    return out;
  }

  public static List<@Nullable Object> arrayReverse(List<@Nullable Object> a) {
    List<@Nullable Object> out = new ArrayList<>(a);
    Collections.reverse(out);
    return out;
  }

  public static List<@Nullable Object> arraySlice(List<@Nullable Object> a, int start) {
    return arraySlice(a, start, a.size());
  }

  /**
   * Elements {@code start} to {@code end}, both included, counting from 1, as Flink slices: a
   * negative position counts from the end (-1 is the last), a start before the first is the first,
   * and an end of 0 (or counted back to 0) is the first.
   */
  public static List<@Nullable Object> arraySlice(List<@Nullable Object> a, int start, int end) {
    int n = a.size();
    long from = Math.max(1L, start < 0 ? (long) start + n + 1 : start);
    long to = end < 0 ? (long) end + n + 1 : end;
    to = to == 0 ? 1 : Math.min(to, n);
    if (n == 0 || from > to) {
      return new ArrayList<>();
    }
    return new ArrayList<>(a.subList((int) from - 1, (int) to));
  }

  public static List<@Nullable Object> arraySort(List<@Nullable Object> a) {
    return arraySort(a, true);
  }

  public static List<@Nullable Object> arraySort(List<@Nullable Object> a, boolean ascending) {
    return arraySort(a, ascending, ascending);
  }

  /** Sorted ascending or descending, NULLs first or last. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  public static List<@Nullable Object> arraySort(
      List<@Nullable Object> a, boolean ascending, boolean nullsFirst) {
    Comparator<Object> order = (x, y) -> ((Comparable) x).compareTo(y);
    if (!ascending) {
      order = order.reversed();
    }
    Comparator<@Nullable Object> c =
        nullsFirst ? Comparator.nullsFirst(order) : Comparator.nullsLast(order);
    List<@Nullable Object> out = new ArrayList<>(a);
    out.sort(c);
    return out;
  }

  public static List<@Nullable Object> arrayUnion(
      List<@Nullable Object> a, List<@Nullable Object> b) {
    List<@Nullable Object> both = new ArrayList<>(a);
    both.addAll(b);
    return distinct(both, null, true);
  }

  public static List<@Nullable Object> arrayExcept(
      List<@Nullable Object> a, List<@Nullable Object> b) {
    return distinct(a, keys(b), false);
  }

  public static List<@Nullable Object> arrayIntersect(
      List<@Nullable Object> a, List<@Nullable Object> b) {
    return distinct(a, keys(b), true);
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static @Nullable Object extreme(List<@Nullable Object> a, int sign) {
    Object best = null;
    for (Object x : a) {
      if (x != null && (best == null || sign * ((Comparable) x).compareTo(best) > 0)) {
        best = x;
      }
    }
    return best;
  }

  public static @Nullable Object element(List<@Nullable Object> a) {
    if (a.size() > 1) {
      throw new IllegalArgumentException("ELEMENT: the array has more than one element");
    }
    return a.isEmpty() ? null : a.get(0);
  }

  public static @Nullable Object arrayMax(List<@Nullable Object> a) {
    return extreme(a, 1);
  }

  public static @Nullable Object arrayMin(List<@Nullable Object> a) {
    return extreme(a, -1);
  }

  public static String arrayJoin(List<@Nullable Object> a, String delimiter) {
    StringBuilder out = new StringBuilder();
    boolean first = true;
    for (Object x : a) {
      if (x != null) {
        if (!first) {
          out.append(delimiter);
        }
        out.append(x);
        first = false;
      }
    }
    return out.toString();
  }

  public static String arrayJoin(List<@Nullable Object> a, String delimiter, String nulls) {
    List<@Nullable Object> replaced = new ArrayList<>(a.size());
    for (Object x : a) {
      replaced.add(x == null ? nulls : x);
    }
    return arrayJoin(replaced, delimiter);
  }

  public static List<@Nullable Object> mapKeys(Map<?, ?> m) {
    return new ArrayList<>(m.keySet());
  }

  public static List<@Nullable Object> mapValues(Map<?, ?> m) {
    return new ArrayList<>(m.values());
  }

  public static List<Object[]> mapEntries(Map<?, ?> m) {
    List<Object[]> out = new ArrayList<>(m.size());
    for (Map.Entry<?, ?> e : m.entrySet()) {
      out.add(new Object[] {e.getKey(), e.getValue()});
    }
    return out;
  }

  public static Map<?, ?> mapUnion(Map<?, ?>... maps) {
    Map<@Nullable Object, @Nullable Object> out = new LinkedHashMap<>();
    for (Map<?, ?> m : maps) {
      out.putAll(m);
    }
    return out;
  }

  public static Map<?, ?> mapFromArrays(
      List<@Nullable Object> keys, List<@Nullable Object> values) {
    if (keys.size() != values.size()) {
      throw new IllegalArgumentException(
          "MAP_FROM_ARRAYS: the arrays of keys and values have different lengths ("
              + keys.size()
              + " and "
              + values.size()
              + ")");
    }
    Map<@Nullable Object, @Nullable Object> out = new LinkedHashMap<>();
    for (int i = 0; i < keys.size(); i++) {
      out.put(keys.get(i), values.get(i));
    }
    return out;
  }

  /**
   * The parts of {@code s} between occurrences of {@code delimiter}, empty parts included; an empty
   * delimiter splits into characters, an empty string gives an empty array.
   */
  public static List<@Nullable Object> split(String s, String delimiter) {
    List<@Nullable Object> out = new ArrayList<>();
    if (s.isEmpty()) {
      return out;
    }
    if (delimiter.isEmpty()) {
      s.codePoints().forEach(c -> out.add(new String(Character.toChars(c))));
      return out;
    }
    int from = 0;
    while (true) {
      int at = s.indexOf(delimiter, from);
      if (at < 0) {
        out.add(s.substring(from));
        return out;
      }
      out.add(s.substring(from, at));
      from = at + delimiter.length();
    }
  }
}

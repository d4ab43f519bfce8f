package io.calcitebridge.functions;

import static io.calcitebridge.functions.Fn.fn;
import static io.calcitebridge.functions.Fn.strict;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.adapter.enumerable.NullPolicy;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.SqlReturnTypeInference;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;

/**
 * Flink's conditional functions. {@code IF}, {@code IFNULL}, {@code GREATEST} and {@code LEAST}
 * have the types Flink gives them (the common type of the values; {@code IF} makes a {@code CHAR}
 * one {@code VARCHAR}); SQL conversion ({@link #convert}) casts their operands to that type, and
 * writes {@code IF} and {@code IFNULL} as {@code CASE}.
 */
public final class ConditionalFunctions {
  private ConditionalFunctions() {}

  private static final Class<?> C = ConditionalFunctions.class;

  /** The common type of operands {@code from..}, nullable as {@code nullable} says. */
  private static RelDataType common(SqlOperatorBinding b, int from, boolean nullable) {
    RelDataTypeFactory f = b.getTypeFactory();
    List<RelDataType> types =
        new ArrayList<>(b.collectOperandTypes().subList(from, b.getOperandCount()));
    RelDataType t = f.leastRestrictive(types);
    if (t == null) {
      if (b instanceof SqlCallBinding call) {
        throw call.newValidationSignatureError();
      }
      throw new IllegalArgumentException("no common type of " + types);
    }
    return f.createTypeWithNullability(t, nullable);
  }

  private static boolean anyNullable(SqlOperatorBinding b) {
    return b.collectOperandTypes().stream().anyMatch(RelDataType::isNullable);
  }

  private static final SqlReturnTypeInference IF_TYPE =
      b -> {
        RelDataType t = common(b, 1, anyNullable(b));
        if (t.getSqlTypeName() == SqlTypeName.CHAR) {
          RelDataTypeFactory f = b.getTypeFactory();
          t =
              f.createTypeWithNullability(
                  f.createTypeWithCharsetAndCollation(
                      f.createSqlType(SqlTypeName.VARCHAR, t.getPrecision()),
                      t.getCharset(),
                      t.getCollation()),
                  t.isNullable());
        }
        return t;
      };

  /**
   * Flink's type of {@code IFNULL(x, y)}: the common type of both, NOT NULL when either is; but a
   * NOT NULL {@code x} that is a character or binary string keeps its own type, which is the result
   * ({@code IFNULL('a', 'bcd')} is {@code CHAR(1) NOT NULL}, where {@code IFNULL(1, CAST(2 AS
   * BIGINT))} is {@code BIGINT NOT NULL}), as PyFlink 2.3 answers.
   */
  private static final SqlReturnTypeInference IFNULL_TYPE =
      b -> {
        RelDataType first = b.getOperandType(0);
        RelDataType t =
            common(b, 0, b.getOperandType(0).isNullable() && b.getOperandType(1).isNullable());
        return !first.isNullable() && SqlTypeUtil.isString(first) ? first : t;
      };

  /**
   * Flink's type of {@code COALESCE}: the common type of the operands (none between a number and a
   * string, a string and a datetime, a string and BYTES: {@code COALESCE(1, 'a')} is refused, as in
   * Flink), NOT NULL when any operand is ({@code COALESCE(1, CAST(NULL AS INT))} is {@code INT NOT
   * NULL}); Calcite's is NOT NULL only when the last operand is.
   */
  private static final SqlReturnTypeInference COALESCE_TYPE =
      b -> {
        List<RelDataType> types = b.collectOperandTypes();
        RelDataType t = b.getTypeFactory().leastRestrictive(types);
        boolean mixed = t == null;
        for (RelDataType x : types) {
          for (RelDataType y : types) {
            mixed |= !mixable(x, y);
          }
        }
        if (mixed || t == null) {
          if (b instanceof SqlCallBinding call) {
            throw call.newValidationError(
                org.apache.calcite.util.Static.RESOURCE.illegalMixingOfTypes());
          }
          throw new IllegalArgumentException("no common type of " + types);
        }
        return b.getTypeFactory()
            .createTypeWithNullability(t, types.stream().allMatch(RelDataType::isNullable));
      };

  /**
   * Whether Flink finds a common type of {@code x} and {@code y} where Calcite's may: never between
   * a character string and another type, nor between BYTES and another type, nor between arrays or
   * maps of such elements. The other pairs are left to the type factory.
   */
  private static boolean mixable(RelDataType x, RelDataType y) {
    if (x.getSqlTypeName() == SqlTypeName.NULL || y.getSqlTypeName() == SqlTypeName.NULL) {
      return true;
    }
    if (SqlTypeUtil.isCharacter(x) != SqlTypeUtil.isCharacter(y)
        || SqlTypeUtil.isBinary(x) != SqlTypeUtil.isBinary(y)) {
      return false;
    }
    if (x.getComponentType() != null && y.getComponentType() != null) {
      return mixable(x.getComponentType(), y.getComponentType());
    }
    if (x.getKeyType() != null && y.getKeyType() != null) {
      return mixable(x.getKeyType(), y.getKeyType())
          && mixable(
              java.util.Objects.requireNonNull(x.getValueType()),
              java.util.Objects.requireNonNull(y.getValueType()));
    }
    return true;
  }

  private static final SqlReturnTypeInference EXTREME_TYPE = b -> common(b, 0, anyNullable(b));

  public static final SqlOperator IF =
      fn(
          "IF",
          IF_TYPE,
          OperandTypes.family(SqlTypeFamily.BOOLEAN, SqlTypeFamily.ANY, SqlTypeFamily.ANY),
          C,
          "unreachable",
          NullPolicy.NONE);
  public static final SqlOperator IFNULL =
      fn("IFNULL", IFNULL_TYPE, OperandTypes.SAME_SAME, C, "unreachable", NullPolicy.NONE);

  /**
   * Flink's {@code COALESCE} ({@link #COALESCE_TYPE}), which the validator puts in place of
   * Calcite's before Calcite rewrites it into a CASE (whose type is nullable unless the last
   * operand is NOT NULL); SQL conversion writes it as that CASE ({@link #convert}).
   */
  public static final SqlOperator COALESCE =
      fn("COALESCE", COALESCE_TYPE, OperandTypes.VARIADIC, C, "unreachable", NullPolicy.NONE);

  public static final SqlOperator GREATEST =
      strict("GREATEST", EXTREME_TYPE, OperandTypes.SAME_VARIADIC, C, "greatest");
  public static final SqlOperator LEAST =
      strict("LEAST", EXTREME_TYPE, OperandTypes.SAME_VARIADIC, C, "least");
  public static final SqlOperator IS_ALPHA = predicate("IS_ALPHA", "isAlpha");
  public static final SqlOperator IS_DECIMAL = predicate("IS_DECIMAL", "isDecimal");
  public static final SqlOperator IS_DIGIT = predicate("IS_DIGIT", "isDigit");

  static final List<SqlOperator> ALL =
      List.of(IF, IFNULL, COALESCE, GREATEST, LEAST, IS_ALPHA, IS_DECIMAL, IS_DIGIT);

  /** The functions {@link #convert} converts. */
  public static final java.util.Set<SqlOperator> CONVERTED =
      java.util.Set.of(IF, IFNULL, COALESCE, GREATEST, LEAST);

  private static SqlOperator predicate(String name, String method) {
    return fn(
        name,
        Fn.type(f -> f.createSqlType(SqlTypeName.BOOLEAN), Fn.Nulls.NEVER),
        OperandTypes.CHARACTER,
        C,
        method,
        NullPolicy.NONE);
  }

  /**
   * The expression a call of one of {@link #CONVERTED} converts to; {@code type} is the call's
   * validated type.
   */
  public static RexNode convert(
      RexBuilder rex, SqlOperator op, RelDataType type, List<RexNode> operands) {
    if (op == IF) {
      return rex.makeCall(
          type,
          SqlStdOperatorTable.CASE,
          List.of(
              operands.get(0), cast(rex, type, operands.get(1)), cast(rex, type, operands.get(2))));
    }
    if (op == COALESCE) {
      // The operands after the first NOT NULL one are never reached: that one is the ELSE.
      int last = operands.size() - 1;
      for (int i = 0; i < last; i++) {
        if (!operands.get(i).getType().isNullable()) {
          last = i;
          break;
        }
      }
      if (last == 0) {
        return cast(rex, type, operands.get(0));
      }
      List<RexNode> branches = new ArrayList<>();
      for (int i = 0; i < last; i++) {
        branches.add(rex.makeCall(SqlStdOperatorTable.IS_NOT_NULL, operands.get(i)));
        branches.add(cast(rex, type, operands.get(i)));
      }
      branches.add(cast(rex, type, operands.get(last)));
      return rex.makeCall(type, SqlStdOperatorTable.CASE, branches);
    }
    if (op == IFNULL && !operands.get(0).getType().isNullable()) {
      return cast(rex, type, operands.get(0));
    }
    if (op == IFNULL) {
      RexNode first = cast(rex, type, operands.get(0));
      return rex.makeCall(
          type,
          SqlStdOperatorTable.CASE,
          List.of(
              rex.makeCall(SqlStdOperatorTable.IS_NOT_NULL, operands.get(0)),
              first,
              cast(rex, type, operands.get(1))));
    }
    if (op == GREATEST || op == LEAST) {
      List<RexNode> cast = new ArrayList<>();
      for (RexNode o : operands) {
        cast.add(cast(rex, type, o));
      }
      return rex.makeCall(type, op, cast);
    }
    throw new IllegalArgumentException(op.getName());
  }

  private static RexNode cast(RexBuilder rex, RelDataType type, RexNode e) {
    return rex.ensureType(type, e, true);
  }

  // ---- the implementations, called by generated code ----------------------------------------

  /** Never called: IF and IFNULL become CASE before code is generated. */
  public static Object unreachable(Object a, Object b, Object c) {
    throw new IllegalStateException("IF is converted to CASE");
  }

  /** Never called: IFNULL becomes CASE before code is generated. */
  public static Object unreachable(Object a, Object b) {
    throw new IllegalStateException("IFNULL is converted to CASE");
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  public static Object greatest(Object... values) {
    Comparable best = (Comparable) values[0];
    for (Object v : values) {
      if (((Comparable) v).compareTo(best) > 0) {
        best = (Comparable) v;
      }
    }
    return best;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  public static Object least(Object... values) {
    Comparable best = (Comparable) values[0];
    for (Object v : values) {
      if (((Comparable) v).compareTo(best) < 0) {
        best = (Comparable) v;
      }
    }
    return best;
  }

  /** Every character a letter; FALSE for NULL and ''. */
  public static boolean isAlpha(String s) {
    return s != null && !s.isEmpty() && s.chars().allMatch(Character::isLetter);
  }

  /** Every character a digit; FALSE for NULL and ''. */
  public static boolean isDigit(String s) {
    return s != null && !s.isEmpty() && s.chars().allMatch(Character::isDigit);
  }

  /**
   * A number as Java's {@code Double.parseDouble} reads one, which is Flink's test: {@code 1},
   * {@code -1.5e3}, {@code ' 1'}, {@code NaN}; FALSE for NULL, {@code ''} and {@code 0x1F}.
   */
  public static boolean isDecimal(String s) {
    if (s == null) {
      return false;
    }
    try {
      Double.parseDouble(s);
      return true;
    } catch (NumberFormatException e) {
      return false;
    }
  }
}

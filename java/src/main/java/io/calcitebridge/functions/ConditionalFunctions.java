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

  private static final SqlReturnTypeInference IFNULL_TYPE =
      b -> common(b, 0, b.getOperandType(0).isNullable() && b.getOperandType(1).isNullable());

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
  public static final SqlOperator GREATEST =
      strict("GREATEST", EXTREME_TYPE, OperandTypes.SAME_VARIADIC, C, "greatest");
  public static final SqlOperator LEAST =
      strict("LEAST", EXTREME_TYPE, OperandTypes.SAME_VARIADIC, C, "least");
  public static final SqlOperator IS_ALPHA = predicate("IS_ALPHA", "isAlpha");
  public static final SqlOperator IS_DECIMAL = predicate("IS_DECIMAL", "isDecimal");
  public static final SqlOperator IS_DIGIT = predicate("IS_DIGIT", "isDigit");

  static final List<SqlOperator> ALL =
      List.of(IF, IFNULL, GREATEST, LEAST, IS_ALPHA, IS_DECIMAL, IS_DIGIT);

  /** The functions {@link #convert} converts. */
  public static final java.util.Set<SqlOperator> CONVERTED =
      java.util.Set.of(IF, IFNULL, GREATEST, LEAST);

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

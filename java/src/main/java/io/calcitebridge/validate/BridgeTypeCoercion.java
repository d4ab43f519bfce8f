package io.calcitebridge.validate;

import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.calcite.avatica.util.DateTimeUtils;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.runtime.SqlFunctions;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorScope;
import org.apache.calcite.sql.validate.implicit.TypeCoercionImpl;
import org.apache.calcite.util.NlsString;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Calcite's implicit type coercion, except that a sign ({@code +d}, {@code -d}) does not turn a
 * string into a number: {@code SELECT + + d} with {@code d STRING} validated, then failed on the
 * first value that was not a number. As in Flink and DuckDB, a sign needs a numeric or interval
 * operand, and a string one is a validation error.
 *
 * <p>Nor has a string a common type with an ARRAY, MAP or ROW: {@code SELECT CAST(NULL AS
 * ARRAY<INT>) UNION SELECT 'bc'} validated as an ARRAY and failed in conversion (a
 * ClassCastException); Flink and DuckDB refuse it.
 *
 * <p>Nor does a function that wants a string take a number, a BOOLEAN, a datetime or an interval in
 * its place, one that wants a number a string, or one that wants an exact number a DOUBLE: {@code
 * UPPER(123)}, {@code CONCAT('a', 1)}, {@code SUBSTRING(12345 FROM 2)}, {@code ROUND('1.25', 1)}
 * and {@code MOD(CAST(7.5 AS DOUBLE), 2)} are validation errors, as in Flink (whose validator has
 * no implicit coercion) and DuckDB. An explicit {@code CAST} says which value is meant.
 */
public final class BridgeTypeCoercion extends TypeCoercionImpl {
  public BridgeTypeCoercion(RelDataTypeFactory typeFactory, SqlValidator validator) {
    super(typeFactory, validator);
  }

  /**
   * As Calcite's, except that a string literal converted to a number, a BOOLEAN or a datetime must
   * be one: {@code fare = 'abc'} with {@code fare DOUBLE} validated, then failed while the query
   * ran, without a position. It is a validation error at the literal now, as Flink refuses the
   * constant cast while it plans.
   */
  @Override
  protected boolean coerceOperandType(
      @Nullable SqlValidatorScope scope, SqlCall call, int index, RelDataType targetType) {
    checkConvertible(call.getOperandList().get(index), targetType);
    return super.coerceOperandType(scope, call, index, targetType);
  }

  @Override
  protected boolean coerceColumnType(
      @Nullable SqlValidatorScope scope, SqlNodeList nodeList, int index, RelDataType targetType) {
    if (index < nodeList.size()) {
      checkConvertible(nodeList.get(index), targetType);
    }
    return super.coerceColumnType(scope, nodeList, index, targetType);
  }

  /**
   * Throws at {@code node} when it is a character literal that the cast to {@code target} would
   * fail on when the query runs (the same conversion Calcite's engine makes). A placeholder of a
   * plan kept for any values ({@code CAST(? AS CHAR(n))}, a string's) converted so is noted with
   * the validator, and each run checks its value as this checks the literal ({@link
   * #checkParameter}).
   */
  private void checkConvertible(@Nullable SqlNode node, RelDataType target) {
    if (node instanceof SqlCall cast
        && cast.getKind() == SqlKind.CAST
        && cast.operandCount() == 2
        && cast.operand(0) instanceof SqlDynamicParam param
        && validator instanceof BridgeSqlValidator bridge
        && converts(target)) {
      bridge.noteParameterConversion(param, target);
      return;
    }
    if (!(node instanceof SqlCharStringLiteral literal)) {
      return;
    }
    String text = literal.getValueAs(NlsString.class).getValue();
    if (!convertible(text, target)) {
      throw notConvertible(literal.toString(), target, literal.getParserPosition());
    }
  }

  /**
   * Throws at {@code pos}, the placeholder of parameter {@code number} (1-based), when its value
   * {@code value} is a string that the cast to {@code target} would fail on: the error its literal
   * gets while it is validated.
   */
  public static void checkParameter(
      int number, @Nullable Object value, RelDataType target, SqlParserPos pos) {
    if (value instanceof String text && !convertible(text, target)) {
      throw notConvertible(
          "parameter " + number + " (" + SqlLiteral.createCharString(text, pos) + ")", target, pos);
    }
  }

  /**
   * Calcite's engine's cast of a string to each type where that cast can fail: what {@link
   * #convertible} runs, and the types whose placeholders {@link #checkConvertible} notes.
   */
  private static final Map<SqlTypeName, Consumer<String>> CASTS = casts();

  private static Map<SqlTypeName, Consumer<String>> casts() {
    Map<SqlTypeName, Consumer<String>> casts = new EnumMap<>(SqlTypeName.class);
    casts.put(SqlTypeName.TINYINT, text -> Byte.parseByte(text.trim()));
    casts.put(SqlTypeName.SMALLINT, text -> SqlFunctions.toShort(text));
    casts.put(SqlTypeName.INTEGER, text -> SqlFunctions.toInt(text));
    casts.put(SqlTypeName.BIGINT, text -> SqlFunctions.toLong(text));
    casts.put(SqlTypeName.FLOAT, text -> SqlFunctions.toFloat(text));
    casts.put(SqlTypeName.REAL, text -> SqlFunctions.toFloat(text));
    casts.put(SqlTypeName.DOUBLE, text -> SqlFunctions.toDouble(text));
    casts.put(SqlTypeName.DECIMAL, text -> SqlFunctions.toBigDecimal(text));
    casts.put(SqlTypeName.BOOLEAN, text -> SqlFunctions.toBoolean(text));
    casts.put(SqlTypeName.DATE, text -> DateTimeUtils.dateStringToUnixDate(text.trim()));
    casts.put(SqlTypeName.TIME, text -> DateTimeUtils.timeStringToUnixDate(text.trim()));
    casts.put(SqlTypeName.TIMESTAMP, text -> DateTimeUtils.timestampStringToUnixDate(text.trim()));
    return Collections.unmodifiableMap(casts);
  }

  /** Whether a string converted to {@code target} is checked ({@link #convertible}). */
  private static boolean converts(RelDataType target) {
    return CASTS.containsKey(target.getSqlTypeName());
  }

  /** Whether Calcite's engine casts {@code text} to {@code target} without failing. */
  private static boolean convertible(String text, RelDataType target) {
    Consumer<String> cast = CASTS.get(target.getSqlTypeName());
    if (cast == null) {
      return true;
    }
    try {
      cast.accept(text);
      return true;
    } catch (RuntimeException e) {
      return false;
    }
  }

  private static io.calcitebridge.errors.PositionedException notConvertible(
      String what, RelDataType target, SqlParserPos pos) {
    return new io.calcitebridge.errors.PositionedException(
        io.calcitebridge.errors.ErrorKind.VALIDATION,
        "Cannot cast "
            + what
            + " to "
            + io.calcitebridge.types.TypeNames.renderNullable(target)
            + ": it is not a valid "
            + target.getSqlTypeName().getName()
            + " value",
        pos);
  }

  @Override
  public @Nullable RelDataType getWiderTypeForTwo(
      @Nullable RelDataType type1, @Nullable RelDataType type2, boolean stringPromotion) {
    if (type1 != null
        && type2 != null
        && (composite(type1) && SqlTypeUtil.isCharacter(type2)
            || composite(type2) && SqlTypeUtil.isCharacter(type1))) {
      return null;
    }
    return super.getWiderTypeForTwo(type1, type2, stringPromotion);
  }

  private static boolean composite(RelDataType type) {
    return type.isStruct() || SqlTypeUtil.isCollection(type) || SqlTypeUtil.isMap(type);
  }

  /**
   * {@code NULLIF(1, 'a')}, {@code NULLIF('1', 1)}, {@code NULLIF(1, TRUE)} and {@code
   * NULLIF(X'01', 'a')} are refused while validating, as Flink refuses them ("implicit type
   * conversion between INTEGER and CHAR is not supported now"); Calcite read the string as a
   * number, and {@code 'a'} failed while the query ran. A string still compares with a datetime
   * ({@code NULLIF(d, '2024-01-01')}), as in Flink.
   */
  @Override
  public boolean binaryComparisonCoercion(SqlCallBinding binding) {
    if (validator instanceof BridgeSqlValidator bridge
        && bridge.isNullifComparison(binding.getCall())
        && binding.getOperandCount() == 2) {
      RelDataType x = binding.getOperandType(0);
      RelDataType y = binding.getOperandType(1);
      if (unconverted(x, y) || unconverted(y, x)) {
        throw new io.calcitebridge.errors.PositionedException(
            io.calcitebridge.errors.ErrorKind.VALIDATION,
            "NULLIF cannot compare "
                + io.calcitebridge.types.TypeNames.renderNullable(x)
                + " with "
                + io.calcitebridge.types.TypeNames.renderNullable(y)
                + ": there is no implicit conversion between them (as in Flink); CAST one of them",
            binding.getCall().getParserPosition());
      }
    }
    return super.binaryComparisonCoercion(binding);
  }

  /** Whether Flink compares {@code a} with {@code b} only after an explicit CAST. */
  private static boolean unconverted(RelDataType a, RelDataType b) {
    return SqlTypeUtil.isNumeric(a)
            && (SqlTypeUtil.isCharacter(b) || SqlTypeUtil.isBoolean(b) || SqlTypeUtil.isBinary(b))
        || SqlTypeUtil.isBinary(a) && SqlTypeUtil.isCharacter(b);
  }

  @Override
  public boolean builtinFunctionCoercion(
      SqlCallBinding binding,
      List<RelDataType> operandTypes,
      List<SqlTypeFamily> expectedFamilies) {
    SqlKind kind = binding.getOperator().getKind();
    if ((kind == SqlKind.PLUS_PREFIX || kind == SqlKind.MINUS_PREFIX)
        && operandTypes.stream().anyMatch(SqlTypeUtil::isCharacter)) {
      return false;
    }
    if (binding.getOperator() instanceof SqlFunction
        && refusedByFlink(operandTypes, expectedFamilies)) {
      return false;
    }
    return super.builtinFunctionCoercion(binding, operandTypes, expectedFamilies);
  }

  /**
   * Whether an operand stands for a type Flink does not convert it to implicitly: a number,
   * BOOLEAN, datetime or interval for a string, BYTES for a character string ({@code MD5(X'00')}),
   * a string for a number, an approximate number (DOUBLE) for an exact one ({@code MOD(CAST(7.5 AS
   * DOUBLE), 2)}).
   */
  private static boolean refusedByFlink(
      List<RelDataType> operandTypes, List<SqlTypeFamily> expectedFamilies) {
    for (int i = 0; i < Math.min(operandTypes.size(), expectedFamilies.size()); i++) {
      SqlTypeFamily family = expectedFamilies.get(i);
      RelDataType type = operandTypes.get(i);
      boolean text = family == SqlTypeFamily.CHARACTER || family == SqlTypeFamily.STRING;
      boolean exact =
          family == SqlTypeFamily.EXACT_NUMERIC
              || family == SqlTypeFamily.INTEGER
              || family == SqlTypeFamily.DECIMAL;
      boolean number = exact || family == SqlTypeFamily.NUMERIC;
      if (family == SqlTypeFamily.CHARACTER && SqlTypeUtil.isBinary(type)
          || text
              && (SqlTypeUtil.isNumeric(type)
                  || SqlTypeUtil.isBoolean(type)
                  || SqlTypeUtil.isDatetime(type)
                  || SqlTypeUtil.isInterval(type))
          || number && SqlTypeUtil.isCharacter(type)
          || exact && SqlTypeUtil.isApproximateNumeric(type)) {
        return true;
      }
    }
    return false;
  }
}

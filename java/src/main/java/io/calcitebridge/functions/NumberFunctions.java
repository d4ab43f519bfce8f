package io.calcitebridge.functions;

import static io.calcitebridge.functions.Fn.Nulls.ANY;
import static io.calcitebridge.functions.Fn.of;
import static io.calcitebridge.functions.Fn.strict;
import static io.calcitebridge.functions.Fn.string;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.avatica.util.DateTimeUtils;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperandCountRange;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorScope;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Numbers as Flink has them, where Calcite's functions differ: the result type of {@code ROUND} and
 * {@code TRUNCATE} of a DECIMAL, {@code SUBSTRING}'s positions, and the implementations that SQL
 * conversion puts in place of Calcite's casts and calls ({@code
 * io.calcitebridge.flink.Convertlets}): a cast to a DECIMAL of smaller scale rounds half up, a
 * string cast to an integer accepts a fraction and drops it, a BYTES cast to a string decodes
 * UTF-8, and {@code TIMESTAMPDIFF} counts months as Flink does ({@code 2023-01-31} to {@code
 * 2023-02-28} is one month).
 */
public final class NumberFunctions {
  private NumberFunctions() {}

  private static final Class<?> C = NumberFunctions.class;

  /**
   * Flink's type of {@code ROUND(x, r)} and {@code TRUNCATE(x, r)} for {@code x DECIMAL(p, s)} and
   * a literal {@code r}: {@code DECIMAL(p, s)} when {@code r >= s}, {@code DECIMAL(1 + p - s, 0)}
   * when {@code r < 0}, else {@code DECIMAL(1 + p - s + r, r)} (rounding may add a digit).
   */
  public static RelDataType roundType(RelDataTypeFactory f, RelDataType x, int r) {
    int p = x.getPrecision();
    int s = x.getScale();
    int max = f.getTypeSystem().getMaxPrecision(SqlTypeName.DECIMAL);
    RelDataType t;
    if (r >= s) {
      t = f.createSqlType(SqlTypeName.DECIMAL, p, s);
    } else if (r < 0) {
      t = f.createSqlType(SqlTypeName.DECIMAL, Math.min(max, 1 + p - s), 0);
    } else {
      t = f.createSqlType(SqlTypeName.DECIMAL, Math.min(max, 1 + p - s + r), r);
    }
    return f.createTypeWithNullability(t, x.isNullable());
  }

  /** {@code ROUND} or {@code TRUNCATE} with Flink's result type for a DECIMAL operand. */
  private static final class Rounding extends SqlFunction {
    private final SqlFunction standard;

    Rounding(SqlFunction standard) {
      super(
          standard.getName(),
          SqlKind.OTHER_FUNCTION,
          null,
          null,
          standard.getOperandTypeChecker(),
          SqlFunctionCategory.NUMERIC);
      this.standard = standard;
    }

    @Override
    public RelDataType inferReturnType(SqlOperatorBinding b) {
      RelDataType x = b.getOperandType(0);
      if (x.getSqlTypeName() != SqlTypeName.DECIMAL) {
        return standard.inferReturnType(b);
      }
      if (b.getOperandCount() == 1) {
        return roundType(b.getTypeFactory(), x, 0);
      }
      Integer r = b.isOperandLiteral(1, false) ? b.getOperandLiteralValue(1, Integer.class) : null;
      if (r == null) {
        return standard.inferReturnType(b);
      }
      RelDataType t = roundType(b.getTypeFactory(), x, r);
      return b.getTypeFactory()
          .createTypeWithNullability(t, x.isNullable() || b.getOperandType(1).isNullable());
    }

    @Override
    public SqlOperandCountRange getOperandCountRange() {
      return standard.getOperandCountRange();
    }

    @Override
    public boolean checkOperandTypes(SqlCallBinding callBinding, boolean throwOnFailure) {
      return standard.checkOperandTypes(callBinding, throwOnFailure);
    }

    @Override
    public boolean isDynamicFunction() {
      return false;
    }

    /** Typed as here, not looked up again by name (which would find Calcite's operator). */
    @Override
    public RelDataType deriveType(SqlValidator validator, SqlValidatorScope scope, SqlCall call) {
      for (SqlNode operand : call.getOperandList()) {
        validator.deriveType(scope, operand);
      }
      return validateOperands(validator, scope, call);
    }
  }

  /** {@code ROUND} as validated: Flink's type for a DECIMAL. */
  public static final SqlFunction ROUND = new Rounding(SqlStdOperatorTable.ROUND);

  /** {@code TRUNCATE} as validated: Flink's type for a DECIMAL. */
  public static final SqlFunction TRUNCATE = new Rounding(SqlStdOperatorTable.TRUNCATE);

  /**
   * {@code SUBSTRING} as validated: of a string, Flink's {@code SUBSTR} (nullable, a position below
   * 1 counts from the end, a negative length gives NULL), which SQL conversion puts in its place;
   * of BYTES, Calcite's.
   */
  public static final SqlFunction SUBSTRING =
      new SqlFunction(
          "SUBSTRING",
          SqlKind.OTHER_FUNCTION,
          null,
          null,
          SqlStdOperatorTable.SUBSTRING.getOperandTypeChecker(),
          SqlFunctionCategory.STRING) {
        @Override
        public RelDataType inferReturnType(SqlOperatorBinding b) {
          if (SqlTypeUtil.inCharFamily(b.getOperandType(0))) {
            return StringFunctions.SUBSTR.inferReturnType(b);
          }
          return SqlStdOperatorTable.SUBSTRING.inferReturnType(b);
        }

        @Override
        public SqlOperandCountRange getOperandCountRange() {
          return SqlStdOperatorTable.SUBSTRING.getOperandCountRange();
        }

        @Override
        public boolean checkOperandTypes(SqlCallBinding callBinding, boolean throwOnFailure) {
          return SqlStdOperatorTable.SUBSTRING.checkOperandTypes(callBinding, throwOnFailure);
        }

        @Override
        public String getSignatureTemplate(int operandsCount) {
          return SqlStdOperatorTable.SUBSTRING.getSignatureTemplate(operandsCount);
        }

        @Override
        public String getAllowedSignatures(String opNameToUse) {
          return SqlStdOperatorTable.SUBSTRING.getAllowedSignatures(opNameToUse);
        }

        @Override
        public void unparse(SqlWriter writer, SqlCall call, int leftPrec, int rightPrec) {
          SqlStdOperatorTable.SUBSTRING.unparse(writer, call, leftPrec, rightPrec);
        }

        /** Typed as here, not looked up again by name (which would find Calcite's operator). */
        @Override
        public RelDataType deriveType(
            SqlValidator validator, SqlValidatorScope scope, SqlCall call) {
          for (SqlNode operand : call.getOperandList()) {
            validator.deriveType(scope, operand);
          }
          return validateOperands(validator, scope, call);
        }
      };

  /** The operator that validation puts in place of a standard one, or null. */
  public static @Nullable SqlOperator validating(SqlOperator standard) {
    if (standard == SqlStdOperatorTable.ROUND) {
      return ROUND;
    }
    if (standard == SqlStdOperatorTable.TRUNCATE) {
      return TRUNCATE;
    }
    if (standard == SqlStdOperatorTable.SUBSTRING) {
      return SUBSTRING;
    }
    return null;
  }

  // ---- implementations, called with the validated type ----------------------------------

  /** {@code x} rounded half up to {@code r} decimals (to the left of the point when negative). */
  public static final SqlOperator ROUND_HALF_UP =
      strict(
          "ROUND",
          of(SqlTypeName.DECIMAL, ANY),
          OperandTypes.family(SqlTypeFamily.NUMERIC, SqlTypeFamily.INTEGER),
          C,
          "roundHalfUp");

  /** {@code x} truncated to {@code r} decimals. */
  public static final SqlOperator ROUND_DOWN =
      strict(
          "TRUNCATE",
          of(SqlTypeName.DECIMAL, ANY),
          OperandTypes.family(SqlTypeFamily.NUMERIC, SqlTypeFamily.INTEGER),
          C,
          "roundDown");

  /** A string as an integer, a fraction dropped: {@code CAST('1.5' AS INT)} is 1. */
  public static final SqlOperator PARSE_INTEGER =
      strict("CAST", of(SqlTypeName.BIGINT, ANY), OperandTypes.CHARACTER, C, "parseInteger");

  /**
   * {@code TRY_CAST(s AS INT)} (any integer type) of a string: {@link #PARSE_INTEGER}, NULL where
   * it is no number ({@code '1.5e3'}: Flink reads no exponent) or does not fit a BIGINT.
   */
  public static final SqlOperator TRY_PARSE_INTEGER =
      strict("TRY_CAST", of(SqlTypeName.BIGINT, ANY), OperandTypes.CHARACTER, C, "tryParseInteger");

  /**
   * {@code CAST(d AS STRING)} of a DECIMAL as Flink writes it, every digit of its scale and a zero
   * before the point ({@code 0.500}); Calcite's cast wrote {@code .500}.
   */
  public static final SqlOperator DECIMAL_TEXT =
      strict("CAST", string(ANY), OperandTypes.EXACT_NUMERIC, C, "decimalText");

  /**
   * {@code CAST(s AS DECIMAL(p, s))} of a string as Flink computes it: the text (without leading
   * and trailing white space) read as a number, rounded half up to the scale; an error when it is
   * no number or does not fit {@code p} digits. Calcite's cast dropped the digits past the scale.
   * Called with the target type and the literal precision and scale.
   */
  public static final SqlOperator PARSE_DECIMAL =
      decimalCast("CAST", SqlTypeFamily.CHARACTER, "parseDecimal");

  /**
   * {@code CAST(d AS DECIMAL(p, s))} of a DOUBLE or a FLOAT as Flink computes it: the shortest
   * decimal text of the number (Java's {@link BigDecimal#valueOf(double)}: 2.675 is 2.675, not the
   * binary value below it) rounded half up to the scale; an error when it does not fit {@code p}
   * digits or is NaN or infinite. Calcite's cast dropped the digits past the scale.
   */
  public static final SqlOperator DOUBLE_TO_DECIMAL =
      decimalCast("CAST", SqlTypeFamily.APPROXIMATE_NUMERIC, "doubleToDecimal");

  /** {@link #PARSE_DECIMAL} for TRY_CAST: NULL where the cast fails. */
  public static final SqlOperator TRY_PARSE_DECIMAL =
      decimalCast("TRY_CAST", SqlTypeFamily.CHARACTER, "tryParseDecimal");

  /** {@link #DOUBLE_TO_DECIMAL} for TRY_CAST: NULL where the cast fails. */
  public static final SqlOperator TRY_DOUBLE_TO_DECIMAL =
      decimalCast("TRY_CAST", SqlTypeFamily.APPROXIMATE_NUMERIC, "tryDoubleToDecimal");

  /**
   * A cast of a {@code from} value to DECIMAL run by {@code method}, called with the value and the
   * target's precision and scale as literals.
   */
  private static SqlOperator decimalCast(String name, SqlTypeFamily from, String method) {
    return strict(
        name,
        of(SqlTypeName.DECIMAL, ANY),
        OperandTypes.family(from, SqlTypeFamily.INTEGER, SqlTypeFamily.INTEGER),
        C,
        method);
  }

  /** Whether {@code op} is one of Flink's casts to a DECIMAL that these functions compute. */
  public static boolean isDecimalCast(SqlOperator op) {
    return op == PARSE_DECIMAL
        || op == TRY_PARSE_DECIMAL
        || op == DOUBLE_TO_DECIMAL
        || op == TRY_DOUBLE_TO_DECIMAL;
  }

  /** BYTES decoded as UTF-8: {@code CAST(X'41' AS STRING)} is {@code A}. */
  public static final SqlOperator DECODE_UTF8 =
      strict("CAST", string(ANY), OperandTypes.BINARY, C, "decodeUtf8");

  /**
   * {@code CAST(d AS STRING)} of a DOUBLE as Flink writes it, Java's {@link Double#toString}
   * ({@code 0.0}, {@code 1.0E20}); Calcite's writes zero as {@code 0E0}.
   */
  public static final SqlOperator DOUBLE_TEXT =
      strict("CAST", string(ANY), OperandTypes.NUMERIC, C, "doubleText");

  /** {@code CAST(f AS STRING)} of a FLOAT as Flink writes it, Java's {@link Float#toString}. */
  public static final SqlOperator FLOAT_TEXT =
      strict("CAST", string(ANY), OperandTypes.NUMERIC, C, "floatText");

  /** Whole months from {@code t1} to {@code t2} (milliseconds), as Flink's TIMESTAMPDIFF. */
  public static final SqlOperator MONTHS_BETWEEN =
      strict(
          "TIMESTAMPDIFF",
          of(SqlTypeName.INTEGER, ANY),
          OperandTypes.family(SqlTypeFamily.NUMERIC, SqlTypeFamily.NUMERIC),
          C,
          "monthsBetween");

  /**
   * A DECIMAL division at the result's scale, as Flink divides: 34 significant digits ({@code
   * MathContext.DECIMAL128}), then rounded half up. Calcite's kept 16 ({@code DECIMAL64}): {@code
   * CAST(1 AS DECIMAL(10, 0)) / CAST(3 AS DECIMAL(20, 0))} was 0.333333333333333300000.
   */
  public static final SqlOperator DECIMAL_DIVIDE =
      strict(
          "DECIMAL_DIVIDE",
          of(SqlTypeName.DECIMAL, ANY),
          OperandTypes.family(SqlTypeFamily.NUMERIC, SqlTypeFamily.NUMERIC, SqlTypeFamily.INTEGER),
          C,
          "divide");

  public static BigDecimal divide(BigDecimal x, BigDecimal y, int scale) {
    return x.divide(y, java.math.MathContext.DECIMAL128).setScale(scale, RoundingMode.HALF_UP);
  }

  public static BigDecimal roundHalfUp(BigDecimal x, int r) {
    BigDecimal v = x.setScale(r, RoundingMode.HALF_UP);
    return r < 0 ? v.setScale(0, RoundingMode.UNNECESSARY) : v;
  }

  public static BigDecimal roundDown(BigDecimal x, int r) {
    BigDecimal v = x.setScale(r, RoundingMode.DOWN);
    return r < 0 ? v.setScale(0, RoundingMode.UNNECESSARY) : v;
  }

  private static final Pattern INTEGER = Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)");

  /**
   * {@code s} without surrounding white space as an integer, toward zero: {@code '1.5'} is 1,
   * {@code '-1.5'} -1; anything else, an exponent included, is not a number.
   */
  public static long parseInteger(String s) {
    String t = s.strip();
    if (!INTEGER.matcher(t).matches()) {
      throw new NumberFormatException("For input string: \"" + s + "\"");
    }
    BigDecimal v = new BigDecimal(t).setScale(0, RoundingMode.DOWN);
    try {
      return v.longValueExact();
    } catch (ArithmeticException e) {
      throw new ArithmeticException("integer overflow: '" + s + "' does not fit a BIGINT");
    }
  }

  public static @Nullable Long tryParseInteger(String s) {
    try {
      return parseInteger(s);
    } catch (ArithmeticException | NumberFormatException e) {
      return null;
    }
  }

  /** Whether {@code op} writes a number's text as Flink does: a CAST of it to a string. */
  public static boolean isNumberText(SqlOperator op) {
    return op == DOUBLE_TEXT || op == FLOAT_TEXT || op == DECIMAL_TEXT;
  }

  public static String decimalText(BigDecimal d) {
    return d.toPlainString();
  }

  public static BigDecimal parseDecimal(String s, int precision, int scale) {
    BigDecimal v;
    try {
      v = new BigDecimal(s.strip());
    } catch (NumberFormatException e) {
      throw new NumberFormatException("For input string: '" + s + "'");
    }
    return fit(v, precision, scale);
  }

  public static BigDecimal doubleToDecimal(double d, int precision, int scale) {
    if (Double.isNaN(d) || Double.isInfinite(d)) {
      throw new NumberFormatException(
          "Cannot convert " + d + " to DECIMAL(" + precision + ", " + scale + ")");
    }
    return fit(BigDecimal.valueOf(d), precision, scale);
  }

  public static @Nullable BigDecimal tryParseDecimal(String s, int precision, int scale) {
    try {
      return parseDecimal(s, precision, scale);
    } catch (ArithmeticException | NumberFormatException e) {
      return null;
    }
  }

  public static @Nullable BigDecimal tryDoubleToDecimal(double d, int precision, int scale) {
    try {
      return doubleToDecimal(d, precision, scale);
    } catch (ArithmeticException | NumberFormatException e) {
      return null;
    }
  }

  /**
   * {@code v} rounded half up to {@code scale}; an error when it has more than {@code p} digits.
   */
  private static BigDecimal fit(BigDecimal v, int precision, int scale) {
    BigDecimal r = v.setScale(scale, RoundingMode.HALF_UP);
    if (r.precision() - r.scale() > precision - scale) {
      throw new ArithmeticException(
          "Cannot convert "
              + r.toPlainString()
              + " to DECIMAL("
              + precision
              + ", "
              + scale
              + ") due to overflow");
    }
    return r;
  }

  public static String doubleText(double d) {
    return Double.toString(d);
  }

  public static String floatText(float f) {
    return Float.toString(f);
  }

  public static String decodeUtf8(ByteString b) {
    return new String(b.getBytes(), StandardCharsets.UTF_8);
  }

  /**
   * Whole months from {@code t1} to {@code t2}, in milliseconds since the epoch: the most months
   * that, added to {@code t1}'s day (the day of month clamped to the month's last), do not pass
   * {@code t2}'s day, one fewer when that day is reached but not {@code t1}'s time of day.
   */
  public static int monthsBetween(long t1, long t2) {
    long ms2 = Math.floorMod(t2, DateTimeUtils.MILLIS_PER_DAY);
    long ms1 = Math.floorMod(t1, DateTimeUtils.MILLIS_PER_DAY);
    long d2 = Math.floorDiv(t2, DateTimeUtils.MILLIS_PER_DAY);
    long d1 = Math.floorDiv(t1, DateTimeUtils.MILLIS_PER_DAY);
    int x = months(d2, d1);
    if (addMonths(d1, x) == d2 && ms2 < ms1) {
      x--;
    }
    return x;
  }

  private static int months(long d0, long d1) {
    if (d0 < d1) {
      return -months(d1, d0);
    }
    int m = (int) ((d0 - d1) / 31);
    while (true) {
      if (addMonths(d1, m) >= d0 || addMonths(d1, m + 1) > d0) {
        return m;
      }
      m++;
    }
  }

  private static long addMonths(long day, int m) {
    return java.time.LocalDate.ofEpochDay(day).plusMonths(m).toEpochDay();
  }
}

package io.calcitebridge.functions;

import static io.calcitebridge.functions.Fn.Nulls.ALWAYS;
import static io.calcitebridge.functions.Fn.Nulls.ANY;
import static io.calcitebridge.functions.Fn.Nulls.NEVER;
import static io.calcitebridge.functions.Fn.of;
import static io.calcitebridge.functions.Fn.strict;
import static io.calcitebridge.functions.Fn.string;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.SqlTypeName;

/** Flink's mathematical functions that Calcite's standard table lacks. */
public final class MathFunctions {
  private MathFunctions() {}

  private static final Class<?> C = MathFunctions.class;

  private static SqlOperator unary(String name, String method) {
    return strict(name, of(SqlTypeName.DOUBLE, ANY), OperandTypes.NUMERIC, C, method);
  }

  public static final SqlOperator LOG =
      strict(
          "LOG",
          of(SqlTypeName.DOUBLE, ANY),
          OperandTypes.or(OperandTypes.NUMERIC, OperandTypes.NUMERIC_NUMERIC),
          C,
          "log");
  public static final SqlOperator LOG2 = unary("LOG2", "log2");
  public static final SqlOperator SINH = unary("SINH", "sinh");
  public static final SqlOperator COSH = unary("COSH", "cosh");
  public static final SqlOperator TANH = unary("TANH", "tanh");
  public static final SqlOperator E =
      strict("E", of(SqlTypeName.DOUBLE, NEVER), OperandTypes.NILADIC, C, "e");
  public static final SqlOperator BIN = strict("BIN", string(ANY), OperandTypes.INTEGER, C, "bin");
  public static final SqlOperator HEX =
      strict(
          "HEX",
          string(ANY),
          OperandTypes.or(OperandTypes.INTEGER, OperandTypes.CHARACTER),
          C,
          "hex");
  public static final SqlOperator UNHEX =
      strict(
          "UNHEX",
          Fn.type(f -> f.createSqlType(SqlTypeName.VARBINARY, Integer.MAX_VALUE), ALWAYS),
          OperandTypes.CHARACTER,
          C,
          "unhex");

  /** Standard {@code LOG10} as Flink computes it, {@link Math#log10} (exact for powers of 10). */
  public static final SqlOperator LOG10 = unary("LOG10", "log10");

  /** Standard {@code LN} as Flink computes it, {@link Math#log}: -Infinity at 0, NaN below. */
  public static final SqlOperator LN = unary("LN", "ln");

  /** Standard {@code POWER} as Flink computes it, {@link Math#pow} of DOUBLEs (NaN^0 is 1). */
  public static final SqlOperator POWER =
      strict("POWER", of(SqlTypeName.DOUBLE, ANY), OperandTypes.NUMERIC_NUMERIC, C, "power");

  /** A random (version 4) UUID; never folded into a constant ({@link Fn#isDeterministic}). */
  public static final SqlOperator UUID =
      strict("UUID", string(NEVER), OperandTypes.NILADIC, C, "uuid");

  /**
   * Flink's {@code RAND([seed])}: {@code NULL} for a {@code NULL} seed, so nullable when the seed
   * is (Calcite's is {@code DOUBLE NOT NULL} and gave a number). SQL conversion computes it with
   * Calcite's, under a test of the seed ({@code plan.Convertlets}).
   */
  public static final SqlOperator RAND =
      org.apache.calcite.sql.fun.SqlStdOperatorTable.RAND.withReturnTypeInference(
          org.apache.calcite.sql.type.ReturnTypes.DOUBLE_NULLABLE);

  static final List<SqlOperator> ALL =
      List.of(LOG, LOG2, SINH, COSH, TANH, E, BIN, HEX, UNHEX, UUID, RAND);

  public static double log(double x) {
    return Math.log(x);
  }

  /** The logarithm of {@code x} to base {@code base}. */
  public static double log(double base, double x) {
    return Math.log(x) / Math.log(base);
  }

  public static double ln(double x) {
    return Math.log(x);
  }

  public static double power(double x, double y) {
    return Math.pow(x, y);
  }

  public static double log10(double x) {
    return Math.log10(x);
  }

  public static double log2(double x) {
    return Math.log(x) / Math.log(2);
  }

  public static double sinh(double x) {
    return Math.sinh(x);
  }

  public static double cosh(double x) {
    return Math.cosh(x);
  }

  public static double tanh(double x) {
    return Math.tanh(x);
  }

  public static String uuid() {
    return java.util.UUID.randomUUID().toString();
  }

  public static double e() {
    return Math.E;
  }

  /** Two's complement digits of the 64-bit value, as Flink writes them. */
  public static String bin(long x) {
    return Long.toBinaryString(x);
  }

  public static String hex(long x) {
    return Long.toHexString(x).toUpperCase(Locale.ROOT);
  }

  public static String hex(String s) {
    return HexFormat.of().withUpperCase().formatHex(s.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * The bytes of hexadecimal digits; NULL when one is not a digit. Of an odd number of digits the
   * first is dropped and a zero byte leads, as Flink's documentation says.
   */
  public static ByteString unhex(String s) {
    byte[] out = new byte[(s.length() + 1) / 2];
    int i = s.length() - 2;
    int j = out.length - 1;
    while (i >= 0) {
      int l = Character.digit(s.charAt(i), 16);
      int r = Character.digit(s.charAt(i + 1), 16);
      if (l < 0 || r < 0) {
        return null;
      }
      out[j--] = (byte) ((l << 4) | r);
      i -= 2;
    }
    if (i == -1 && Character.digit(s.charAt(0), 16) < 0) {
      return null;
    }
    return new ByteString(out);
  }
}

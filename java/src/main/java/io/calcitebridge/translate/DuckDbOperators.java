package io.calcitebridge.translate;

import io.calcitebridge.functions.HashFunctions;
import io.calcitebridge.functions.StringFunctions;
import org.apache.calcite.sql.SqlBinaryOperator;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.type.InferTypes;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;

/** Operators that exist only in translated plans. */
final class DuckDbOperators {
  private DuckDbOperators() {}

  /**
   * Division of integers, truncated toward zero: Calcite's {@code /} on integer operands. DuckDB's
   * {@code /} divides as DOUBLE; its {@code //} truncates as Java does.
   */
  static final SqlBinaryOperator INT_DIVIDE =
      new SqlBinaryOperator(
          "//",
          SqlKind.OTHER,
          60,
          true,
          ReturnTypes.QUOTIENT_NULLABLE,
          InferTypes.FIRST_KNOWN,
          OperandTypes.EXACT_NUMERIC_EXACT_NUMERIC);

  /**
   * {@code UPPER} as Java (and so Flink and Calcite's engine) maps case: full case mapping, where
   * {@code 'ß'} becomes {@code 'SS'}. DuckDB's {@code upper} maps one character to one ({@code
   * 'ẞ'}); the backend registers {@code cb_upper} as an Arrow function (Python's {@code str.upper},
   * the same mapping).
   */
  static final SqlFunction UPPER = caseFunction("cb_upper");

  /**
   * {@code LOWER} as Java maps case: {@code 'İ'} becomes {@code 'i̇'} and a final {@code 'Σ'}
   * becomes {@code 'ς'}, which DuckDB's {@code lower} does not do.
   */
  static final SqlFunction LOWER = caseFunction("cb_lower");

  /**
   * Flink's functions that DuckDB has under another name with the same answers, NULLs included (the
   * Flink cases of {@code tests/flink/} run on the DuckDB backend too): {@code STARTSWITH} is
   * {@code starts_with}, {@code CONCAT_WS} skips NULL values and is NULL for a NULL separator in
   * both, {@code REPEAT} of a count below 1 is {@code ''} in both, the digests are lower-case
   * hexadecimal of the UTF-8 bytes in both.
   */
  static final java.util.Map<SqlOperator, SqlFunction> FLINK =
      java.util.Map.of(
          StringFunctions.STARTSWITH, sameAs("starts_with"),
          StringFunctions.ENDSWITH, sameAs("ends_with"),
          StringFunctions.CONCAT_WS, sameAs("concat_ws"),
          StringFunctions.REPEAT, sameAs("repeat"),
          HashFunctions.MD5, sameAs("md5"),
          HashFunctions.SHA1, sameAs("sha1"),
          HashFunctions.SHA256, sameAs("sha256"));

  /** A DuckDB function whose type is the one of the call it replaces. */
  private static SqlFunction sameAs(String name) {
    return new SqlFunction(
        name,
        SqlKind.OTHER_FUNCTION,
        ReturnTypes.ARG0_NULLABLE,
        null,
        OperandTypes.VARIADIC,
        SqlFunctionCategory.STRING);
  }

  private static SqlFunction caseFunction(String name) {
    return new SqlFunction(
        name,
        SqlKind.OTHER_FUNCTION,
        ReturnTypes.ARG0_NULLABLE,
        null,
        OperandTypes.CHARACTER,
        SqlFunctionCategory.STRING);
  }
}

package io.calcitebridge.translate;

import org.apache.calcite.sql.SqlBinaryOperator;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
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

package io.calcitebridge.translate;

import org.apache.calcite.sql.SqlBinaryOperator;
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
}

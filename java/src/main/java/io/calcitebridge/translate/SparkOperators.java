package io.calcitebridge.translate;

import org.apache.calcite.sql.SqlBinaryOperator;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.type.InferTypes;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;

/** Operators that exist only in plans translated to Spark SQL ({@link SparkRewrites}). */
final class SparkOperators {
  private SparkOperators() {}

  /**
   * Division of integers, truncated toward zero as Calcite's {@code /} on integers: Spark's {@code
   * div} (a BIGINT; the rewrite casts it back to the call's type). Spark's {@code /} divides as
   * DOUBLE.
   */
  static final SqlBinaryOperator DIV =
      new SqlBinaryOperator(
          "div",
          SqlKind.OTHER,
          60,
          true,
          ReturnTypes.BIGINT_NULLABLE,
          InferTypes.FIRST_KNOWN,
          OperandTypes.EXACT_NUMERIC_EXACT_NUMERIC);

  /**
   * {@code try_element_at(a, i)}: the element at the 1-based index {@code i}, NULL past the end.
   * Spark's {@code a[i]} is 0-based and fails out of range; an index below 1 is guarded by the
   * rewrite ({@code try_element_at} fails on 0 and counts a negative index from the end).
   */
  static final SqlFunction TRY_ELEMENT_AT =
      new SqlFunction(
          "try_element_at",
          SqlKind.OTHER_FUNCTION,
          ReturnTypes.ARG0_NULLABLE,
          null,
          OperandTypes.ANY_ANY,
          SqlFunctionCategory.SYSTEM);

  /**
   * Spark's {@code round(x, s)} of a DECIMAL: half up at scale {@code s}, as the reference's
   * rounding of a DECIMAL ({@code ROUND}, and a cast to a smaller scale) is.
   */
  static final SqlFunction ROUND =
      new SqlFunction(
          "round",
          SqlKind.OTHER_FUNCTION,
          ReturnTypes.ARG0_NULLABLE,
          null,
          OperandTypes.ANY_ANY,
          SqlFunctionCategory.NUMERIC);

  /**
   * A field of a computed ROW ({@code items[1].x}) or of a column: written {@code (expr).`x`}.
   * Calcite's converter writes such an access as a column named {@code items[1]} (CALCITE-6344),
   * and that of a column as a name that a relation's may capture ({@link SparkFieldColumns}); the
   * second operand is the field's name as a string literal.
   */
  static final SqlSpecialOperator FIELD =
      new SqlSpecialOperator("cb_field", SqlKind.OTHER, 100) {
        @Override
        public void unparse(SqlWriter writer, SqlCall call, int leftPrec, int rightPrec) {
          SqlWriter.Frame frame = writer.startList("(", ")");
          call.operand(0).unparse(writer, 0, 0);
          writer.endList(frame);
          writer.setNeedWhitespace(false);
          writer.print(".");
          writer.setNeedWhitespace(false);
          writer.identifier(
              ((SqlCharStringLiteral) call.operand(1)).getValueAs(String.class), true);
        }
      };

  /**
   * A ROW constructor: {@code named_struct('f0', v0, ...)}, with the field names of the ROW's type
   * as string literals before each value (Spark has no {@code ROW(...)}).
   */
  static final SqlFunction NAMED_STRUCT =
      new SqlFunction(
          "named_struct",
          SqlKind.OTHER_FUNCTION,
          ReturnTypes.ARG0,
          null,
          OperandTypes.VARIADIC,
          SqlFunctionCategory.SYSTEM);

  /**
   * {@code FLOOR(ts TO unit)} of a TIMESTAMP (without a zone): {@code CAST(date_trunc('unit', ts)
   * AS TIMESTAMP_NTZ)}. Spark's {@code date_trunc} returns a TIMESTAMP_LTZ; the second operand is
   * the unit as a string literal.
   */
  static final SqlSpecialOperator FLOOR_NTZ =
      new SqlSpecialOperator("cb_floor_ntz", SqlKind.OTHER, 100) {
        @Override
        public void unparse(SqlWriter writer, SqlCall call, int leftPrec, int rightPrec) {
          writer.keyword("CAST");
          SqlWriter.Frame cast = writer.startList("(", ")");
          writer.print("date_trunc");
          writer.setNeedWhitespace(false);
          SqlWriter.Frame args = writer.startList("(", ")");
          call.operand(1).unparse(writer, 0, 0);
          writer.setNeedWhitespace(false);
          writer.print(", ");
          call.operand(0).unparse(writer, 0, 0);
          writer.endList(args);
          writer.keyword("AS");
          writer.print("TIMESTAMP_NTZ");
          writer.endList(cast);
        }
      };
}

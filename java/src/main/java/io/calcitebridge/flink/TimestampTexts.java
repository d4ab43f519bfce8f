package io.calcitebridge.flink;

import io.calcitebridge.functions.TemporalFunctions;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * A string cast to {@code TIMESTAMP} is read with its fraction of a second cut to milliseconds
 * ({@link TemporalFunctions#timestampText}): Calcite's parse rounds the digits past the third, and
 * {@code CAST('2023-01-01 00:09:59.9995' AS TIMESTAMP(3))} was 00:10:00 where Flink gives
 * 00:09:59.999; a window or a comparison with 00:10:00 then took the row for the next minute's. A
 * literal is cut while converting, so the cast still folds into a TIMESTAMP literal (which sources
 * can take in their filters); any other string is cut as the query runs.
 */
final class TimestampTexts {
  private TimestampTexts() {}

  /** Whether a cast of {@code from} to {@code to} reads a string as a TIMESTAMP. */
  static boolean readsText(RelDataType from, RelDataType to) {
    return to.getSqlTypeName() == SqlTypeName.TIMESTAMP && SqlTypeFamily.CHARACTER.contains(from);
  }

  /** {@code operand}, a string, with its fraction of a second cut to milliseconds. */
  static RexNode cut(RexBuilder rb, RexNode operand) {
    return cut(rb, operand, 3);
  }

  /**
   * {@code operand}, a string read as a {@code TIMESTAMP(precision)}: a literal with its fraction
   * of a second cut to the digits the type keeps (milliseconds at least), any other string through
   * {@link TemporalFunctions#TIMESTAMP_TEXT}, which Calcite's engine reads with all the digits of a
   * finer TIMESTAMP (see {@link Timestamps}).
   */
  static RexNode cut(RexBuilder rb, RexNode operand, int precision) {
    if (operand instanceof RexLiteral literal) {
      String text = literal.getValueAs(String.class);
      if (text == null) {
        return operand;
      }
      String cut = TemporalFunctions.timestampText(text, Math.max(3, precision));
      return cut.equals(text) ? operand : rb.makeLiteral(cut);
    }
    return rb.makeCall(TemporalFunctions.TIMESTAMP_TEXT, operand);
  }
}

package io.calcitebridge.translate;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;

/**
 * A DuckDB expression written from a template, for a Flink function whose semantics DuckDB spells
 * as more than one call: {@code {0}}, {@code {1}}, ... stand for the operands, each written in
 * parentheses (an operand may appear more than once). Only {@link DuckDbFunctions} makes them, each
 * checked by the differential cases, so {@link Whitelist} takes them as they are.
 */
final class DuckDbTemplate extends SqlFunction {
  private final String template;

  /** {@code construct} names what the user wrote, for EXPLAIN and messages. */
  DuckDbTemplate(String construct, String template) {
    super(
        construct,
        SqlKind.OTHER_FUNCTION,
        ReturnTypes.ARG0_NULLABLE,
        null,
        OperandTypes.VARIADIC,
        SqlFunctionCategory.SYSTEM);
    this.template = template;
  }

  @Override
  public void unparse(SqlWriter writer, SqlCall call, int leftPrec, int rightPrec) {
    SqlWriter.Frame frame = writer.startList("(", ")");
    StringBuilder text = new StringBuilder();
    int i = 0;
    while (i < template.length()) {
      char c = template.charAt(i);
      int close = c == '{' ? template.indexOf('}', i) : -1;
      if (close > i + 1 && template.substring(i + 1, close).chars().allMatch(Character::isDigit)) {
        if (text.length() > 0) {
          writer.print(text.toString());
          text.setLength(0);
        }
        int operand = Integer.parseInt(template.substring(i + 1, close));
        writer.print("(");
        call.operand(operand).unparse(writer, 0, 0);
        writer.print(")");
        i = close + 1;
      } else {
        text.append(c);
        i++;
      }
    }
    if (text.length() > 0) {
      writer.print(text.toString());
    }
    writer.endList(frame);
  }
}

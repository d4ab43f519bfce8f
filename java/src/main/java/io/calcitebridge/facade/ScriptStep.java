package io.calcitebridge.facade;

import io.calcitebridge.statement.ScriptCheck;
import io.calcitebridge.types.TypeNames;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * One statement of a script's dry run ({@link BridgeSession#checkScript}): where it stands in the
 * script, what the dry run did with it ({@code ran}, {@code validated} or {@code skipped}), a
 * query's columns as {@code [name, type]} pairs (or null), and a plan or an EXPLAIN's text (or
 * null).
 */
public record ScriptStep(
    int line,
    int column,
    int endLine,
    int endColumn,
    String outcome,
    @Nullable List<String[]> columns,
    @Nullable String plan) {

  static ScriptStep of(SqlParserPos pos, ScriptCheck check) {
    RelDataType rowType = check.rowType();
    List<String[]> columns = null;
    if (rowType != null) {
      columns = new ArrayList<>();
      for (RelDataTypeField f : rowType.getFieldList()) {
        columns.add(new String[] {f.getName(), TypeNames.render(f.getType())});
      }
    }
    return new ScriptStep(
        pos.getLineNum(),
        pos.getColumnNum(),
        pos.getEndLineNum(),
        pos.getEndColumnNum(),
        check.outcome(),
        columns,
        check.plan());
  }

  /** The steps as a JSON list of objects with the record's field names. */
  static String json(List<ScriptStep> steps) {
    StringBuilder out = new StringBuilder("[");
    for (ScriptStep step : steps) {
      out.append(out.length() > 1 ? "," : "")
          .append("{\"line\":")
          .append(step.line)
          .append(",\"column\":")
          .append(step.column)
          .append(",\"endLine\":")
          .append(step.endLine)
          .append(",\"endColumn\":")
          .append(step.endColumn)
          .append(",\"outcome\":")
          .append(StatementResult.jsonString(step.outcome))
          .append(",\"columns\":");
      List<String[]> columns = step.columns;
      if (columns == null) {
        out.append("null");
      } else {
        out.append('[');
        for (int i = 0; i < columns.size(); i++) {
          out.append(i > 0 ? "," : "")
              .append('[')
              .append(StatementResult.jsonString(columns.get(i)[0]))
              .append(',')
              .append(StatementResult.jsonString(columns.get(i)[1]))
              .append(']');
        }
        out.append(']');
      }
      out.append(",\"plan\":").append(StatementResult.jsonString(step.plan)).append('}');
    }
    return out.append(']').toString();
  }
}

package io.calcitebridge.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.apache.calcite.sql.SqlExplain;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * Flink's {@code EXPLAIN detail[, detail]* statement}, the details among {@code ESTIMATED_COST},
 * {@code CHANGELOG_MODE}, {@code JSON_EXECUTION_PLAN} and {@code PLAN_ADVICE}.
 */
public class SqlExplainDetails extends SqlExplain {
  /** The details Flink names. */
  public static final List<String> KNOWN =
      List.of("ESTIMATED_COST", "CHANGELOG_MODE", "JSON_EXECUTION_PLAN", "PLAN_ADVICE");

  /** Rebuilds the statement with its details (a clone keeps the class). */
  private static final SqlOperator OPERATOR =
      new BridgeOperator(
          "EXPLAIN",
          SqlKind.EXPLAIN,
          (pos, ops) ->
              new SqlExplainDetails(
                  pos,
                  Objects.requireNonNull(ops.get(0)),
                  (SqlLiteral) Objects.requireNonNull(ops.get(1)),
                  (SqlLiteral) Objects.requireNonNull(ops.get(2)),
                  (SqlLiteral) Objects.requireNonNull(ops.get(3)),
                  0,
                  ((SqlNodeList) Objects.requireNonNull(ops.get(4)))
                      .stream().map(n -> (SqlIdentifier) n).toList()));

  private final List<SqlIdentifier> details;

  /** Creates an EXPLAIN with {@code details} (identifiers as written). */
  public SqlExplainDetails(
      SqlParserPos pos,
      SqlNode explicandum,
      SqlLiteral detailLevel,
      SqlLiteral depth,
      SqlLiteral format,
      int dynamicParameterCount,
      List<SqlIdentifier> details) {
    super(pos, explicandum, detailLevel, depth, format, dynamicParameterCount);
    this.details = List.copyOf(details);
  }

  /** The details as written. */
  public List<SqlIdentifier> details() {
    return details;
  }

  /** Whether {@code name} (upper case) is among the details. */
  public boolean has(String name) {
    return details.stream().anyMatch(d -> d.getSimple().toUpperCase(Locale.ROOT).equals(name));
  }

  @Override
  public SqlOperator getOperator() {
    return OPERATOR;
  }

  @Override
  public List<SqlNode> getOperandList() {
    List<SqlNode> ops = new ArrayList<>(super.getOperandList());
    ops.add(new SqlNodeList(details, SqlParserPos.ZERO));
    return ops;
  }

  @Override
  public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword("EXPLAIN");
    for (int i = 0; i < details.size(); i++) {
      if (i > 0) {
        writer.print(",");
      }
      writer.keyword(details.get(i).getSimple().toUpperCase(Locale.ROOT));
    }
    writer.newlineAndIndent();
    getExplicandum().unparse(writer, 0, 0);
  }
}

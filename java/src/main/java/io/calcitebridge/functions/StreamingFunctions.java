package io.calcitebridge.functions;

import java.util.List;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperandCountRange;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.type.SqlOperandCountRanges;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Flink's functions of streaming queries: {@code CURRENT_WATERMARK(rowtime)}, {@code
 * SOURCE_WATERMARK()} and {@code PROCTIME()}. A batch query has neither watermarks nor processing
 * time, so the validator refuses a call with a clear "streaming only" error ({@link #isStreaming},
 * {@code validate.BridgeSqlValidator}) rather than "No match found".
 */
public final class StreamingFunctions {
  private StreamingFunctions() {}

  private static SqlOperator streaming(String name) {
    return new SqlFunction(
        name,
        SqlKind.OTHER_FUNCTION,
        Fn.type(
            f -> f.createSqlType(SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE, 3), Fn.Nulls.ALWAYS),
        null,
        null,
        SqlFunctionCategory.TIMEDATE) {
      @Override
      public SqlOperandCountRange getOperandCountRange() {
        return SqlOperandCountRanges.any();
      }

      @Override
      public boolean checkOperandTypes(SqlCallBinding callBinding, boolean throwOnFailure) {
        return true;
      }
    };
  }

  public static final SqlOperator CURRENT_WATERMARK = streaming("CURRENT_WATERMARK");
  public static final SqlOperator SOURCE_WATERMARK = streaming("SOURCE_WATERMARK");
  public static final SqlOperator PROCTIME = streaming("PROCTIME");

  static final List<SqlOperator> ALL = List.of(CURRENT_WATERMARK, SOURCE_WATERMARK, PROCTIME);

  /**
   * Flink's process table functions of changelogs, {@code FROM TO_CHANGELOG(input => TABLE t)} and
   * {@code FROM_CHANGELOG}, which its batch mode cannot plan ("Cannot generate a valid execution
   * plan"): the validator refuses them as streaming only.
   */
  private static final List<String> STREAMING_TABLES = List.of("TO_CHANGELOG", "FROM_CHANGELOG");

  /** Whether a table function of this name is one of Flink's streaming-only ones. */
  public static boolean isStreamingTable(String name) {
    return STREAMING_TABLES.contains(name.toUpperCase(java.util.Locale.ROOT));
  }

  /** Whether {@code op} is one of Flink's streaming-only functions. */
  public static boolean isStreaming(SqlOperator op) {
    return ALL.contains(op);
  }
}

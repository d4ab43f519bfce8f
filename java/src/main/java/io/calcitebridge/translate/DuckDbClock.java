package io.calcitebridge.translate;

import io.calcitebridge.functions.TemporalFunctions;
import java.util.List;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Flink's clock functions in DuckDB SQL, with the values Calcite's engine gives them ({@code
 * statement.ExecContext}), which are Flink's in batch mode:
 *
 * <ul>
 *   <li>{@code NOW()} and {@code CURRENT_TIMESTAMP}: the instant the statement started, a {@code
 *       TIMESTAMP_LTZ(3)}; {@code UNIX_TIMESTAMP()}: its seconds;
 *   <li>{@code LOCALTIMESTAMP}: that instant's wall-clock time in the session zone ({@code
 *       table.local-time-zone}, DuckDB's {@code TimeZone}), a {@code TIMESTAMP(3)}; {@code
 *       CURRENT_DATE}: its date; {@code CURRENT_TIME} and {@code LOCALTIME}: its time of day, a
 *       {@code TIME(0)} that keeps the milliseconds, as Flink's does;
 *   <li>{@code CURRENT_ROW_TIMESTAMP()}: the clock when the row is computed, read by {@code
 *       cb_row_clock}, an Arrow function of the backend ({@code _duckdb.py}) that DuckDB calls for
 *       each batch of rows it computes (so rows of one batch share a reading; a statement's later
 *       batches read later times).
 * </ul>
 *
 * <p>The statement's start is DuckDB's {@code get_current_timestamp()}, the start of the
 * statement's transaction, the same for the whole statement; it keeps microseconds, cut here to the
 * milliseconds of Java's clock (DuckDB's {@code epoch_ms} of a timestamp rounds them, so the
 * microseconds are divided). A call with a precision ({@code CURRENT_TIMESTAMP(0)}, which Flink
 * validates but cannot run) is left to Calcite's engine.
 */
final class DuckDbClock {
  private DuckDbClock() {}

  /** The milliseconds since 1970 of the statement's start, cut (not rounded) from microseconds. */
  static final String START_MILLIS = "(epoch_us(get_current_timestamp()) // 1000)";

  /** The statement's start as a TIMESTAMPTZ of whole milliseconds. */
  private static final String START = "timezone('UTC', epoch_ms(" + START_MILLIS + "))";

  /** The wall-clock time of the statement's start in DuckDB's {@code TimeZone}, a TIMESTAMP. */
  private static final String WALL = "CAST(" + START + " AS TIMESTAMP)";

  /** The DuckDB spelling of a clock function's call, or null when {@code call} is not one. */
  static @Nullable RexNode rewrite(RexBuilder rex, RexCall call) {
    SqlOperator op = call.getOperator();
    if (!call.operands.isEmpty()) {
      if (op == SqlStdOperatorTable.CURRENT_TIME || op == SqlStdOperatorTable.LOCALTIME) {
        throw precision();
      }
      return null;
    }
    RelDataType type = call.getType();
    String template = null;
    if (op == TemporalFunctions.NOW && ltz3(type)) {
      template = START;
    } else if (op == TemporalFunctions.CURRENT_ROW_TIMESTAMP && ltz3(type)) {
      template = "timezone('UTC', epoch_ms(cb_row_clock(0)))";
    } else if (op == TemporalFunctions.UNIX_TIMESTAMP) {
      template = "CAST(" + START_MILLIS + " // 1000 AS BIGINT)";
    } else if (op == SqlStdOperatorTable.LOCALTIMESTAMP
        && type.getSqlTypeName() == SqlTypeName.TIMESTAMP
        && type.getPrecision() == 3) {
      template = WALL;
    } else if (op == SqlStdOperatorTable.CURRENT_DATE
        && type.getSqlTypeName() == SqlTypeName.DATE) {
      template = "CAST(" + WALL + " AS DATE)";
    } else if ((op == SqlStdOperatorTable.CURRENT_TIME || op == SqlStdOperatorTable.LOCALTIME)
        && type.getSqlTypeName() == SqlTypeName.TIME
        && type.getPrecision() == 0) {
      template = "CAST(" + WALL + " AS TIME)";
    }
    if (template == null) {
      if (op == TemporalFunctions.NOW || op == SqlStdOperatorTable.LOCALTIMESTAMP) {
        throw precision();
      }
      return null;
    }
    return rex.makeCall(type, new DuckDbTemplate(op.getName(), template), List.of());
  }

  private static Refusal precision() {
    return new Refusal(
        DuckDbTranslator.BACKEND,
        "CURRENT_TIMESTAMP, LOCALTIMESTAMP, CURRENT_TIME or LOCALTIME with a precision");
  }

  private static boolean ltz3(RelDataType type) {
    return type.getSqlTypeName() == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE
        && type.getPrecision() == 3;
  }
}

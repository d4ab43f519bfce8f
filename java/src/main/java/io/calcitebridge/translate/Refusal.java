package io.calcitebridge.translate;

/**
 * A backend cannot run a plan with exactly the reference's semantics: names the construct. Under
 * {@code auto} the statement then runs on Calcite's engine; under an explicit backend it fails with
 * this message (kind {@code UNSUPPORTED}).
 */
public final class Refusal extends UnsupportedOperationException {
  private static final long serialVersionUID = 1L;

  private final String construct;

  public Refusal(String backend, String construct) {
    super("The " + backend + " backend cannot run " + construct);
    this.construct = construct;
  }

  /**
   * The operators that SQL conversion puts in a plan for a construct the user wrote, by the
   * construct's name: a refusal names what the user wrote, not {@code $COLLECTION_TEXT}.
   */
  private static final java.util.Map<String, String> WRITTEN_AS =
      java.util.Map.ofEntries(
          java.util.Map.entry(
              "Reinterpret", "a TIMESTAMPDIFF or a date-time difference as a number"),
          java.util.Map.entry("DECIMAL_DIVIDE", "a DECIMAL division"),
          java.util.Map.entry("$COLLECTION_TEXT", "a CAST of an ARRAY, MAP or MULTISET to STRING"),
          java.util.Map.entry("$WINDOWS", "a window table function (TUMBLE, HOP, CUMULATE)"),
          java.util.Map.entry("$WINDOW_START", "the window_start of a window table function"),
          java.util.Map.entry("$WINDOW_END", "the window_end of a window table function"),
          java.util.Map.entry("$WINDOW_TIME", "the window_time of a window table function"),
          java.util.Map.entry("$WINDOWED_TIME", "a window table function's time column"),
          java.util.Map.entry("$ROWTIME", "TUMBLE_ROWTIME or HOP_ROWTIME"),
          java.util.Map.entry("$GROUP_HOP", "GROUP BY HOP"),
          java.util.Map.entry("$GROUP_TUMBLE", "GROUP BY TUMBLE, HOP or SESSION"),
          java.util.Map.entry("$AVG_BIGINT", "the aggregate function AVG"),
          java.util.Map.entry("$AVG_DECIMAL", "the aggregate function AVG"),
          java.util.Map.entry("$WIDE_SUM", "the aggregate function AVG"),
          java.util.Map.entry("CAST_LTZ_TO_STRING", "a CAST of a TIMESTAMP_LTZ to STRING"),
          java.util.Map.entry("CAST_LTZ_TO_TIMESTAMP", "a CAST of a TIMESTAMP_LTZ to TIMESTAMP"),
          java.util.Map.entry("CAST_TIMESTAMP_TO_LTZ", "a CAST of a TIMESTAMP to TIMESTAMP_LTZ"),
          java.util.Map.entry("CAST_STRING_TO_TIMESTAMP_TEXT", "a CAST of a STRING to TIMESTAMP"));

  /** {@code the function NAME}, or the construct the user wrote ({@link #WRITTEN_AS}). */
  static String function(org.apache.calcite.sql.SqlOperator operator) {
    return named("the function ", operator);
  }

  /** {@code the aggregate function NAME}, or the construct the user wrote. */
  static String aggregate(org.apache.calcite.sql.SqlOperator operator) {
    return named("the aggregate function ", operator);
  }

  private static String named(String kind, org.apache.calcite.sql.SqlOperator operator) {
    return WRITTEN_AS.getOrDefault(operator.getName(), kind + operator.getName());
  }

  /** The relational operators a plan may hold, by the construct a user wrote for them. */
  private static final java.util.Map<String, String> OPERATORS =
      java.util.Map.of(
          "LogicalCorrelate", "UNNEST of a column, or a LATERAL join",
          "Uncollect", "UNNEST",
          "LogicalTableFunctionScan", "a table function",
          "LogicalWindow", "a window function",
          "LogicalMatch", "MATCH_RECOGNIZE",
          "LogicalSnapshot", "FOR SYSTEM_TIME AS OF",
          "LogicalValues", "VALUES",
          "LogicalUnion", "UNION",
          "LogicalIntersect", "INTERSECT",
          "LogicalMinus", "EXCEPT");

  /** The construct a user wrote for a relational operator, never its class. */
  static String operator(org.apache.calcite.rel.RelNode rel) {
    String name = OPERATORS.get(rel.getRelTypeName());
    return name != null ? name : "the relational operator " + rel.getRelTypeName();
  }

  /** {@code VALUES}, {@code UNION}, {@code INTERSECT} or {@code EXCEPT}. */
  static String setOperation(org.apache.calcite.rel.RelNode rel) {
    return OPERATORS.getOrDefault(rel.getRelTypeName(), rel.getRelTypeName());
  }

  /**
   * {@code EXTRACT(HOUR FROM a TIMESTAMP_LTZ)}, {@code FLOOR(a TIMESTAMP_LTZ TO DAY)}: a date-time
   * function as the user wrote it, with the type of its value; null for other calls.
   */
  static @org.checkerframework.checker.nullness.qual.Nullable String temporal(
      org.apache.calcite.rex.RexCall call) {
    java.util.List<org.apache.calcite.rex.RexNode> ops = call.operands;
    switch (call.getKind()) {
      case EXTRACT:
        if (ops.size() == 2 && unit(ops.get(0)) != null) {
          return "EXTRACT(" + unit(ops.get(0)) + " FROM a " + typeName(ops.get(1).getType()) + ")";
        }
        return null;
      case FLOOR:
      case CEIL:
        if (ops.size() == 2 && unit(ops.get(1)) != null) {
          return call.getKind()
              + "(a "
              + typeName(ops.get(0).getType())
              + " TO "
              + unit(ops.get(1))
              + ")";
        }
        return null;
      default:
        return null;
    }
  }

  /** The construct of {@code call} as the user wrote it ({@link #temporal}, or the function). */
  static String call(org.apache.calcite.rex.RexCall call) {
    String written = temporal(call);
    return written != null ? written : function(call.getOperator());
  }

  /** The unit of an EXTRACT, FLOOR or CEIL call's flag operand, or null. */
  private static org.apache.calcite.avatica.util.@org.checkerframework.checker.nullness.qual
          .Nullable
      TimeUnitRange
      unit(org.apache.calcite.rex.RexNode node) {
    return node instanceof org.apache.calcite.rex.RexLiteral literal
            && literal.getValue() instanceof org.apache.calcite.avatica.util.TimeUnitRange unit
        ? unit
        : null;
  }

  /** The name of {@code type}'s kind as a user writes it: {@code TIMESTAMP_LTZ}, {@code DOUBLE}. */
  static String typeName(org.apache.calcite.rel.type.RelDataType type) {
    return type.getSqlTypeName()
            == org.apache.calcite.sql.type.SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE
        ? "TIMESTAMP_LTZ"
        : type.getSqlTypeName().getName();
  }

  /** What was refused, as a user reads it: {@code the function SOUNDEX}, {@code a correlate}. */
  public String construct() {
    return construct;
  }
}

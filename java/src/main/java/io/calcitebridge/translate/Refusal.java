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
          java.util.Map.entry("$COLLECTION_TEXT", "a CAST of an ARRAY, MAP or MULTISET to STRING"),
          java.util.Map.entry("$WINDOWS", "a window table function (TUMBLE, HOP, CUMULATE)"),
          java.util.Map.entry("$WINDOW_START", "the window_start of a window table function"),
          java.util.Map.entry("$WINDOW_END", "the window_end of a window table function"),
          java.util.Map.entry("$WINDOW_TIME", "the window_time of a window table function"),
          java.util.Map.entry("$WINDOWED_TIME", "a window table function's time column"),
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

  /** What was refused, as a user reads it: {@code the function SOUNDEX}, {@code a correlate}. */
  public String construct() {
    return construct;
  }
}

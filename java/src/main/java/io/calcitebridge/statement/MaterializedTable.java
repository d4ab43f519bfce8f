package io.calcitebridge.statement;

/**
 * What a materialized table keeps besides its table (in its own file, so that the session state
 * that holds it needs none of the statements that use it).
 *
 * @param ctasHead the {@code CREATE TABLE ... AS } that, followed by the query's text, fills it
 * @param queryText the query as written
 * @param head Flink's DDL up to {@code AS}
 * @param query the query with every name expanded, as SHOW CREATE prints it
 * @param suspended whether ALTER ... SUSPEND was the last of SUSPEND and RESUME
 */
record MaterializedTable(
    String ctasHead, String queryText, String head, String query, boolean suspended) {

  /** The {@code CREATE TABLE ... AS query} that fills it. */
  String ctas() {
    return ctasHead + queryText;
  }
}

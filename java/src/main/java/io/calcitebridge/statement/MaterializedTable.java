package io.calcitebridge.statement;

/**
 * What a materialized table keeps besides its table (in its own file, so that the session state
 * that holds it needs none of the statements that use it).
 *
 * @param ctas the {@code CREATE TABLE ... AS query} that fills it
 * @param head Flink's DDL up to {@code AS}
 * @param query the query with every name expanded, as SHOW CREATE prints it
 * @param suspended whether ALTER ... SUSPEND was the last of SUSPEND and RESUME
 */
record MaterializedTable(String ctas, String head, String query, boolean suspended) {}

package io.calcitebridge.plan;

import io.calcitebridge.catalog.TableDef;
import io.calcitebridge.catalog.TableStorage;
import io.calcitebridge.pushdown.BridgeTable;
import io.calcitebridge.statement.RowSet;
import io.calcitebridge.statement.SessionState;
import io.calcitebridge.statement.StatementExecutor;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParseException;

/**
 * A session for tests of the validator and the planner: DDL and INSERT run through the statement
 * executor, queries are planned with a {@link QueryPlanner} directly.
 */
public final class PlanningSession {
  private final SessionState state = new SessionState();

  public SessionState state() {
    return state;
  }

  public PlannerContext context() {
    return state.planner();
  }

  /** Parses one statement; a parse error fails the test. */
  public SqlNode parse(String sql) {
    try {
      return state.planner().parseStatement(sql);
    } catch (SqlParseException e) {
      throw new AssertionError("does not parse: " + sql, e);
    }
  }

  /** Runs any statement (DDL, INSERT, SET, a query) and returns its rows. */
  public List<Object[]> exec(String sql) {
    RowSet rows = new StatementExecutor(state, new AtomicBoolean()).execute(parse(sql), sql);
    List<Object[]> out = new ArrayList<>();
    for (Object[] r : rows.rows()) {
      out.add(r);
    }
    return out;
  }

  /** Sets {@code table.column-expansion-strategy}. */
  public PlanningSession strategy(String value) {
    state.config().set("table.column-expansion-strategy", value);
    return this;
  }

  /** Adds a table whose data comes from {@code storage}. */
  public BridgeTable addTable(TableDef def, TableStorage storage) {
    BridgeTable table = new BridgeTable(def, storage, state.planner()::parseExpression);
    state.catalog().addTable(def.name(), table, false);
    return table;
  }

  /** A planner for {@code sql} whose validation may discover columns. */
  public QueryPlanner planner(String sql) {
    Supplier<SqlNode> reparse = () -> parse(sql);
    return new QueryPlanner(state.planner(), reparse);
  }

  /** The names of the columns {@code sql} returns. */
  public List<String> columns(String sql) {
    QueryPlanner planner = planner(sql);
    return planner.rowType(planner.validate(parse(sql))).getFieldNames();
  }

  /** The optimized plan of {@code sql}, as EXPLAIN renders it. */
  public String plan(String sql) {
    return QueryPlanner.render(optimized(sql), "text");
  }

  /** The optimized plan of {@code sql}. */
  public RelNode optimized(String sql) {
    QueryPlanner planner = planner(sql);
    return planner.optimize(planner.toLogical(planner.validate(parse(sql))));
  }

  /** The logical plan of {@code sql}, before optimization. */
  public String logical(String sql) {
    QueryPlanner planner = planner(sql);
    return QueryPlanner.render(planner.toLogical(planner.validate(parse(sql))), "text");
  }
}

package io.calcitebridge.statement;

import io.calcitebridge.catalog.Catalog;
import io.calcitebridge.errors.ErrorKind;
import io.calcitebridge.errors.PositionedException;
import io.calcitebridge.plan.PlannerContext;
import io.calcitebridge.plan.QueryPlanner;
import io.calcitebridge.sql.SqlCreateMaterializedTable;
import io.calcitebridge.sql.SqlCreateTable;
import io.calcitebridge.sql.SqlFlinkCommand;
import io.calcitebridge.types.TypeNames;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.calcite.sql.SqlIntervalLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * Flink's materialized tables (FLIP-435) in batch: {@code CREATE MATERIALIZED TABLE} creates a
 * table filled by its query (a {@code CREATE TABLE ... AS} of the same columns, partitions and
 * options), {@code ALTER MATERIALIZED TABLE ... REFRESH} runs the query again in place of the rows,
 * {@code SUSPEND} and {@code RESUME} are recorded, {@code SHOW CREATE MATERIALIZED TABLE} prints
 * Flink's DDL with the freshness and refresh mode, and {@code DROP MATERIALIZED TABLE} drops it. A
 * query that reads an unbounded source (a continuous refresh that never ends in batch) leaves the
 * table empty.
 */
final class MaterializedTables {
  private MaterializedTables() {}

  /** Flink's default freshness ('materialized-table.default-freshness'). */
  static final String DEFAULT_FRESHNESS = "INTERVAL '3' MINUTE";

  /** Below this freshness Flink's default refresh mode is CONTINUOUS, else FULL (30 min). */
  private static final long CONTINUOUS_BELOW_MILLIS = 30L * 60 * 1000;

  /**
   * CREATE MATERIALIZED TABLE: {@code fill} runs the {@code CREATE TABLE ... AS} that makes and
   * fills the table (the statement executor's, passed in so that this class needs none of it).
   */
  static RowSet create(
      Consumer<SqlCreateTable> fill, SessionState session, SqlCreateMaterializedTable create) {
    PlannerContext context = session.planner();
    if (create.temporary()) {
      throw new PositionedException(
          ErrorKind.UNSUPPORTED,
          "A materialized table cannot be TEMPORARY",
          create.name().getParserPosition());
    }
    for (SqlNode c : create.columns()) {
      throw new PositionedException(
          ErrorKind.VALIDATION,
          "A materialized table takes its columns from its query: only a PRIMARY KEY constraint"
              + " may be written in its parentheses",
          c.getParserPosition());
    }
    Catalog.Path path = CatalogStatements.path(context, create.name(), false);
    if (create.mode() == SqlCreateMaterializedTable.Mode.CREATE_OR_ALTER && create.ifNotExists()) {
      throw new PositionedException(
          ErrorKind.PARSE,
          "CREATE OR ALTER MATERIALIZED TABLE takes no IF NOT EXISTS",
          create.name().getParserPosition());
    }
    if (create.mode() != SqlCreateMaterializedTable.Mode.CREATE) {
      MaterializedTable old = session.materialized().get(path.toString());
      if (context.catalog().table(path) == null) {
        if (create.mode() == SqlCreateMaterializedTable.Mode.ALTER) {
          throw new PositionedException(
              ErrorKind.VALIDATION,
              "Materialized table " + Catalog.quotedPath(path) + " doesn't exist.",
              create.name().getParserPosition());
        }
      } else if (old == null || context.catalog().isTemporary(path)) {
        throw new PositionedException(
            ErrorKind.VALIDATION,
            create.mode() == SqlCreateMaterializedTable.Mode.ALTER
                ? "ALTER MATERIALIZED TABLE for a "
                    + (context.catalog().view(path) != null ? "view" : "table")
                    + " is not allowed"
                : "Table "
                    + path
                    + " is not a materialized table. Only materialized table support create or"
                    + " alter operation.",
            create.name().getParserPosition());
      } else {
        return alter(fill, session, create, path, old);
      }
    }
    if (context.catalog().table(path) != null) {
      if (create.ifNotExists()) {
        return RowSet.ok("ddl", context.typeFactory());
      }
    }
    String freshness =
        create.freshness() == null ? DEFAULT_FRESHNESS : context.unparse(create.freshness());
    String mode;
    if (create.refreshMode() != null) {
      mode = create.refreshMode().getSimple().toUpperCase(Locale.ROOT);
      if (!mode.equals("CONTINUOUS") && !mode.equals("FULL")) {
        throw new PositionedException(
            ErrorKind.PARSE,
            "REFRESH_MODE must be CONTINUOUS or FULL, not '" + create.refreshMode() + "'",
            create.refreshMode().getParserPosition());
      }
    } else {
      mode =
          create.freshness() instanceof SqlIntervalLiteral lit
                  && millis(lit) >= CONTINUOUS_BELOW_MILLIS
              ? "FULL"
              : "CONTINUOUS";
    }
    StringBuilder clauses = new StringBuilder();
    if (!create.constraints().isEmpty()) {
      List<String> parts = new ArrayList<>();
      create.constraints().forEach(n -> parts.add(context.unparse(n)));
      clauses.append(" (").append(String.join(", ", parts)).append(')');
    }
    StringBuilder head =
        new StringBuilder("CREATE MATERIALIZED TABLE ").append(Catalog.quotedPath(path));
    if (create.comment() != null) {
      String c = context.unparse(create.comment());
      clauses.append(" COMMENT ").append(c);
      head.append("\nCOMMENT ").append(c);
    }
    List<String> partitions = create.partitionNames();
    if (!partitions.isEmpty()) {
      String keys = String.join(", ", partitions.stream().map(TypeNames::quote).toList());
      clauses.append(" PARTITIONED BY (").append(keys).append(')');
      head.append("\nPARTITIONED BY (").append(keys).append(')');
    }
    Map<String, String> options = create.options();
    if (!options.isEmpty()) {
      List<String> opts = new ArrayList<>();
      options.forEach((k, v) -> opts.add("'" + quote(k) + "' = '" + quote(v) + "'"));
      clauses.append(" WITH (").append(String.join(", ", opts)).append(')');
      head.append("\nWITH (\n  ").append(String.join(",\n  ", opts)).append("\n)");
    }
    head.append("\nFRESHNESS = ").append(freshness).append("\nREFRESH_MODE = ").append(mode);
    String queryText = context.unparse(create.query());
    String ctasHead = "CREATE TABLE " + Catalog.quotedPath(path) + clauses + " AS ";
    QueryPlanner planner = new QueryPlanner(context);
    String expanded = flinkText(context, planner.validate(create.query()));
    planner.release();
    fill.accept(parse(context, ctasHead + queryText, create.getParserPosition()));
    session
        .materialized()
        .put(
            path.toString(),
            new MaterializedTable(ctasHead, queryText, head.toString(), expanded, false));
    return RowSet.ok("ddl", context.typeFactory());
  }

  /**
   * ALTER MATERIALIZED TABLE ... AS, and CREATE OR ALTER of one that exists: as Flink, only the
   * query changes (the other clauses of CREATE OR ALTER are not applied), and its columns must be
   * the table's, in order and of the same types, with new ones only after them. Flink's next
   * refresh then runs the new query; here, where nothing refreshes by itself, the table is filled
   * by it at once, as {@code REFRESH} would.
   */
  private static RowSet alter(
      Consumer<SqlCreateTable> fill,
      SessionState session,
      SqlCreateMaterializedTable alter,
      Catalog.Path path,
      MaterializedTable old) {
    PlannerContext context = session.planner();
    String queryText = context.unparse(alter.query());
    org.apache.calcite.schema.Table table =
        java.util.Objects.requireNonNull(context.catalog().table(path));
    org.apache.calcite.rel.type.RelDataType before = table.getRowType(context.typeFactory());
    QueryPlanner planner = new QueryPlanner(context);
    SqlNode validated = planner.validate(alter.query());
    org.apache.calcite.rel.type.RelDataType after = planner.rowType(validated);
    String expanded = flinkText(context, validated);
    planner.release();
    SqlParserPos pos = alter.query().getParserPosition();
    if (after.getFieldCount() < before.getFieldCount()) {
      throw new PositionedException(
          ErrorKind.VALIDATION,
          "Failed to modify query because drop column is unsupported. When modifying a query, you"
              + " can only append new columns at the end of original schema. The original schema"
              + " has "
              + before.getFieldCount()
              + " columns, but the newly derived schema from the query has "
              + after.getFieldCount()
              + " columns.",
          pos);
    }
    for (int i = 0; i < before.getFieldCount(); i++) {
      org.apache.calcite.rel.type.RelDataTypeField was = before.getFieldList().get(i);
      org.apache.calcite.rel.type.RelDataTypeField now = after.getFieldList().get(i);
      if (!was.getName().equals(now.getName())
          || !TypeNames.render(was.getType()).equals(TypeNames.render(now.getType()))) {
        throw new PositionedException(
            ErrorKind.VALIDATION,
            "When modifying the query of a materialized table, currently only support appending"
                + " columns at the end of original schema, dropping, renaming, and reordering"
                + " columns are not supported.\nColumn mismatch at position "
                + (i + 1)
                + ": Original column is ["
                + TypeNames.quote(was.getName())
                + " "
                + TypeNames.render(was.getType())
                + "], but new column is ["
                + TypeNames.quote(now.getName())
                + " "
                + TypeNames.render(now.getType())
                + "].",
            pos);
      }
    }
    refill(fill, context, old.ctasHead() + queryText, alter.getParserPosition());
    session
        .materialized()
        .put(
            path.toString(),
            new MaterializedTable(
                old.ctasHead(), queryText, old.head(), expanded, old.suspended()));
    return RowSet.ok("ddl", context.typeFactory());
  }

  /**
   * The validated query as Flink prints it in SHOW CREATE: tables by their full names, function
   * names unquoted.
   */
  private static String flinkText(PlannerContext context, SqlNode validated) {
    validated.accept(
        new org.apache.calcite.sql.util.SqlBasicVisitor<Void>() {
          @Override
          public Void visit(org.apache.calcite.sql.SqlCall call) {
            if (call instanceof org.apache.calcite.sql.SqlSelect select
                && select.getFrom() != null) {
              select.setFrom(qualified(context, select.getFrom()));
            }
            return super.visit(call);
          }
        });
    return context.unparse(validated).replaceAll("`([A-Z][A-Z0-9_]*)`\\(", "$1(");
  }

  private static SqlNode qualified(PlannerContext context, SqlNode from) {
    if (from instanceof org.apache.calcite.sql.SqlIdentifier id && !id.isStar()) {
      Catalog.Path p = context.catalog().path(id.names);
      if (p != null && context.catalog().table(p) != null) {
        return new org.apache.calcite.sql.SqlIdentifier(
            List.of(p.catalog(), p.database(), p.name()), id.getParserPosition());
      }
      return from;
    }
    if (from instanceof org.apache.calcite.sql.SqlJoin join) {
      join.setLeft(qualified(context, join.getLeft()));
      join.setRight(qualified(context, join.getRight()));
    } else if (from.getKind() == org.apache.calcite.sql.SqlKind.AS
        && from instanceof org.apache.calcite.sql.SqlCall call) {
      call.setOperand(0, qualified(context, call.operand(0)));
    }
    return from;
  }

  private static long millis(SqlIntervalLiteral lit) {
    SqlIntervalLiteral.IntervalValue v = (SqlIntervalLiteral.IntervalValue) lit.getValue();
    try {
      long n = Long.parseLong(v.getIntervalLiteral().trim());
      return switch (v.getIntervalQualifier().getStartUnit()) {
        case SECOND -> n * 1000;
        case MINUTE -> n * 60_000;
        case HOUR -> n * 3_600_000;
        case DAY -> n * 86_400_000;
        default -> Long.MAX_VALUE;
      };
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private static String quote(String s) {
    return s.replace("'", "''");
  }

  /** Replaces the rows of the table that {@code ctas} makes by those of its query. */
  private static void refill(
      Consumer<SqlCreateTable> fill, PlannerContext context, String ctas, SqlParserPos pos) {
    fill.accept(
        parse(context, ctas.replaceFirst("^CREATE TABLE ", "CREATE OR REPLACE TABLE "), pos));
  }

  private static SqlCreateTable parse(PlannerContext context, String text, SqlParserPos pos) {
    try {
      return (SqlCreateTable) context.parseStatement(text);
    } catch (SqlParseException e) {
      throw new PositionedException(
          ErrorKind.VALIDATION,
          "The materialized table does not read back: " + e.getMessage(),
          pos);
    }
  }

  /** SHOW CREATE, REFRESH, SUSPEND and RESUME of a materialized table. */
  static RowSet run(Consumer<SqlCreateTable> fill, SessionState session, SqlFlinkCommand command) {
    PlannerContext context = session.planner();
    SqlNode name = java.util.Objects.requireNonNull(command.name());
    Catalog.Path path = CatalogStatements.path(context, command.name(), false);
    MaterializedTable m = DdlExecutor.materialized(session, path, name.getParserPosition());
    switch (command.kind()) {
      case SHOW_CREATE_MATERIALIZED_TABLE:
        return RowSet.of(
            "show",
            RowSet.strings(context.typeFactory(), "statement"),
            List.<Object[]>of(new Object[] {m.head() + "\nAS " + m.query() + "\n"}));
      case REFRESH_MATERIALIZED_TABLE:
        refill(fill, context, m.ctas(), command.getParserPosition());
        return RowSet.ok("ddl", context.typeFactory());
      case SUSPEND_MATERIALIZED_TABLE:
      case RESUME_MATERIALIZED_TABLE:
        session
            .materialized()
            .put(
                path.toString(),
                new MaterializedTable(
                    m.ctasHead(),
                    m.queryText(),
                    m.head(),
                    m.query(),
                    command.kind() == SqlFlinkCommand.Kind.SUSPEND_MATERIALIZED_TABLE));
        return RowSet.ok("ddl", context.typeFactory());
      default:
        throw new IllegalStateException(command.kind().toString());
    }
  }
}

package io.calcitebridge.plan;

import io.calcitebridge.catalog.Catalog;
import io.calcitebridge.catalog.ExpansionStrategy;
import io.calcitebridge.dyncol.DynColOperators;
import io.calcitebridge.functions.FlinkFunctions;
import io.calcitebridge.sql.BridgeParser;
import io.calcitebridge.types.BridgeTypeFactory;
import io.calcitebridge.validate.BridgeSqlValidator;
import io.calcitebridge.validate.BridgeTypeCoercion;
import java.util.List;
import java.util.Properties;
import java.util.function.Supplier;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.config.CalciteConnectionConfig;
import org.apache.calcite.config.CalciteConnectionConfigImpl;
import org.apache.calcite.config.CalciteConnectionProperty;
import org.apache.calcite.config.NullCollation;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.util.SqlOperatorTables;
import org.apache.calcite.sql.validate.SqlConformanceEnum;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.tools.Program;
import org.checkerframework.checker.nullness.qual.Nullable;

/** What every statement of one environment plans against: catalog, types, operators. */
public final class PlannerContext {
  private static final JavaTypeFactory TYPE_FACTORY = BridgeTypeFactory.INSTANCE;

  /**
   * The expression builder of every statement's cluster. It holds nothing but its type factory and
   * a few constants made from it, so one serves every statement and thread; made per statement, it
   * made those constants again each time.
   */
  private static final org.apache.calcite.rex.RexBuilder REX_BUILDER =
      new org.apache.calcite.rex.RexBuilder(TYPE_FACTORY);

  /**
   * Calcite's standard operators less those Flink's replace, then Flink's functions and the
   * dynamic-columns functions, looked up in any case: the built-in part of every environment's
   * operator table, built once per JVM. Built per statement, its index of some hundreds of
   * operators cost each validation a tenth of a millisecond.
   */
  private static final SqlOperatorTable BUILT_INS =
      SqlOperatorTables.chain(
          FlinkFunctions.standard(SqlStdOperatorTable.instance()),
          FlinkFunctions.byName(),
          FlinkFunctions.caseInsensitive(DynColOperators.table()));

  /** The built-in operator table, the same object for every environment and statement. */
  public static SqlOperatorTable builtIns() {
    return BUILT_INS;
  }

  private final Catalog catalog;
  private final Supplier<List<ExpansionStrategy>> expansionStrategy;
  private final Supplier<Program> physicalRewrites;
  private final CalciteConnectionConfig connectionConfig;
  // Read once: each read of the configuration's case sensitivity parsed its properties again.
  private final org.apache.calcite.sql.validate.SqlNameMatcher nameMatcher;
  private volatile @Nullable Program program;
  private final io.calcitebridge.functions.UserFunctionTable userFunctions =
      new io.calcitebridge.functions.UserFunctionTable();

  /**
   * A context over {@code catalog}; {@code expansionStrategy} gives the current value of {@code
   * table.column-expansion-strategy}, and {@code physicalRewrites} (asked for when the first
   * statement is optimized, so that a new environment loads no planner classes) runs on every
   * optimized plan (the stages above the planner add their own physical operators there).
   */
  public PlannerContext(
      Catalog catalog,
      Supplier<List<ExpansionStrategy>> expansionStrategy,
      Supplier<Program> physicalRewrites) {
    this.catalog = catalog;
    this.expansionStrategy = expansionStrategy;
    this.physicalRewrites = physicalRewrites;
    Properties p = new Properties();
    p.setProperty(CalciteConnectionProperty.CASE_SENSITIVE.camelName(), "true");
    p.setProperty(CalciteConnectionProperty.UNQUOTED_CASING.camelName(), "UNCHANGED");
    p.setProperty(CalciteConnectionProperty.QUOTED_CASING.camelName(), "UNCHANGED");
    p.setProperty(CalciteConnectionProperty.QUOTING.camelName(), "BACK_TICK");
    this.connectionConfig = new CalciteConnectionConfigImpl(p);
    this.nameMatcher =
        org.apache.calcite.sql.validate.SqlNameMatchers.withCaseSensitive(
            connectionConfig.caseSensitive());
  }

  public Catalog catalog() {
    return catalog;
  }

  /** The cost-based program, {@link #physicalRewrites} included; built once. */
  Program program() {
    Program p = program;
    if (p == null) {
      p = OptimizerProgram.physical(physicalRewrites.get());
      program = p;
    }
    return p;
  }

  /** The functions users added to this environment. */
  public io.calcitebridge.functions.UserFunctionTable userFunctions() {
    return userFunctions;
  }

  public JavaTypeFactory typeFactory() {
    return TYPE_FACTORY;
  }

  /** The expression builder over {@link #typeFactory}, the same object for every statement. */
  public org.apache.calcite.rex.RexBuilder rexBuilder() {
    return REX_BUILDER;
  }

  /** The parser configuration: Flink's lexical rules over our grammar. */
  public SqlParser.Config parserConfig() {
    return BridgeParser.config();
  }

  /** Parses one statement. */
  public SqlNode parseStatement(String sql) throws SqlParseException {
    if (sql.isBlank()) {
      // The generated parser fails on an empty input with an index out of bounds.
      throw new io.calcitebridge.errors.PositionedException(
          io.calcitebridge.errors.ErrorKind.PARSE,
          "The statement is empty",
          org.apache.calcite.sql.parser.SqlParserPos.ZERO);
    }
    var words = io.calcitebridge.sql.TextChecks.check(sql);
    return io.calcitebridge.sql.UnicodeLiterals.apply(
        sql,
        io.calcitebridge.sql.ParenthesizedRows.apply(
            sql,
            io.calcitebridge.sql.LongChains.balance(
                io.calcitebridge.sql.parser.impl.ReusedParser.parseStatement(sql), words)));
  }

  /** Parses statements separated by semicolons. */
  public List<SqlNode> parseStatements(String sql) throws SqlParseException {
    io.calcitebridge.sql.TextChecks.check(sql);
    List<SqlNode> out = new java.util.ArrayList<>();
    for (SqlNode n : io.calcitebridge.sql.BridgeParser.parseStatements(sql)) {
      out.add(
          io.calcitebridge.sql.UnicodeLiterals.apply(
              sql,
              io.calcitebridge.sql.ParenthesizedRows.apply(
                  sql, io.calcitebridge.sql.LongChains.balance(n))));
    }
    return out;
  }

  /** Parses one SQL expression (a computed column's, say). */
  public SqlNode parseExpression(String expression) {
    try {
      return SqlParser.create(expression, parserConfig()).parseExpression();
    } catch (SqlParseException e) {
      throw new IllegalArgumentException("Cannot parse expression '" + expression + "'", e);
    }
  }

  /** Renders a tree as SQL that our parser reads back: backticks, names as written. */
  public String unparse(SqlNode node) {
    return node.toSqlString(
            c ->
                c.withDialect(BridgeParser.dialect())
                    .withQuoteAllIdentifiers(true)
                    .withAlwaysUseParentheses(false)
                    .withSelectListItemsOnSeparateLines(false)
                    .withIndentation(0))
        .getSql();
  }

  /**
   * A fresh catalog reader over the current catalog: a name resolves from the root, which holds the
   * current database's tables ({@code t}) and the catalogs ({@code c.db.t}), then in the current
   * catalog ({@code db.t}). A table of the current database keeps its one-part name in plans.
   */
  public CalciteCatalogReader catalogReader() {
    List<String> path = catalog.currentPath();
    return reader(List.of(List.of(), path, path.subList(0, 1)));
  }

  /**
   * A catalog reader for a view's stored query: names of one part resolve in {@code schemaPath},
   * the catalog and database current when the view was made; the others were stored in full.
   */
  public CalciteCatalogReader catalogReader(List<String> schemaPath) {
    return reader(List.of(schemaPath, List.of()));
  }

  private CalciteCatalogReader reader(List<List<String>> paths) {
    return new CalciteCatalogReader(
        catalog.rootSchema(), nameMatcher, paths, TYPE_FACTORY, connectionConfig) {};
  }

  /** Parses a type as DDL writes it ({@code BIGINT}, {@code ROW<a INT>}). */
  public RelDataType parseType(String type) {
    SqlNode cast = parseExpression("CAST(NULL AS " + type + ")");
    SqlDataTypeSpec spec = (SqlDataTypeSpec) ((SqlCall) cast).operand(1);
    return io.calcitebridge.sql.BridgeTypes.toRelDataType(spec, TYPE_FACTORY);
  }

  /**
   * The operators SQL can call: the built-in ones and the user's functions. The catalog reader is
   * not in the chain: the catalog's schemas hold no functions (a user's function lives in {@code
   * userFunctions}), and asking it walked the schema path for every unquoted column name the
   * validator tried as a niladic function.
   */
  public SqlOperatorTable operatorTable() {
    return SqlOperatorTables.chain(BUILT_INS, userFunctions);
  }

  /** A fresh validator. */
  public BridgeSqlValidator validator(CalciteCatalogReader reader) {
    SqlValidator.Config config =
        SqlValidator.Config.DEFAULT
            .withIdentifierExpansion(true)
            .withConformance(SqlConformanceEnum.DEFAULT)
            .withDefaultNullCollation(NullCollation.LOW)
            .withTypeCoercionFactory(BridgeTypeCoercion::new);
    return new BridgeSqlValidator(
        operatorTable(), reader, TYPE_FACTORY, config, expansionStrategy.get());
  }
}

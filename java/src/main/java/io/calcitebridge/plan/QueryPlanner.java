package io.calcitebridge.plan;

import io.calcitebridge.flink.CheckedArithmetic;
import io.calcitebridge.flink.Constants;
import io.calcitebridge.flink.Convertlets;
import io.calcitebridge.flink.NarrowingCasts;
import io.calcitebridge.flink.NegativeZero;
import io.calcitebridge.flink.OutputNames;
import io.calcitebridge.flink.RowCasts;
import io.calcitebridge.pushdown.BridgeTableScan;
import io.calcitebridge.repair.SemiJoinRules;
import io.calcitebridge.repair.SubQueryRules;
import io.calcitebridge.rewrite.CallRewrites;
import io.calcitebridge.validate.BridgeSqlValidator;
import io.calcitebridge.validate.DiscoveryRequest;
import io.calcitebridge.validate.DiscoveryScope;
import io.calcitebridge.validate.FieldDiscovery;
import java.util.List;
import org.apache.calcite.adapter.enumerable.EnumerableCalc;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRules;
import org.apache.calcite.plan.ConventionTraitDef;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.plan.volcano.VolcanoPlanner;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.rel.RelCollationTraitDef;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.rel.rules.DateRangeRules;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.sql.SqlExplainFormat;
import org.apache.calcite.sql.SqlExplainLevel;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql2rel.SqlToRelConverter;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Plans one statement: validate with {@link BridgeSqlValidator}, convert to relational algebra,
 * optimize to Calcite's Enumerable convention. One instance per statement; not thread-safe.
 */
public final class QueryPlanner implements RelOptTable.ViewExpander {
  private static final boolean FLATTEN = Boolean.getBoolean("calcitebridge.flatten");

  private final PlannerContext context;
  private final CalciteCatalogReader reader;
  private BridgeSqlValidator validator;
  private final java.util.function.@Nullable Supplier<SqlNode> reparse;
  private final DiscoveryScope discovery = new DiscoveryScope();
  // Made when the statement is first converted to relational algebra (a validation needs
  // neither), and given its rules when a plan first goes cost-based (a plan a backend runs never
  // does): registering Calcite's default rules took a third of a warm validation.
  private @Nullable VolcanoPlanner planner;
  private @Nullable RelOptCluster cluster;
  private boolean rulesRegistered;
  private boolean discovered;

  public QueryPlanner(PlannerContext context) {
    this(context, null);
  }

  /**
   * A planner whose validation may discover columns (DESIGN §6); {@code reparse} parses the
   * statement afresh for each validation after a discovery.
   */
  public QueryPlanner(
      PlannerContext context, java.util.function.@Nullable Supplier<SqlNode> reparse) {
    this(context, reparse, List.of());
  }

  /** A planner whose names of one part resolve in {@code schemaPath} (a view's stored query). */
  private QueryPlanner(
      PlannerContext context,
      java.util.function.@Nullable Supplier<SqlNode> reparse,
      List<String> schemaPath) {
    this.context = context;
    this.reparse = reparse;
    this.reader =
        schemaPath.isEmpty() ? context.catalogReader() : context.catalogReader(schemaPath);
    this.validator = context.validator(reader);
    if (reparse != null) {
      validator.enableDiscovery();
    }
  }

  /** The cluster every node of the statement's plan belongs to. */
  private RelOptCluster cluster() {
    RelOptCluster c = cluster;
    if (c == null) {
      // The statement's flag stops the cost-based search at its next rule (a timeout, Ctrl-C).
      VolcanoPlanner p = new VolcanoPlanner(null, cancelContext());
      // Trait definitions come first: the cluster's empty trait set is made from them.
      p.addRelTraitDef(ConventionTraitDef.INSTANCE);
      p.addRelTraitDef(RelCollationTraitDef.INSTANCE);
      // Constants are folded while planning, by the engine's own code ({@link Constants}).
      p.setExecutor(Constants.EXECUTOR);
      c = RelOptCluster.create(p, context.rexBuilder());
      // Metadata queries start with Calcite's generated handlers, not stand-ins that throw.
      c.setMetadataQuerySupplier(MetadataHandlers::query);
      planner = p;
      cluster = c;
    }
    return c;
  }

  /** A planner context with the cancel flag of the statement on this thread, if any. */
  public static org.apache.calcite.plan.Context cancelContext() {
    java.util.concurrent.atomic.AtomicBoolean flag = io.calcitebridge.errors.Stop.current();
    return flag == null
        ? org.apache.calcite.plan.Contexts.empty()
        : org.apache.calcite.plan.Contexts.of(new org.apache.calcite.util.CancelFlag(flag));
  }

  /** The cluster's planner, without rules until {@link #physical} needs them. */
  private VolcanoPlanner planner() {
    cluster();
    return java.util.Objects.requireNonNull(planner);
  }

  /** The cluster's planner with the rules of the cost-based pass. */
  private VolcanoPlanner costBasedPlanner() {
    VolcanoPlanner p = planner();
    if (!rulesRegistered) {
      RelOptUtil.registerDefaultRules(p, false, false);
      // Equi-joins run as hash joins: a merge join sorts both inputs first, which the row engine
      // pays for in full (a 1 M x 100 k join took 1.66 s merged against 0.42 s hashed).
      p.removeRule(EnumerableRules.ENUMERABLE_MERGE_JOIN_RULE);
      // ORDER BY ... LIMIT runs as a top-N that keeps offset + fetch rows while it reads its
      // input, not as a sort of every row under a LIMIT (Calcite leaves this rule out of its
      // defaults).
      p.addRule(EnumerableRules.ENUMERABLE_LIMIT_SORT_RULE);
      // A join with an aggregate without GROUP BY is not a semi-join (SemiJoinRules).
      p.removeRule(CoreRules.PROJECT_TO_SEMI_JOIN);
      p.removeRule(CoreRules.JOIN_TO_SEMI_JOIN);
      p.addRule(SemiJoinRules.PROJECT_TO_SEMI_JOIN);
      p.addRule(SemiJoinRules.JOIN_TO_SEMI_JOIN);
      // The rule reads the session time zone from a planner context this planner does not have,
      // and failed on every EXTRACT in a filter; a range of dates is no better for our sources.
      p.removeRule(DateRangeRules.FILTER_INSTANCE);
      rulesRegistered = true;
    }
    return p;
  }

  public BridgeSqlValidator validator() {
    return validator;
  }

  /**
   * Validates {@code node} and returns the rewritten tree. A column no table in scope declares is
   * offered to the tables that have dynamic columns; found in one, the statement is validated again
   * with that column added to it.
   */
  public SqlNode validate(SqlNode node) {
    long started = PhaseTimes.start();
    try (DiscoveryScope.Entered ignored = discovery.enter()) {
      return validateInScope(node);
    } finally {
      PhaseTimes.end("on the worker/validate", started);
    }
  }

  private SqlNode validateInScope(SqlNode node) {
    io.calcitebridge.validate.Hints.check(node);
    SqlNode current =
        io.calcitebridge.functions.WindowFunctions.rewrite(
            io.calcitebridge.functions.LegacyHop.rewrite(
                io.calcitebridge.functions.AggregateFunctions.aggregates(node)));
    for (int attempt = 0; ; attempt++) {
      try {
        return validator.validate(current);
      } catch (DiscoveryRequest request) {
        if (reparse == null || attempt >= 64 || !fieldDiscovery().discover(request)) {
          throw request.original();
        }
        discovered = true;
        validator = context.validator(reader);
        validator.enableDiscovery();
        current =
            io.calcitebridge.functions.WindowFunctions.rewrite(
                io.calcitebridge.functions.LegacyHop.rewrite(reparse.get()));
      }
    }
  }

  /**
   * Whether a table's storage was asked for a column the statement names and found it (in a view
   * the statement reads too): the plan then depends on the storage's answer, not on the catalog
   * alone.
   */
  public boolean discoveredColumns() {
    return discovered;
  }

  private FieldDiscovery fieldDiscovery() {
    return new FieldDiscovery(discovery, context.typeFactory(), context::parseType);
  }

  /** The row type of a validated query, with unique column names ({@link OutputNames}). */
  public RelDataType rowType(SqlNode validated) {
    long started = PhaseTimes.start();
    try {
      return OutputNames.unique(validator.getValidatedNodeType(validated), context.typeFactory());
    } finally {
      PhaseTimes.end("on the worker/row type", started);
    }
  }

  private SqlToRelConverter converter() {
    return new SqlToRelConverter(
        this,
        validator,
        reader,
        cluster(),
        Convertlets.INSTANCE,
        SqlToRelConverter.config()
            .withTrimUnusedFields(true)
            .withExpand(false)
            .withHintStrategyTable(io.calcitebridge.validate.Hints.STRATEGIES)
            .withRelBuilderConfigTransform(SubQueryRules::converterConfig));
  }

  /** Converts a validated query to a logical plan whose output is exactly its columns. */
  public RelNode toLogical(SqlNode validated) {
    long started = PhaseTimes.start();
    try (DiscoveryScope.Entered ignored = discovery.enter()) {
      return toLogicalInScope(validated);
    } finally {
      PhaseTimes.end("on the worker/sql-to-rel", started);
    }
  }

  private RelNode toLogicalInScope(SqlNode validated) {
    long t = PhaseTimes.start();
    SqlToRelConverter converter = converter();
    PhaseTimes.end("on the worker/sql-to-rel/converter and cluster", t);
    t = PhaseTimes.start();
    RelRoot root = converter.convertQuery(validated, false, true);
    io.calcitebridge.flink.RecursiveQueries.refuse(root.rel, validated);
    if (FLATTEN) {
      root = root.withRel(converter.flattenTypes(root.rel, true));
    }
    PhaseTimes.end("on the worker/sql-to-rel/convertQuery", t);
    t = PhaseTimes.start();
    RelNode out =
        OutputNames.unique(
            SubQueryRules.simplifyWithoutSubQueries(NarrowingCasts.strip(root.project())));
    PhaseTimes.end("on the worker/sql-to-rel/strip, simplify, names", t);
    return out;
  }

  /**
   * Converts a validated INSERT: the target table and the logical plan of the rows to write, one
   * column for each scanned column of the target (values cast to the column types; columns the
   * INSERT leaves out are NULL).
   */
  public TableModify toLogicalInsert(SqlNode validated) {
    SqlToRelConverter converter = converter();
    RelRoot root = converter.convertQuery(validated, false, true);
    io.calcitebridge.flink.RecursiveQueries.refuse(root.rel, validated);
    TableModify modify = (TableModify) root.rel;
    RelNode source = FLATTEN ? converter.flattenTypes(modify.getInput(), true) : modify.getInput();
    return (TableModify) modify.copy(modify.getTraitSet(), List.of(source));
  }

  /** Optimizes a logical plan into an executable one. */
  public EnumerableRel optimize(RelNode logical) {
    return physical(heuristic(logical));
  }

  /**
   * Runs the heuristic passes: sub-queries removed, filters, projections and limits pushed into the
   * scans (each source is offered its filters here, once). The plan is logical but for its scans.
   */
  public RelNode heuristic(RelNode logical) {
    long started = PhaseTimes.start();
    try {
      return OptimizerProgram.HEURISTIC.run(
          planner(), logical, logical.getTraitSet(), List.of(), List.of());
    } finally {
      PhaseTimes.end("on the worker/heuristic", started);
    }
  }

  /** Makes the plan of {@link #heuristic} executable on Calcite's Enumerable engine. */
  public EnumerableRel physical(RelNode heuristic) {
    EnumerableRel selection = selectionOfScan(heuristic);
    if (selection != null) {
      return selection;
    }
    RelTraitSet traits = heuristic.getTraitSet().replace(EnumerableConvention.INSTANCE).simplify();
    SubQueryRules.refuseRemaining(heuristic);
    // Variances, standard deviations, casts of ARRAYs and MAPs and JSON_QUERY RETURNING ARRAY as
    // Flink computes them; the ROW columns of set operations' inputs cast to their types.
    RelNode flink =
        io.calcitebridge.functions.Welford.apply(
            CallRewrites.everyCall(
                CallRewrites.everyCall(
                    io.calcitebridge.flink.SetOpRowCasts.apply(heuristic),
                    io.calcitebridge.functions.JsonFunctions::queryArray),
                io.calcitebridge.functions.CollectionCasts::elementCasts));
    flink = CallRewrites.everyCall(flink, io.calcitebridge.functions.RowCases::rewrite);
    RelNode fixed = RowCasts.apply(CheckedArithmetic.apply(NegativeZero.normalise(flink)));
    // ROW(...) never NULL, as in Flink, after RowCasts has moved casts onto its fields.
    fixed = CallRewrites.everyCall(fixed, io.calcitebridge.functions.RowConstructors::rewrite);
    return (EnumerableRel)
        context.program().run(costBasedPlanner(), fixed, traits, List.of(), List.of());
  }

  /**
   * The Enumerable plan of a scan with at most a selection of its columns on top (a {@code SELECT
   * a, b FROM t WHERE ...} whose filters the source took): the selection as a Calc over the scan,
   * which is what the cost-based pass makes of it, built directly. The pass would register
   * Calcite's default rules and initialise its rule classes (a tenth of a second in a new process's
   * first such query) for a plan it has no choice about; Calcite's engine then hands over the
   * source's own stream ({@code FastPath}). Null for any other plan.
   */
  private static @Nullable EnumerableRel selectionOfScan(RelNode heuristic) {
    BridgeTableScan scan = selectedScan(heuristic);
    if (scan == null || scan == heuristic) {
      return scan;
    }
    LogicalProject project = (LogicalProject) heuristic;
    return EnumerableCalc.create(
        scan,
        RexProgram.create(
            scan.getRowType(),
            project.getProjects(),
            null,
            project.getRowType(),
            project.getCluster().getRexBuilder()));
  }

  /**
   * The scan of a heuristic plan that is a scan with at most a selection of its columns (a
   * projection of input references) on top; null for any other plan.
   */
  public static @Nullable BridgeTableScan selectedScan(RelNode heuristic) {
    RelNode rel = heuristic;
    if (rel instanceof LogicalProject project) {
      if (!project.getProjects().stream().allMatch(e -> e instanceof RexInputRef)) {
        return null;
      }
      rel = project.getInput();
    }
    return rel instanceof BridgeTableScan scan ? scan : null;
  }

  /**
   * Lets go of what planning built around the plans this planner returned: the cost-based planner's
   * rules and memo and the metadata cached for its nodes. The plans stay valid and can be compiled
   * and run; a cached plan no longer keeps every alternative its planning considered.
   */
  public void release() {
    VolcanoPlanner p = planner;
    if (p != null) {
      p.clear();
      java.util.Objects.requireNonNull(cluster).invalidateMetadataQuery();
    }
  }

  /** Renders a plan as text, JSON or DOT. */
  public static String render(RelNode rel, String format) {
    return render(rel, format, SqlExplainLevel.EXPPLAN_ATTRIBUTES);
  }

  /** Renders a plan with the attributes of {@code level} (ALL_ATTRIBUTES adds the costs). */
  public static String render(RelNode rel, String format, SqlExplainLevel level) {
    SqlExplainFormat f;
    switch (format.toLowerCase(java.util.Locale.ROOT)) {
      case "text":
        f = SqlExplainFormat.TEXT;
        break;
      case "json":
        f = SqlExplainFormat.JSON;
        break;
      case "dot":
        f = SqlExplainFormat.DOT;
        break;
      default:
        throw new IllegalArgumentException(
            "Unknown explain format '" + format + "'; expected text, json or dot");
    }
    String plan = RelOptUtil.dumpPlan("", rel, f, level).strip();
    if (f == SqlExplainFormat.DOT && rel.getInputs().isEmpty()) {
      // Calcite's DOT writer draws edges only, so a plan of one node came out as an empty
      // graph: draw the node itself, labelled as the text plan labels it.
      String label = RelOptUtil.dumpPlan("", rel, SqlExplainFormat.TEXT, level).strip();
      return "digraph {\n\"" + label.replace("\\", "\\\\").replace("\"", "\\\"") + "\"\n}";
    }
    return plan;
  }

  @Override
  public RelRoot expandView(
      RelDataType rowType, String queryString, List<String> schemaPath, List<String> viewPath) {
    java.util.function.Supplier<SqlNode> parse =
        () -> {
          try {
            return SqlParser.create(queryString, context.parserConfig()).parseQuery();
          } catch (SqlParseException e) {
            throw new IllegalStateException("View " + viewPath + " no longer parses: " + e, e);
          }
        };
    QueryPlanner inner = new QueryPlanner(context, parse, schemaPath);
    SqlNode validated = inner.validate(parse.get());
    discovered |= inner.discovered;
    SqlToRelConverter converter =
        new SqlToRelConverter(
            this,
            inner.validator,
            inner.reader,
            cluster(),
            Convertlets.INSTANCE,
            SqlToRelConverter.config()
                .withTrimUnusedFields(false)
                .withExpand(false)
                .withHintStrategyTable(io.calcitebridge.validate.Hints.STRATEGIES)
                .withRelBuilderConfigTransform(SubQueryRules::converterConfig));
    try (DiscoveryScope.Entered ignored = inner.discovery.enter()) {
      return converter.convertQuery(validated, true, false);
    }
  }
}

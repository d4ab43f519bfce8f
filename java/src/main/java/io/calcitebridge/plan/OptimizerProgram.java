package io.calcitebridge.plan;

import io.calcitebridge.enumerable.JoinRewrite;
import io.calcitebridge.enumerable.NullRowElements;
import io.calcitebridge.enumerable.RowKeys;
import io.calcitebridge.enumerable.SortRewrite;
import io.calcitebridge.enumerable.ValuesLiterals;
import io.calcitebridge.flink.CheckedArithmetic;
import io.calcitebridge.flink.FlinkConstants;
import io.calcitebridge.flink.NanRanks;
import io.calcitebridge.flink.NullCollections;
import io.calcitebridge.flink.RankDistributions;
import io.calcitebridge.flink.Timestamps;
import io.calcitebridge.pushdown.FilterPushDownRule;
import io.calcitebridge.pushdown.LimitPushDownRule;
import io.calcitebridge.pushdown.NestedProjectionRule;
import io.calcitebridge.repair.CasePredicates;
import io.calcitebridge.repair.ConstantGroupKeys;
import io.calcitebridge.repair.FilterSubQueryRule;
import io.calcitebridge.repair.MultiLevelCorrelation;
import io.calcitebridge.repair.NestedSubQueries;
import io.calcitebridge.repair.OuterJoinSubQueries;
import io.calcitebridge.repair.SubQueryRules;
import io.calcitebridge.repair.WindowSubQueries;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptLattice;
import org.apache.calcite.plan.RelOptMaterialization;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.plan.hep.HepMatchOrder;
import org.apache.calcite.plan.hep.HepProgram;
import org.apache.calcite.plan.hep.HepProgramBuilder;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.rel.metadata.DefaultRelMetadataProvider;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.rel.rules.JoinPushThroughJoinRule;
import org.apache.calcite.rel.rules.MultiJoin;
import org.apache.calcite.rel.rules.MultiJoinOptimizeBushyRule;
import org.apache.calcite.tools.Program;
import org.apache.calcite.tools.Programs;

/**
 * The optimizer's programs: the heuristic passes ({@link #HEURISTIC}), then the cost-based one and
 * the rewrites ({@link #physical}).
 */
final class OptimizerProgram {
  private OptimizerProgram() {}

  /**
   * {@code Programs.hep}, whose planner shares the context of the statement's planner, so that the
   * statement's cancel flag (its timeout, Ctrl-C) stops it too.
   */
  private static Program hep(
      List<? extends org.apache.calcite.plan.RelOptRule> rules,
      boolean noDag,
      org.apache.calcite.rel.metadata.RelMetadataProvider metadata) {
    HepProgramBuilder builder = HepProgram.builder();
    for (org.apache.calcite.plan.RelOptRule rule : rules) {
      builder.addRuleInstance(rule);
    }
    return of(builder.build(), noDag, metadata);
  }

  /**
   * {@code Programs.of(HepProgram, boolean, RelMetadataProvider)} with one change: its {@code
   * HepPlanner} gets the context of the statement's planner (Calcite's gets none), which carries
   * the statement's {@code CancelFlag}.
   */
  private static Program of(
      HepProgram program,
      boolean noDag,
      org.apache.calcite.rel.metadata.RelMetadataProvider metadata) {
    return (planner, rel, traits, materializations, lattices) -> {
      org.apache.calcite.plan.hep.HepPlanner hep =
          new org.apache.calcite.plan.hep.HepPlanner(
              program,
              planner.getContext(), // changed: Calcite passes null
              noDag,
              null,
              org.apache.calcite.plan.RelOptCostImpl.FACTORY);
      hep.registerMetadataProviders(new java.util.ArrayList<>(List.of(metadata)));
      for (RelOptMaterialization m : materializations) {
        hep.addMaterialization(m);
      }
      for (RelOptLattice l : lattices) {
        hep.addLattice(l);
      }
      hep.setRoot(rel);
      return hep.findBestExp();
    };
  }

  /**
   * {@code Programs.sequence}: the programs one after the other, each on the plan the one before it
   * made. Calcite's would initialise {@code Programs}, and so {@code CoreRules} ({@link
   * LogicalRules}), in every first statement.
   */
  static Program sequence(Program... programs) {
    List<Program> steps = List.of(programs);
    return (planner, rel, traits, materializations, lattices) -> {
      RelNode result = rel;
      for (Program step : steps) {
        result = step.run(planner, result, traits, materializations, lattices);
      }
      return result;
    };
  }

  /**
   * Moves filters down through projections, into joins and into the branches of set operations. Run
   * twice: a filter that one rule moves may only then match another (into a join, then below the
   * projection of a join key).
   */
  private static final Program MOVE_FILTERS =
      hep(
          List.of(
              FilterProjectRule.INSTANCE,
              LogicalRules.FILTER_SET_OP_TRANSPOSE,
              LogicalRules.FILTER_INTO_JOIN,
              LogicalRules.JOIN_CONDITION_PUSH,
              LogicalRules.JOIN_PUSH_EXPRESSIONS,
              LogicalRules.FILTER_MERGE),
          true,
          DefaultRelMetadataProvider.INSTANCE);

  /**
   * Removes sub-queries: {@code Programs.subQuery} with the filter rule replaced by {@link
   * FilterSubQueryRule}, which evaluates a sub-query below a comparison of booleans in all three
   * values, and the project and join rules by {@link SubQueryRules}. First, the sub-queries of
   * window functions move below the windows ({@link WindowSubQueries}).
   */
  private static final Program SUB_QUERIES =
      of(
          HepProgram.builder()
              .addRuleInstance(WindowSubQueries.INSTANCE)
              .addRuleCollection(
                  List.of(
                      FilterSubQueryRule.INSTANCE,
                      SubQueryRules.PROJECT,
                      SubQueryRules.JOIN,
                      LogicalRules.PROJECT_OVER_SUM_TO_SUM0,
                      RankDistributions.INSTANCE))
              .build(),
          true,
          DefaultRelMetadataProvider.INSTANCE);

  /**
   * Moves filters to the scans and offers them to the sources ({@link FilterPushDownRule}), so each
   * source is asked once; limits and nested projections go there too.
   */
  private static final Program PUSH_INTO_SCANS =
      hep(
          List.of(
              FilterProjectRule.INSTANCE,
              LogicalRules.FILTER_MERGE,
              FilterPushDownRule.INSTANCE,
              LimitPushDownRule.INSTANCE,
              NestedProjectionRule.INSTANCE),
          true,
          DefaultRelMetadataProvider.INSTANCE);

  /**
   * Conditions simplified once the sources have been offered theirs (as written): a comparison with
   * a NULL literal left in a filter made the planner's predicate metadata fail ("Comparison with
   * NULL in pulledUpPredicates", CALCITE-7598, fixed after 1.42). Calcite's reduction rules, with
   * predicates pushed into CASE typed ({@link CasePredicates}).
   */
  private static final Program CASE_PREDICATES =
      hep(
          List.of(CasePredicates.FILTER, CasePredicates.JOIN),
          true,
          DefaultRelMetadataProvider.INSTANCE);

  private static final Program OUTER_JOIN_SUB_QUERIES =
      timed(
          "outer-join and nested sub-queries",
          (planner, rel, traits, materializations, lattices) ->
              NestedSubQueries.lift(OuterJoinSubQueries.rewrite(rel)));
  private static final Program SUB_QUERY_REMOVAL = timed("sub-query removal", SUB_QUERIES);
  private static final Program NAN_RANKS =
      timed("NaN ranks", (planner, rel, traits, materializations, lattices) -> NanRanks.apply(rel));
  private static final Program CONSTANT_GROUP_KEYS =
      timed("constant group keys", OptimizerProgram::constantGroupKeys);
  private static final Program DECORRELATION = timed("decorrelate", OptimizerProgram::decorrelate);
  private static final Program NULL_COLLECTIONS =
      timed(
          "NULL collections",
          (planner, rel, traits, materializations, lattices) -> NullCollections.filter(rel));

  /** The passes every plan goes through, after those that depend on its constructs. */
  private static final Program ALWAYS =
      sequence(
          timed(
              "Flink constants",
              (planner, rel, traits, materializations, lattices) -> FlinkConstants.apply(rel)),
          timed("move filters 1", MOVE_FILTERS),
          timed("move filters 2", MOVE_FILTERS),
          timed("push into scans", PUSH_INTO_SCANS),
          timed("CASE predicates", CASE_PREDICATES),
          OptimizerProgram::dumpIfAsked,
          timed("trim fields", OptimizerProgram::trim));

  /**
   * Calcite's standard logical passes with one addition: after sub-queries are removed, a heuristic
   * pass moves filters down to the scans and offers them to the sources ({@link
   * FilterPushDownRule}), so each source is asked once. Its plan is still logical (scans aside):
   * the cost-based pass makes it executable, or a backend takes it as it is.
   *
   * <p>The passes for sub-queries, correlations, window functions and UNNEST run only on a plan
   * that holds one ({@link PlanConstructs}, one walk of the plan and its expressions): on any other
   * plan each walked the whole plan and changed nothing.
   */
  static final Program HEURISTIC = OptimizerProgram::heuristic;

  private static RelNode heuristic(
      RelOptPlanner planner,
      RelNode logical,
      RelTraitSet traits,
      List<RelOptMaterialization> materializations,
      List<RelOptLattice> lattices) {
    long started = PhaseTimes.start();
    PlanConstructs has = PlanConstructs.of(dump("conversion", logical));
    PhaseTimes.end("on the worker/heuristic/constructs scan", started);
    RelNode rel = logical;
    if (has.subQueries()) {
      rel = OUTER_JOIN_SUB_QUERIES.run(planner, rel, traits, materializations, lattices);
    }
    // Sub-queries removed; the sums and rank distributions of window functions rewritten.
    if (has.subQueries() || has.windows()) {
      rel = SUB_QUERY_REMOVAL.run(planner, rel, traits, materializations, lattices);
    }
    if (has.windows()) {
      rel = NAN_RANKS.run(planner, rel, traits, materializations, lattices);
    }
    dump("sub-query removal", rel);
    // A removed sub-query may leave a correlation; without any, both passes change nothing.
    if (has.subQueries() || has.correlations()) {
      rel = CONSTANT_GROUP_KEYS.run(planner, rel, traits, materializations, lattices);
      rel = DECORRELATION.run(planner, rel, traits, materializations, lattices);
    }
    if (has.uncollects()) {
      rel = NULL_COLLECTIONS.run(planner, rel, traits, materializations, lattices);
    }
    return ALWAYS.run(planner, rel, traits, materializations, lattices);
  }

  /**
   * {@code program}, its time added to the heuristic pass's phase {@code name} ({@link
   * PhaseTimes}).
   */
  private static Program timed(String name, Program program) {
    if (!PhaseTimes.ON) {
      return program;
    }
    String phase = "on the worker/heuristic/" + name;
    return (planner, rel, traits, materializations, lattices) -> {
      long started = PhaseTimes.start();
      try {
        return program.run(planner, rel, traits, materializations, lattices);
      } finally {
        PhaseTimes.end(phase, started);
      }
    };
  }

  /**
   * The cost-based pass to Calcite's Enumerable convention; on the Enumerable plan, sorts are given
   * faster code ({@link SortRewrite}), then {@code physicalRewrites} runs, then our fixes of
   * Calcite's operators ({@link #fixes}).
   */
  static Program physical(Program physicalRewrites) {
    return sequence(
        OptimizerProgram::costBased,
        Programs.calc(DefaultRelMetadataProvider.INSTANCE),
        OptimizerProgram::fastSorts,
        physicalRewrites,
        OptimizerProgram::fixes);
  }

  /** {@link ConstantGroupKeys}, before the decorrelator. */
  private static RelNode constantGroupKeys(
      RelOptPlanner planner,
      RelNode rel,
      RelTraitSet traits,
      List<RelOptMaterialization> materializations,
      List<RelOptLattice> lattices) {
    return ConstantGroupKeys.apply(
        rel, RelFactories.LOGICAL_BUILDER.create(rel.getCluster(), null));
  }

  /**
   * {@code Programs.decorrelate()}, made when a plan first has correlations: {@code Programs}'
   * initialiser initialises {@code CoreRules} ({@link LogicalRules}).
   */
  private static final class Decorrelate {
    static final Program PROGRAM = Programs.decorrelate();
  }

  /**
   * {@code Programs.decorrelate()}, except for a plan with a correlation across more than one
   * level, which Calcite's decorrelator gets wrong ({@link MultiLevelCorrelation}): it keeps its
   * correlations.
   */
  private static RelNode decorrelate(
      RelOptPlanner planner,
      RelNode rel,
      RelTraitSet traits,
      List<RelOptMaterialization> materializations,
      List<RelOptLattice> lattices) {
    if (MultiLevelCorrelation.find(rel)) {
      return rel;
    }
    return Decorrelate.PROGRAM.run(planner, rel, traits, materializations, lattices);
  }

  /**
   * {@code Programs.trim()} with {@link FieldTrimmer}, which leaves the plan as it is when it holds
   * a join whose condition keeps a correlated sub-query ({@link SubQueryRules}): the trimmer
   * rebuilds such a RIGHT or FULL join with {@code RelBuilder}, which refuses it.
   */
  private static RelNode trim(
      RelOptPlanner planner,
      RelNode rel,
      RelTraitSet traits,
      List<RelOptMaterialization> materializations,
      List<RelOptLattice> lattices) {
    try {
      return FieldTrimmer.trim(planner, rel, traits, materializations, lattices);
    } catch (IllegalArgumentException e) {
      if (e.getMessage() == null || !e.getMessage().startsWith("Correlated ")) {
        throw e;
      }
      return rel;
    }
  }

  /** With {@code -Dcalcitebridge.dump-plans=true}, prints the plan after the heuristic pass. */
  private static RelNode dumpIfAsked(
      RelOptPlanner planner,
      RelNode rel,
      RelTraitSet traits,
      List<RelOptMaterialization> materializations,
      List<RelOptLattice> lattices) {
    return dump("heuristic pass", rel);
  }

  private static final boolean DUMP_PLANS = Boolean.getBoolean("calcitebridge.dump-plans");

  private static RelNode dump(String after, RelNode rel) {
    if (DUMP_PLANS) {
      System.err.println("-- after the " + after + ":\n" + RelOptUtil.toString(rel));
    }
    return rel;
  }

  /**
   * Sorts that compare their keys without Calcite's per-comparison conversions ({@link
   * SortRewrite}).
   */
  /**
   * ROW keys of hash tables compared by value ({@link RowKeys}), joins whose generated code has
   * {@link JoinRewrite}'s fixes, TIMESTAMPs finer than milliseconds held in their own units ({@link
   * Timestamps}), values whose literals have their columns' types ({@link ValuesLiterals}), and
   * integer sums that fail on overflow ({@link CheckedArithmetic#checkedSums}), and the NULL
   * elements of an unnested ARRAY of ROWs read as rows of NULLs ({@link NullRowElements}).
   */
  private static RelNode fixes(
      RelOptPlanner planner,
      RelNode rel,
      RelTraitSet traits,
      List<RelOptMaterialization> materializations,
      List<RelOptLattice> lattices) {
    return intLimits(
        CheckedArithmetic.checkedSums(
            ValuesLiterals.apply(
                Timestamps.apply(JoinRewrite.apply(RowKeys.apply(NullRowElements.apply(rel)))))));
  }

  /**
   * {@code rel} with each OFFSET and LIMIT past the largest INT made the largest INT: Calcite's
   * engine counts rows in an INT and could not implement {@code LIMIT 9223372036854775807}
   * ("Integer overflow"). It gives the same rows, as no result of Calcite's engine reaches 2^31
   * rows.
   */
  private static RelNode intLimits(RelNode rel) {
    return rel.accept(
        new org.apache.calcite.rel.RelHomogeneousShuttle() {
          @Override
          public RelNode visit(RelNode other) {
            RelNode visited = super.visit(other);
            if (visited instanceof org.apache.calcite.adapter.enumerable.EnumerableLimit limit
                && (tooBig(limit.offset) || tooBig(limit.fetch))) {
              return org.apache.calcite.adapter.enumerable.EnumerableLimit.create(
                  limit.getInput(), clamp(limit, limit.offset), clamp(limit, limit.fetch));
            }
            if (visited instanceof org.apache.calcite.rel.core.Sort sort
                && (tooBig(sort.offset) || tooBig(sort.fetch))) {
              return sort.copy(
                  sort.getTraitSet(),
                  sort.getInput(),
                  sort.getCollation(),
                  clamp(sort, sort.offset),
                  clamp(sort, sort.fetch));
            }
            return visited;
          }
        });
  }

  private static boolean tooBig(org.apache.calcite.rex.RexNode n) {
    if (!(n instanceof org.apache.calcite.rex.RexLiteral literal)) {
      return false;
    }
    java.math.BigDecimal value = literal.getValueAs(java.math.BigDecimal.class);
    return value != null && value.compareTo(java.math.BigDecimal.valueOf(Integer.MAX_VALUE)) > 0;
  }

  private static org.apache.calcite.rex.RexNode clamp(
      RelNode rel, org.apache.calcite.rex.RexNode n) {
    return tooBig(n)
        ? rel.getCluster()
            .getRexBuilder()
            .makeExactLiteral(java.math.BigDecimal.valueOf(Integer.MAX_VALUE))
        : n;
  }

  private static RelNode fastSorts(
      RelOptPlanner planner,
      RelNode rel,
      RelTraitSet traits,
      List<RelOptMaterialization> materializations,
      List<RelOptLattice> lattices) {
    return SortRewrite.apply(rel);
  }

  /**
   * From this many joins on, the join order is chosen by a heuristic, not by exhaustive search: the
   * cost-based pass would otherwise try every order (a 20-table join did not plan in 30 s).
   * Calcite's {@code Programs.heuristicJoinOrder} uses the same threshold; Flink and Hive do the
   * same.
   */
  static final int HEURISTIC_JOIN_ORDER_FROM = 6;

  /**
   * From this many joins on, the joins are ordered by {@code MultiJoinOptimizeBushyRule}, which
   * builds one bushy tree greedily, instead of {@code LoptOptimizeJoinRule}, which builds one
   * left-deep order for each table as the first and keeps the cheapest: with 45 to 64 tables (the
   * joins of sqllogictest's select5) that search took 20 to 25 s of the 21 to 26 s a query took to
   * plan, the rest being validation, conversion and code generation.
   */
  static final int BUSHY_JOIN_ORDER_FROM = 16;

  /**
   * What only the cost-based pass uses, made when a plan first goes to Calcite's engine: these
   * rules come from {@code CoreRules}, which a statement run by DuckDB or Spark never initialises
   * ({@link LogicalRules}).
   */
  private static final class JoinOrder {
    private JoinOrder() {}

    /**
     * Gathers the joins into one {@code MultiJoin}, then lets {@code LoptOptimizeJoinRule} order
     * them greedily by estimated size, joining tables that share a condition first.
     */
    static final HepProgram JOIN_ORDER =
        new HepProgramBuilder()
            .addMatchOrder(HepMatchOrder.BOTTOM_UP)
            .addRuleInstance(CoreRules.JOIN_TO_MULTI_JOIN)
            .addRuleInstance(CoreRules.MULTI_JOIN_OPTIMIZE)
            .build();

    static final Program ORDER_JOINS = of(JOIN_ORDER, false, DefaultRelMetadataProvider.INSTANCE);

    /**
     * {@code MultiJoinOptimizeBushyRule} for a {@code MultiJoin} of inner joins only. The rule
     * refuses one with LEFT or RIGHT joins, but not one that is a FULL join (Calcite 1.42): it
     * built a plan of another type ("Cannot add expression of different type to set").
     */
    static final RelOptRule BUSHY =
        MultiJoinOptimizeBushyRule.Config.DEFAULT
            .withOperandSupplier(
                b -> b.operand(MultiJoin.class).predicate(JoinOrder::innerOnly).anyInputs())
            .as(MultiJoinOptimizeBushyRule.Config.class)
            .toRule();

    private static boolean innerOnly(MultiJoin join) {
      return !join.isFullOuterJoin()
          && join.getJoinTypes().stream().allMatch(t -> t == JoinRelType.INNER);
    }

    /**
     * The joins gathered into one {@code MultiJoin} and ordered by {@code
     * MultiJoinOptimizeBushyRule}; a {@code MultiJoin} that rule refuses (one with outer joins) is
     * ordered by {@code LoptOptimizeJoinRule}.
     */
    static final HepProgram BUSHY_JOIN_ORDER =
        new HepProgramBuilder()
            .addMatchOrder(HepMatchOrder.BOTTOM_UP)
            .addRuleInstance(CoreRules.JOIN_TO_MULTI_JOIN)
            .addRuleInstance(BUSHY)
            .addRuleInstance(CoreRules.MULTI_JOIN_OPTIMIZE)
            .build();

    static final Program ORDER_JOINS_BUSHY =
        of(BUSHY_JOIN_ORDER, false, DefaultRelMetadataProvider.INSTANCE);

    static final List<RelOptRule> EXHAUSTIVE_JOIN_RULES =
        List.of(
            CoreRules.JOIN_COMMUTE,
            CoreRules.JOIN_ASSOCIATE,
            JoinPushThroughJoinRule.LEFT,
            JoinPushThroughJoinRule.RIGHT);
  }

  private static RelNode costBased(
      RelOptPlanner planner,
      RelNode rel,
      RelTraitSet traits,
      List<RelOptMaterialization> materializations,
      List<RelOptLattice> lattices) {
    int joins = RelOptUtil.countJoins(rel);
    if (joins < HEURISTIC_JOIN_ORDER_FROM) {
      return findBest(planner, rel, traits);
    }
    RelNode ordered =
        (joins < BUSHY_JOIN_ORDER_FROM ? JoinOrder.ORDER_JOINS : JoinOrder.ORDER_JOINS_BUSHY)
            .run(planner, rel, traits, materializations, lattices);
    // The joins are ordered: keep the cost-based pass from searching other orders, for this
    // statement only.
    List<RelOptRule> removed = new ArrayList<>();
    for (RelOptRule rule : JoinOrder.EXHAUSTIVE_JOIN_RULES) {
      if (planner.removeRule(rule)) {
        removed.add(rule);
      }
    }
    try {
      return findBest(planner, ordered, traits);
    } finally {
      removed.forEach(planner::addRule);
    }
  }

  private static RelNode findBest(RelOptPlanner planner, RelNode rel, RelTraitSet traits) {
    planner.setRoot(rel);
    // Registering the same rel twice trips Volcano's "already been registered" assertion under
    // -ea (a scan that absorbed the whole query already has the wanted traits).
    if (!rel.getTraitSet().equals(traits)) {
      planner.setRoot(planner.changeTraits(rel, traits));
    }
    return planner.chooseDelegate().findBestExp();
  }
}

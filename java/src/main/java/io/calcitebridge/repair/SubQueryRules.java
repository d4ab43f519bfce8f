package io.calcitebridge.repair;

import java.util.List;
import java.util.Set;
import org.apache.calcite.plan.Contexts;
import org.apache.calcite.plan.RelOptPredicateList;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelOptUtil.Logic;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.rules.SubQueryRemoveRule;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexExecutor;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSimplify;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.rex.RexUnknownAs;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.tools.RelBuilderFactory;
import org.apache.calcite.util.Util;

/**
 * Calcite's sub-query removal for projects and joins ({@code
 * CoreRules.PROJECT_SUB_QUERY_TO_CORRELATE}, {@code JOIN_SUB_QUERY_TO_CORRELATE}), each sub-query
 * rewritten as {@link #rewrite} says.
 *
 * <p>Defects: no JIRA; the cases of {@code tests/fixtures/correctness.sql} that reproduce them tell
 * when each part can go: {@code fz_in_literal_null_row_*} ({@link #builderConfig}, {@link
 * #rewrite}), {@code fz_null_not_in_correlated_*} ({@link #nullInCorrelated}), {@code
 * fz_*_over_full_join_on_left_is_null} ({@link #converterConfig}), {@code
 * fz_case_over_not_distinct_of_case_true*} ({@link #simplifyWithoutSubQueries}).
 */
public final class SubQueryRules {
  private SubQueryRules() {}

  /**
   * The builder of plans that may still hold sub-queries: it does not simplify expressions.
   *
   * <p>{@code RelOptPredicateList.isEffectivelyNotNull} (Calcite 1.42, unchanged upstream) takes an
   * {@code IN} sub-query for a comparison of its left-hand operands alone, so {@code RexSimplify}
   * held {@code DATE '2024-02-01' IN (SELECT d FROM t)} NOT NULL even when {@code d} has NULLs:
   * {@code CASE WHEN CASE WHEN x IN (...) THEN c ELSE TRUE END THEN 1 ELSE 0 END} became {@code
   * CASE WHEN (x IN (...) AND c) OR NOT (x IN (...)) THEN 1 ELSE 0 END}, which gives 0 where the IN
   * is UNKNOWN. Expressions are simplified once the sub-queries are gone.
   */
  static RelBuilder.Config builderConfig(RelBuilder.Config config) {
    return config.withPushJoinCondition(true).withSimplify(false);
  }

  /**
   * The builder of {@code SqlToRelConverter}: {@link #builderConfig}, except that the expressions
   * of a join condition stay in the join. {@code SqlToRelConverter} (1.42) resolves the columns of
   * a select list that holds a correlated sub-query against the join's inputs as if a column pushed
   * into the left input ({@code ON t1.x IS NULL} becomes a column {@code $f5} of {@code t1}) were
   * one of the join's: {@code SELECT c, EXISTS (SELECT ... t1.y ...) FROM t1 JOIN t0 ON t1.x IS
   * NULL} read the column after {@code c}. The expressions are pushed into the inputs later, once
   * the plan is decorrelated ({@code CoreRules.JOIN_PUSH_EXPRESSIONS} in {@code OptimizerProgram}).
   */
  public static RelBuilder.Config converterConfig(RelBuilder.Config config) {
    return builderConfig(config).withPushJoinCondition(false);
  }

  /**
   * {@code rel} with the expressions of its filters and projections simplified, as the builder
   * would have, when no sub-query is left in it (the builder's simplification is off for every plan
   * while it is built, see {@link #builderConfig}). Without it, constant expressions such as {@code
   * CAST(2):DOUBLE} stayed in plans, and {@code CASE WHEN TRUE THEN d ELSE d END} inside a boolean
   * CASE met a bug of {@code RexSimplify.simplifyCase} (Calcite 1.42): a branch value simplified
   * under UNKNOWN-as-FALSE ({@code IS TRUE(d = x)} to {@code d = x}) is cast back to the CASE's
   * {@code BOOLEAN NOT NULL}, which declares {@code d} NOT NULL to the rest of the simplification.
   */
  public static RelNode simplifyWithoutSubQueries(RelNode rel) {
    if (hasSubQuery(rel, new java.util.HashSet<>())) {
      return rel;
    }
    // One simplifier for the plan: its nodes share one cluster, so one builder and one executor.
    RexBuilder rex = rel.getCluster().getRexBuilder();
    RexExecutor executor =
        Util.first(rel.getCluster().getPlanner().getExecutor(), RexUtil.EXECUTOR);
    RexSimplify simplify = new RexSimplify(rex, RelOptPredicateList.EMPTY, executor);
    return rel.accept(
        new RelHomogeneousShuttle() {
          @Override
          public RelNode visit(RelNode other) {
            RelNode visited = super.visit(other);
            if (visited instanceof LogicalFilter filter) {
              RexNode condition =
                  simplify.simplifyUnknownAs(filter.getCondition(), RexUnknownAs.FALSE);
              return condition.equals(filter.getCondition())
                  ? filter
                  : filter.copy(filter.getTraitSet(), filter.getInput(), condition);
            }
            if (visited instanceof LogicalProject project) {
              List<RexNode> exprs =
                  project.getProjects().stream()
                      .map(e -> simplify.simplifyPreservingType(e, RexUnknownAs.UNKNOWN, true))
                      .toList();
              return exprs.equals(project.getProjects())
                  ? project
                  : project.copy(
                      project.getTraitSet(), project.getInput(), exprs, project.getRowType());
            }
            return visited;
          }
        });
  }

  private static boolean hasSubQuery(RelNode rel, java.util.Set<RelNode> seen) {
    if (!seen.add(rel)) {
      return false;
    }
    boolean[] found = {false};
    rel.accept(
        new RexShuttle() {
          @Override
          public RexNode visitSubQuery(RexSubQuery subQuery) {
            found[0] = true;
            return subQuery;
          }
        });
    if (found[0]) {
      return true;
    }
    for (RelNode input : rel.getInputs()) {
      if (hasSubQuery(input, seen)) {
        return true;
      }
    }
    return false;
  }

  private static final RelBuilderFactory UNSIMPLIFIED =
      RelBuilder.proto(Contexts.of(builderConfig(RelBuilder.Config.DEFAULT)));

  public static final SubQueryRemoveRule PROJECT =
      new Rule(
          SubQueryRemoveRule.Config.PROJECT
              .withMatchHandler(SubQueryRules::matchProject)
              .withRelBuilderFactory(UNSIMPLIFIED)
              .withDescription("SubQueryRemoveRule:Project3VL")
              .as(SubQueryRemoveRule.Config.class));

  public static final SubQueryRemoveRule JOIN =
      new Rule(
          SubQueryRemoveRule.Config.JOIN
              .withMatchHandler(SubQueryRules::matchJoin)
              .withRelBuilderFactory(UNSIMPLIFIED)
              .withDescription("SubQueryRemoveRule:Join3VL")
              .as(SubQueryRemoveRule.Config.class));

  /**
   * Calcite's handler for projects ({@code matchProject}), with the logic the sub-query is
   * evaluated in corrected by {@link #corrections}. Calcite's {@code LogicVisitor} (Calcite 1.42,
   * unchanged upstream) passes the logic of {@code IS FALSE} ("UNKNOWN counts as TRUE") through any
   * operator below it, a comparison of booleans included: in {@code ((c NOT IN (SELECT b FROM t0
   * WHERE e)) < FALSE) IS FALSE} the IN was rewritten without its test for an empty sub-query, so a
   * NULL {@code c} gave UNKNOWN for the NOT IN (TRUE over no rows), and the select list FALSE where
   * the answer is TRUE.
   */
  private static void matchProject(SubQueryRemoveRule rule, RelOptRuleCall call) {
    final Project project = call.rel(0);
    final RelBuilder builder = call.builder();
    final RexSubQuery e =
        java.util.Objects.requireNonNull(RexUtil.SubQueryFinder.find(project.getProjects()));
    final Logic calcite =
        org.apache.calcite.rex.LogicVisitor.find(
            Logic.TRUE_FALSE_UNKNOWN, project.getProjects(), e);
    final Logic logic =
        corrections(project.getProjects(), e, List.of(Logic.TRUE_FALSE_UNKNOWN))
            .getOrDefault(calcite, calcite);
    builder.push(project.getInput());
    final int fieldCount = builder.peek().getRowType().getFieldCount();
    final Set<CorrelationId> variablesSet = RelOptUtil.getVariablesUsed(e.rel);
    if (!project.getVariablesSet().isEmpty()) {
      variablesSet.retainAll(project.getVariablesSet());
    }
    final RexNode target = ((Rule) rule).apply(e, variablesSet, logic, builder, 1, fieldCount, 0);
    final List<RexNode> projects =
        new RexShuttle() {
          @Override
          public RexNode visitSubQuery(RexSubQuery subQuery) {
            return subQuery.equals(e) ? target : subQuery;
          }
        }.apply(project.getProjects());
    builder.project(projects, project.getRowType().getFieldNames());
    call.transformTo(builder.build());
  }

  /**
   * Calcite's handler for joins, except that a sub-query it cannot remove stays in the join
   * condition: {@code RelBuilder} refuses a correlated sub-query beside a RIGHT or FULL join
   * ("Correlated RIGHT join is not supported"). Such a join, like one whose sub-query reads both
   * inputs of an outer join (which Calcite leaves as it is), then goes to a backend that runs
   * sub-queries as they are, or is refused ({@link #refuseRemaining}).
   */
  private static void matchJoin(SubQueryRemoveRule rule, RelOptRuleCall call) {
    final Join join = call.rel(0);
    final RexSubQuery e = RexUtil.SubQueryFinder.find(join.getCondition());
    // The logic of the sub-query the handler removes (the first one), found as for a filter:
    // Calcite's LogicVisitor passes IS FALSE's logic through a comparison, as in a select list
    // (see matchProject).
    // Calcite's handler starts from TRUE or, below an outer join's null-generating side, from
    // all three values: the corrections for both.
    JOIN_LOGIC.set(
        e == null
            ? null
            : corrections(
                List.of(join.getCondition()), e, List.of(Logic.TRUE, Logic.TRUE_FALSE_UNKNOWN)));
    try {
      SubQueryRemoveRule.Config.JOIN.matchHandler().accept(rule, call);
    } catch (IllegalArgumentException ex) {
      if (ex.getMessage() == null || !ex.getMessage().startsWith("Correlated ")) {
        throw ex;
      }
    } finally {
      JOIN_LOGIC.remove();
    }
  }

  /** The corrections {@link #matchJoin} found for the sub-query Calcite's handler removes. */
  private static final ThreadLocal<java.util.Map<Logic, Logic>> JOIN_LOGIC = new ThreadLocal<>();

  /**
   * For each logic Calcite's {@code LogicVisitor} finds for {@code e} within {@code nodes} from one
   * of {@code starts}, the logic to use instead: all three values where {@link SubQueryLogic#logic}
   * finds that they count (below an operator other than AND, OR, NOT and IS) and {@code
   * LogicVisitor} does not. Other logics are Calcite's.
   */
  private static java.util.Map<Logic, Logic> corrections(
      List<RexNode> nodes, RexNode e, List<Logic> starts) {
    java.util.Map<Logic, Logic> out = new java.util.EnumMap<>(Logic.class);
    for (Logic start : starts) {
      Logic calcite = org.apache.calcite.rex.LogicVisitor.find(start, nodes, e);
      Logic ours = SubQueryLogic.logic(nodes, e, start);
      if (ours == Logic.TRUE_FALSE_UNKNOWN && calcite != ours) {
        out.put(calcite, ours);
      }
    }
    return out;
  }

  /**
   * Throws if sub-query removal left a sub-query in {@code rel} (only in the condition of an outer
   * join, see {@link #matchJoin}): Calcite's engine cannot run it ("Unable to implement").
   */
  public static void refuseRemaining(RelNode rel) {
    if (rel instanceof Join join && RexUtil.SubQueryFinder.find(join.getCondition()) != null) {
      throw new UnsupportedOperationException(
          "A sub-query in the condition of a "
              + join.getJoinType()
              + " join that reads columns of its inputs is not supported: the"
              + " enumerable backend cannot run it");
    }
    for (RelNode input : rel.getInputs()) {
      refuseRemaining(input);
    }
  }

  /**
   * The logic to rewrite {@code e} in, for a caller that needs {@code logic}.
   *
   * <p>Calcite's {@code rewriteIn} (1.42, unchanged upstream) reads an {@code IN} whose left-hand
   * side is all literals ({@code DATE '2024-02-01' IN (SELECT d FROM t)}) from a derived table that
   * keeps the sub-query's NULL rows, and maps "only a NULL row matched" to UNKNOWN for the
   * three-valued logics and to TRUE for every other logic: in {@code UNKNOWN_AS_FALSE} (under
   * {@code IS TRUE}, or a CASE condition that the simplifier turned into one) an IN that is UNKNOWN
   * became TRUE. {@code TRUE_FALSE} gives the same answer for every other IN, and reads only the
   * matching rows, so an UNKNOWN is FALSE.
   */
  static Logic rewrite(RexSubQuery e, Logic logic) {
    if (e.getKind() == SqlKind.IN
        && logic == Logic.UNKNOWN_AS_FALSE
        && RexUtil.allLiterals(e.getOperands())) {
      return Logic.TRUE_FALSE;
    }
    return logic;
  }

  /**
   * Whether {@code e} is {@code NULL IN (q)}, q correlated, in a logic that tells FALSE from
   * UNKNOWN.
   */
  static boolean nullInCorrelated(RexSubQuery e, Set<CorrelationId> variablesSet, Logic logic) {
    return e.getKind() == SqlKind.IN
        && e.getOperands().size() == 1
        && RexUtil.isNullLiteral(e.getOperands().get(0), true)
        && !variablesSet.isEmpty()
        && (logic == Logic.TRUE_FALSE_UNKNOWN || logic == Logic.UNKNOWN_AS_TRUE);
  }

  /**
   * Calcite's rule with {@link #rewrite}'s logic, and {@code NULL IN (q)} over a correlated {@code
   * q} as {@code CASE WHEN EXISTS (q) THEN UNKNOWN ELSE FALSE END} ({@link #nullInCorrelated}).
   */
  static class Rule extends SubQueryRemoveRule {
    Rule(Config config) {
      super(config);
    }

    @Override
    protected RexNode apply(
        RexSubQuery e,
        Set<CorrelationId> variablesSet,
        Logic logic,
        RelBuilder builder,
        int inputCount,
        int offset,
        int subQueryIndex) {
      final java.util.Map<Logic, Logic> corrections = JOIN_LOGIC.get();
      if (corrections != null) {
        logic = corrections.getOrDefault(logic, logic);
      }
      if (nullInCorrelated(e, variablesSet, logic)) {
        // NULL IN (q) is FALSE over no rows and UNKNOWN otherwise. Calcite's rewriteIn (1.42,
        // unchanged upstream) tests for no rows only when q is not correlated, and gave UNKNOWN.
        RexNode exists =
            super.apply(
                RexSubQuery.exists(e.rel),
                variablesSet,
                Logic.TRUE_FALSE,
                builder,
                inputCount,
                offset,
                subQueryIndex);
        return builder.call(
            SqlStdOperatorTable.CASE,
            exists,
            builder.getRexBuilder().makeNullLiteral(e.getType()),
            builder.literal(false));
      }
      return super.apply(
          e, variablesSet, rewrite(e, logic), builder, inputCount, offset, subQueryIndex);
    }
  }
}

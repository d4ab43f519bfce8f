package io.calcitebridge.pushdown;

import io.calcitebridge.catalog.FilterableStorage;
import io.calcitebridge.catalog.TableStorage;
import io.calcitebridge.errors.SourceException;
import io.calcitebridge.expr.Call;
import io.calcitebridge.expr.Expression;
import io.calcitebridge.flink.Constants;
import io.calcitebridge.rewrite.RuleConfig;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Offers the conjuncts of a filter over a {@link BridgeTableScan} to the table's source (DESIGN
 * §7): the condition in conjunctive normal form, one {@link Expression} a conjunct, nested ones
 * only to sources that support nested filters. Accepted conjuncts leave the plan; remaining and
 * untranslatable ones stay in a filter above the scan. Runs in a heuristic pass, once a scan.
 */
public final class FilterPushDownRule extends RelRule<RuleConfig<FilterPushDownRule>> {
  /** The rule's configuration: its operands and description. */
  public static final RuleConfig<FilterPushDownRule> CONFIG =
      RuleConfig.of(
          "FilterPushDown",
          b0 ->
              b0.operand(LogicalFilter.class)
                  .oneInput(b1 -> b1.operand(BridgeTableScan.class).noInputs()),
          FilterPushDownRule::new);

  public static final FilterPushDownRule INSTANCE = CONFIG.toRule();

  /** The most clauses the conjunctive normal form of a pushed condition may have. */
  static final long MAX_CNF_CLAUSES = 256;

  /**
   * The number of clauses of the conjunctive normal form {@link RexUtil#toCnf} makes of {@code rex}
   * (of {@code NOT rex} when {@code negated}), saturating just past {@link #MAX_CNF_CLAUSES}.
   */
  static long cnfClauses(RexNode rex, boolean negated) {
    SqlKind kind = rex.getKind();
    if (kind == SqlKind.NOT) {
      return cnfClauses(((RexCall) rex).getOperands().get(0), !negated);
    }
    if (kind != SqlKind.AND && kind != SqlKind.OR) {
      return 1;
    }
    boolean sum = (kind == SqlKind.AND) != negated; // AND, or NOT (OR): clauses add up
    long n = sum ? 0 : 1;
    for (RexNode operand : ((RexCall) rex).getOperands()) {
      long k = cnfClauses(operand, negated);
      n = Math.min(sum ? n + k : n * k, MAX_CNF_CLAUSES + 1);
    }
    return n;
  }

  private FilterPushDownRule(RuleConfig<FilterPushDownRule> config) {
    super(config);
  }

  @Override
  public boolean matches(RelOptRuleCall call) {
    BridgeTableScan scan = call.rel(1);
    TableStorage storage = scan.bridgeTable().storage();
    return scan.filters().isEmpty()
        && storage instanceof FilterableStorage filterable
        && filterable.supportsFilterPushDown();
  }

  @Override
  public void onMatch(RelOptRuleCall call) {
    LogicalFilter filter = call.rel(0);
    BridgeTableScan scan = call.rel(1);
    FilterableStorage storage = (FilterableStorage) scan.bridgeTable().storage();
    RexBuilder rexBuilder = filter.getCluster().getRexBuilder();
    // The simplifier folds ranges and NOT IN lists into SEARCH; expand them first so that each
    // bound reaches the source as its own conjunct.
    // Constant calls are computed first, so that `ts > TIMESTAMP '...' - INTERVAL '1' DAY` is
    // offered with a literal.
    RexNode expanded =
        RexUtil.expandSearch(rexBuilder, null, Constants.fold(rexBuilder, filter.getCondition()));
    // CNF can grow exponentially: an OR of 60 `(x = k AND y > k - 1)` terms did not plan in a
    // minute. Calcite's node limit of toCnf does not count the clauses an OR multiplies out, so
    // the clauses are counted first; past MAX_CNF_CLAUSES the condition's own conjuncts are
    // offered.
    RexNode cnf =
        cnfClauses(expanded, false) > MAX_CNF_CLAUSES
            ? expanded
            : RexUtil.toCnf(rexBuilder, expanded);
    List<RexNode> conjuncts = RelOptUtil.conjunctions(cnf);
    RexToExpression translator = new RexToExpression(scan.getRowType(), rexBuilder);

    List<Expression> offered = new ArrayList<>();
    List<Integer> offeredConjunct = new ArrayList<>();
    for (int i = 0; i < conjuncts.size(); i++) {
      Expression e = translator.translate(conjuncts.get(i));
      // The source is asked (a call into Python) only about a filter on a nested field.
      if (e != null && (!Call.hasNested(e) || storage.supportsNestedFilters())) {
        offered.add(e);
        offeredConjunct.add(i);
      }
    }
    if (offered.isEmpty()) {
      return;
    }
    FilterableStorage.Decision decision = storage.applyFilters(offered);
    Set<Integer> keepAbove = new HashSet<>();
    for (int i = 0; i < conjuncts.size(); i++) {
      keepAbove.add(i);
    }
    List<Expression> accepted = new ArrayList<>();
    List<RexNode> acceptedConjuncts = new ArrayList<>();
    List<Integer> positions = new ArrayList<>();
    for (int i : decision.accepted()) {
      check(i, offered, scan);
      accepted.add(offered.get(i));
      keepAbove.remove(offeredConjunct.get(i));
      acceptedConjuncts.add(conjuncts.get(offeredConjunct.get(i)));
      positions.add(offeredConjunct.get(i));
    }
    for (int i : decision.remaining()) {
      check(i, offered, scan);
      keepAbove.add(offeredConjunct.get(i));
    }
    if (accepted.isEmpty()) {
      return;
    }
    RelNode newScan = scan.withFilters(accepted, pushed(scan, acceptedConjuncts, positions));
    List<RexNode> remaining = new ArrayList<>();
    for (int i = 0; i < conjuncts.size(); i++) {
      if (keepAbove.contains(i)) {
        remaining.add(conjuncts.get(i));
      }
    }
    RelNode result =
        remaining.isEmpty()
            ? newScan
            : filter.copy(
                filter.getTraitSet(), newScan, RexUtil.composeConjunction(rexBuilder, remaining));
    call.transformTo(result);
  }

  /**
   * The accepted conjuncts over the table's scanned columns, for EXPLAIN ({@link
   * BridgeTableScan.Pushed}); null for a scan of fields inside ROW columns.
   */
  private static BridgeTableScan.@Nullable Pushed pushed(
      BridgeTableScan scan, List<RexNode> conjuncts, List<Integer> positions) {
    if (scan.nested() != null) {
      return null;
    }
    RexShuttle toTable = scan.toTableColumns();
    List<RexNode> mapped = new ArrayList<>();
    for (RexNode c : conjuncts) {
      mapped.add(c.accept(toTable));
    }
    return new BridgeTableScan.Pushed(mapped, positions);
  }

  private static void check(int i, List<Expression> offered, BridgeTableScan scan) {
    if (i < 0 || i >= offered.size()) {
      throw new SourceException(
          "Source of table "
              + scan.getTable().getQualifiedName()
              + " answered filter #"
              + i
              + ", which was never offered",
          true,
          "");
    }
  }
}

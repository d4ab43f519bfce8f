package io.calcitebridge.statement;

import io.calcitebridge.catalog.CatalogTable;
import io.calcitebridge.catalog.FilterableStorage;
import io.calcitebridge.expr.Call;
import io.calcitebridge.expr.Expression;
import io.calcitebridge.flink.Constants;
import io.calcitebridge.pushdown.BridgeTableScan;
import io.calcitebridge.pushdown.RexToExpression;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Calc;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The filters of a plan with dynamic parameters that a source could apply once the values are
 * known: the conjuncts with a parameter of a filter right above a scan whose source takes filters.
 * Planning cannot offer them (the value is not there yet), so each execution binds the values and
 * offers them then ({@link #bind}): the source applies what it accepts (Parquet row groups skipped,
 * partitions pruned, an Arrow table filtered) and the plan's own filter, which stays, checks the
 * rest. A table scanned more than once in a plan gets none: which scan a filter belongs to would be
 * ambiguous, and the plan's filter alone is still right.
 */
final class ParamFilters {
  /** The name under which an execution's context holds the filters bound for each table. */
  static final String CONTEXT_KEY = BridgeTableScan.BOUND_FILTERS;

  /** A scan's conjuncts with parameters, over the scan's row type. */
  private record Offer(BridgeTableScan scan, List<RexNode> conjuncts) {}

  private final Map<CatalogTable, Offer> offers;

  private ParamFilters(Map<CatalogTable, Offer> offers) {
    this.offers = offers;
  }

  /** The offers of {@code plan}, or null when it has none. */
  static @Nullable ParamFilters of(RelNode plan) {
    Map<CatalogTable, Offer> found = new IdentityHashMap<>();
    Map<CatalogTable, Integer> scans = new IdentityHashMap<>();
    collect(plan, found, scans);
    scans.forEach(
        (table, n) -> {
          if (n > 1) {
            found.remove(table);
          }
        });
    return found.isEmpty() ? null : new ParamFilters(found);
  }

  private static void collect(
      RelNode rel, Map<CatalogTable, Offer> found, Map<CatalogTable, Integer> scans) {
    if (rel instanceof BridgeTableScan scan) {
      scans.merge(scan.bridgeTable(), 1, Integer::sum);
    }
    RexNode condition = null;
    if (rel instanceof Filter filter) {
      condition = filter.getCondition();
    } else if (rel instanceof Calc calc && calc.getProgram().getCondition() != null) {
      condition =
          calc.getProgram()
              .expandLocalRef(java.util.Objects.requireNonNull(calc.getProgram().getCondition()));
    }
    if (condition != null
        && rel.getInput(0) instanceof BridgeTableScan scan
        && scan.bridgeTable().storage() instanceof FilterableStorage storage
        && storage.supportsFilterPushDown()) {
      List<RexNode> withParams = new ArrayList<>();
      for (RexNode c : RelOptUtil.conjunctions(condition)) {
        if (hasParameter(c)) {
          withParams.add(c);
        }
      }
      if (!withParams.isEmpty()) {
        found.put(scan.bridgeTable(), new Offer(scan, withParams));
      }
    }
    for (RelNode input : rel.getInputs()) {
      collect(input, found, scans);
    }
  }

  /**
   * The type each dynamic parameter of {@code plan} has there (the validator may type a {@code ?}
   * from where it stands, inside the cast to its value's type), else its value's type from {@code
   * types}: generated code reads each value as its parameter's type.
   */
  static List<org.apache.calcite.rel.type.RelDataType> parameterTypes(
      RelNode plan, List<org.apache.calcite.rel.type.RelDataType> types) {
    List<org.apache.calcite.rel.type.RelDataType> out = new ArrayList<>(types);
    new org.apache.calcite.rel.RelVisitor() {
      @Override
      public void visit(RelNode node, int ordinal, @Nullable RelNode parent) {
        node.accept(
            new RexShuttle() {
              @Override
              public RexNode visitDynamicParam(RexDynamicParam param) {
                if (param.getIndex() < out.size()) {
                  out.set(param.getIndex(), param.getType());
                }
                return param;
              }
            });
        super.visit(node, ordinal, parent);
      }
    }.go(plan);
    return out;
  }

  /** Whether {@code rex} reads a dynamic parameter. */
  static boolean hasParameter(RexNode rex) {
    try {
      rex.accept(
          new org.apache.calcite.rex.RexVisitorImpl<Void>(true) {
            @Override
            public Void visitDynamicParam(RexDynamicParam param) {
              throw org.apache.calcite.util.Util.FoundOne.NULL;
            }
          });
      return false;
    } catch (org.apache.calcite.util.Util.FoundOne found) {
      return true;
    }
  }

  /**
   * The filters each table's source accepted of its conjuncts with {@code values} bound (offered
   * as planning offers them: constants folded, ranges expanded); tables whose source accepted none
   * are left out.
   */
  Map<CatalogTable, List<Expression>> bind(Parameters values) {
    Map<CatalogTable, List<Expression>> out = new HashMap<>();
    for (Map.Entry<CatalogTable, Offer> e : offers.entrySet()) {
      BridgeTableScan scan = e.getValue().scan();
      FilterableStorage storage = (FilterableStorage) scan.bridgeTable().storage();
      RexBuilder rexBuilder = scan.getCluster().getRexBuilder();
      RexShuttle binder =
          new RexShuttle() {
            @Override
            public RexNode visitDynamicParam(RexDynamicParam param) {
              return values.rexLiteral(param.getIndex(), rexBuilder, param.getType());
            }
          };
      RexToExpression translator = new RexToExpression(scan.getRowType(), rexBuilder);
      List<Expression> offered = new ArrayList<>();
      for (RexNode conjunct : e.getValue().conjuncts()) {
        RexNode bound =
            RexUtil.expandSearch(
                rexBuilder, null, Constants.fold(rexBuilder, conjunct.accept(binder)));
        for (RexNode c : RelOptUtil.conjunctions(bound)) {
          Expression x = translator.translate(c);
          if (x != null && (storage.supportsNestedFilters() || !Call.hasNested(x))) {
            offered.add(x);
          }
        }
      }
      if (offered.isEmpty()) {
        continue;
      }
      List<Expression> accepted = new ArrayList<>(scan.filters());
      for (int i : storage.applyFilters(offered).accepted()) {
        if (i >= 0 && i < offered.size()) {
          accepted.add(offered.get(i));
        }
      }
      if (accepted.size() > scan.filters().size()) {
        out.put(e.getKey(), List.copyOf(accepted));
      }
    }
    return out;
  }
}

package io.calcitebridge.statement;

import io.calcitebridge.catalog.CatalogTable;
import io.calcitebridge.catalog.FilterableStorage;
import io.calcitebridge.expr.Call;
import io.calcitebridge.expr.Expression;
import io.calcitebridge.expr.Literal;
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
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;
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

  /**
   * A scan's conjuncts with parameters, over the scan's row type, and for each one that is a
   * comparison of an operand without parameters with one that reads them, that comparison (else
   * null).
   */
  private record Offer(
      BridgeTableScan scan, List<RexNode> conjuncts, List<@Nullable Comparison> comparisons) {}

  /**
   * A conjunct comparing an operand without parameters, translated once ({@code fixed}), with one
   * that reads them ({@code valued}): a run computes only the latter's literal, and the conjunct is
   * the expression a translation of the whole conjunct with the values bound would give.
   */
  private record Comparison(
      String function, String type, Expression fixed, RexNode valued, boolean valuedFirst) {
    Expression with(Expression value) {
      return new Call(function, valuedFirst ? List.of(value, fixed) : List.of(fixed, value), type);
    }

    /**
     * The literal the valued operand makes with {@code values}, as binding them, folding ({@link
     * #fold}) and translating it makes it, or null when it makes no literal (then the conjunct is
     * bound and translated whole). An integer parameter and integer arithmetic on it are computed
     * from the value itself ({@link #integer}), without making Calcite's expressions.
     */
    @Nullable Expression literal(Parameters values, RexBuilder rexBuilder, RexShuttle binder) {
      Long n = integer(valued, values);
      if (n != null) {
        // A bound parameter is a literal of its type NOT NULL; a folded call, of the call's type.
        RelDataType type =
            valued instanceof RexDynamicParam
                ? rexBuilder.getTypeFactory().createTypeWithNullability(valued.getType(), false)
                : valued.getType();
        return new Literal(n, RexToExpression.type(type));
      }
      return fold(rexBuilder, valued.accept(binder)) instanceof RexLiteral lit
          ? RexToExpression.literal(lit)
          : null;
    }
  }

  /**
   * The value of {@code rex} with {@code values} bound when it is an integer parameter, a cast of
   * one between integer types, or the sum, difference or product of such operands and integer
   * literals, computed as {@link #fold} computes it, within each type's range; else null.
   */
  private static @Nullable Long integer(RexNode rex, Parameters values) {
    if (!SqlTypeName.INT_TYPES.contains(rex.getType().getSqlTypeName())) {
      return null;
    }
    Long v;
    if (rex instanceof RexDynamicParam param) {
      v = values.integer(param.getIndex());
    } else if (rex instanceof RexLiteral lit) {
      v = lit.isNull() ? null : lit.getValueAs(Long.class);
    } else if (rex instanceof RexCall call && call.getKind() == SqlKind.CAST) {
      v = integer(call.getOperands().get(0), values);
    } else if (rex instanceof RexCall call && call.getOperands().size() == 2) {
      Long a = integer(call.getOperands().get(0), values);
      Long b = integer(call.getOperands().get(1), values);
      v = a == null || b == null ? null : arithmetic(call.getKind(), a, b);
    } else {
      v = null;
    }
    return v != null && fits(java.math.BigDecimal.valueOf(v), rex.getType()) ? v : null;
  }

  private static @Nullable Long arithmetic(SqlKind kind, long a, long b) {
    try {
      return switch (kind) {
        case PLUS, CHECKED_PLUS -> Math.addExact(a, b);
        case MINUS, CHECKED_MINUS -> Math.subtractExact(a, b);
        case TIMES, CHECKED_TIMES -> Math.multiplyExact(a, b);
        default -> null;
      };
    } catch (ArithmeticException overflow) {
      return null;
    }
  }

  /**
   * {@code conjunct} as a {@link Comparison}, or null when it is none or its fixed operand has no
   * translation the source takes.
   */
  private static @Nullable Comparison comparison(RexNode conjunct, BridgeTableScan scan) {
    String function =
        conjunct instanceof RexCall c && c.getOperands().size() == 2
            ? RexToExpression.comparison(c)
            : null;
    if (function == null) {
      return null;
    }
    RexCall call = (RexCall) conjunct;
    RexNode first = call.getOperands().get(0);
    RexNode second = call.getOperands().get(1);
    boolean valuedFirst = hasParameter(first);
    if (valuedFirst == hasParameter(second)) {
      return null;
    }
    RexBuilder rexBuilder = scan.getCluster().getRexBuilder();
    RexNode fixedOperand = fold(rexBuilder, valuedFirst ? second : first);
    Expression fixed = new RexToExpression(scan.getRowType(), rexBuilder).translate(fixedOperand);
    FilterableStorage storage = (FilterableStorage) scan.bridgeTable().storage();
    if (fixed == null || (Call.hasNested(fixed) && !storage.supportsNestedFilters())) {
      return null;
    }
    return new Comparison(
        function,
        RexToExpression.type(call.getType()),
        fixed,
        valuedFirst ? first : second,
        valuedFirst);
  }

  private final Map<CatalogTable, Offer> offers;

  private ParamFilters(Map<CatalogTable, Offer> offers) {
    this.offers = offers;
  }

  /**
   * The filters bound for one execution: those each table's source accepted, by table (tables that
   * accepted none are left out), and whether the sources accepted every conjunct offered.
   */
  record Bound(Map<CatalogTable, List<Expression>> filters, boolean complete) {
    static final Bound NONE = new Bound(Map.of(), false);
  }

  /** The offers of {@code plan}, or null when it has none. */
  static @Nullable ParamFilters of(RelNode plan) {
    return of(plan, scan -> false);
  }

  /**
   * The offers of {@code plan}, but none to the scans {@code filteredElsewhere} names (whose reader
   * applies the plan's filter itself), or null when it has none.
   */
  static @Nullable ParamFilters of(
      RelNode plan, java.util.function.Predicate<BridgeTableScan> filteredElsewhere) {
    Map<CatalogTable, Offer> found = new IdentityHashMap<>();
    Map<CatalogTable, Integer> scans = new IdentityHashMap<>();
    collect(plan, found, scans);
    found.values().removeIf(offer -> filteredElsewhere.test(offer.scan()));
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
        List<@Nullable Comparison> comparisons = new ArrayList<>();
        for (RexNode c : withParams) {
          comparisons.add(comparison(c, scan));
        }
        found.put(scan.bridgeTable(), new Offer(scan, withParams, comparisons));
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

  /**
   * {@code rex} with the casts of literals between numbers, strings, dates and timestamps and the
   * {@code +}, {@code -}, {@code *} of integer literals computed, where the value fits its type;
   * anything else stays as it is (offered so, or left to the plan's own filter).
   */
  static RexNode fold(RexBuilder rexBuilder, RexNode rex) {
    return rex.accept(
        new RexShuttle() {
          @Override
          public RexNode visitCall(RexCall call) {
            RexNode visited = super.visitCall(call);
            if (!(visited instanceof RexCall c)) {
              return visited;
            }
            RexNode folded =
                c.getKind() == SqlKind.CAST ? cast(rexBuilder, c) : arithmetic(rexBuilder, c);
            return folded != null ? folded : c;
          }
        });
  }

  private static @Nullable RexNode cast(RexBuilder rexBuilder, RexCall cast) {
    if (!(cast.getOperands().get(0) instanceof RexLiteral lit) || lit.isNull()) {
      return null;
    }
    RelDataType to = cast.getType();
    SqlTypeName from = lit.getType().getSqlTypeName();
    SqlTypeName target = to.getSqlTypeName();
    if (SqlTypeName.EXACT_TYPES.contains(from) && SqlTypeName.EXACT_TYPES.contains(target)) {
      java.math.BigDecimal v = lit.getValueAs(java.math.BigDecimal.class);
      if (v == null || !fits(v, to)) {
        return null;
      }
      return rexBuilder.makeExactLiteral(v, to);
    }
    if (SqlTypeName.EXACT_TYPES.contains(from)
        && (target == SqlTypeName.DOUBLE || target == SqlTypeName.FLOAT)) {
      java.math.BigDecimal v = lit.getValueAs(java.math.BigDecimal.class);
      return v == null ? null : rexBuilder.makeApproxLiteral(v, to);
    }
    if (SqlTypeName.CHAR_TYPES.contains(from)
        && (target == SqlTypeName.VARCHAR
            || target == SqlTypeName.CHAR && to.getPrecision() == lit.getType().getPrecision())) {
      String v = lit.getValueAs(String.class);
      return v == null ? null : rexBuilder.makeLiteral(v, to, false);
    }
    if ((from == SqlTypeName.DATE && target == SqlTypeName.DATE)
        || (from == SqlTypeName.TIMESTAMP
            && target == SqlTypeName.TIMESTAMP
            && to.getPrecision() >= lit.getType().getPrecision())) {
      // The value as text of the proleptic Gregorian calendar, as the literal holds it: its
      // getValue() is a Calendar, whose hybrid Julian calendar moved a date before October 1582
      // (1500-03-01 became 1500-02-20).
      Comparable<?> v =
          from == SqlTypeName.DATE
              ? lit.getValueAs(org.apache.calcite.util.DateString.class)
              : lit.getValueAs(org.apache.calcite.util.TimestampString.class);
      return v == null ? null : rexBuilder.makeLiteral(v, to, false);
    }
    return null;
  }

  private static @Nullable RexNode arithmetic(RexBuilder rexBuilder, RexCall call) {
    SqlKind kind =
        switch (call.getKind()) {
          case CHECKED_PLUS -> SqlKind.PLUS;
          case CHECKED_MINUS -> SqlKind.MINUS;
          case CHECKED_TIMES -> SqlKind.TIMES;
          default -> call.getKind();
        };
    if ((kind != SqlKind.PLUS && kind != SqlKind.MINUS && kind != SqlKind.TIMES)
        || call.getOperands().size() != 2
        || !SqlTypeName.INT_TYPES.contains(call.getType().getSqlTypeName())
        || !(call.getOperands().get(0) instanceof RexLiteral a)
        || !(call.getOperands().get(1) instanceof RexLiteral b)
        || !SqlTypeName.INT_TYPES.contains(a.getType().getSqlTypeName())
        || !SqlTypeName.INT_TYPES.contains(b.getType().getSqlTypeName())) {
      return null;
    }
    java.math.BigDecimal x = a.getValueAs(java.math.BigDecimal.class);
    java.math.BigDecimal y = b.getValueAs(java.math.BigDecimal.class);
    if (x == null || y == null) {
      return null;
    }
    java.math.BigDecimal v =
        kind == SqlKind.PLUS ? x.add(y) : kind == SqlKind.MINUS ? x.subtract(y) : x.multiply(y);
    // Past its type's range the statement fails as it runs: the plan's filter computes it.
    return fits(v, call.getType()) ? rexBuilder.makeExactLiteral(v, call.getType()) : null;
  }

  /** Whether {@code v} is a value of the exact type {@code type}, unrounded. */
  private static boolean fits(java.math.BigDecimal v, RelDataType type) {
    switch (type.getSqlTypeName()) {
      case TINYINT:
        return v.scale() <= 0
            && v.compareTo(java.math.BigDecimal.valueOf(Byte.MIN_VALUE)) >= 0
            && v.compareTo(java.math.BigDecimal.valueOf(Byte.MAX_VALUE)) <= 0;
      case SMALLINT:
        return v.stripTrailingZeros().scale() <= 0
            && v.compareTo(java.math.BigDecimal.valueOf(Short.MIN_VALUE)) >= 0
            && v.compareTo(java.math.BigDecimal.valueOf(Short.MAX_VALUE)) <= 0;
      case INTEGER:
        return v.stripTrailingZeros().scale() <= 0
            && v.compareTo(java.math.BigDecimal.valueOf(Integer.MIN_VALUE)) >= 0
            && v.compareTo(java.math.BigDecimal.valueOf(Integer.MAX_VALUE)) <= 0;
      case BIGINT:
        return v.stripTrailingZeros().scale() <= 0
            && v.compareTo(java.math.BigDecimal.valueOf(Long.MIN_VALUE)) >= 0
            && v.compareTo(java.math.BigDecimal.valueOf(Long.MAX_VALUE)) <= 0;
      case DECIMAL:
        {
          java.math.BigDecimal scaled;
          try {
            scaled = v.setScale(type.getScale(), java.math.RoundingMode.UNNECESSARY);
          } catch (ArithmeticException rounded) {
            return false;
          }
          return scaled.precision() <= type.getPrecision();
        }
      default:
        return false;
    }
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
   * The filters each table's source accepted of its conjuncts with {@code values} bound (offered as
   * planning offers them: constants folded, ranges expanded); tables whose source accepted none are
   * left out.
   */
  Bound bind(Parameters values) {
    Map<CatalogTable, List<Expression>> out = new HashMap<>();
    boolean complete = true;
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
      RexToExpression translator = null;
      List<Expression> offered = new ArrayList<>();
      List<RexNode> conjuncts = e.getValue().conjuncts();
      for (int k = 0; k < conjuncts.size(); k++) {
        RexNode conjunct = conjuncts.get(k);
        Comparison comparison = e.getValue().comparisons().get(k);
        if (comparison != null) {
          // Only the operand with the values is computed; the rest was translated once.
          Expression literal = comparison.literal(values, rexBuilder, binder);
          if (literal != null) {
            offered.add(comparison.with(literal));
            continue;
          }
        }
        if (translator == null) {
          translator = new RexToExpression(scan.getRowType(), rexBuilder);
        }
        // The values' casts and integer arithmetic computed, as planning computes them for a
        // literal; here without generating code, which would cost more than the statement.
        RexNode bound =
            RexUtil.expandSearch(rexBuilder, null, fold(rexBuilder, conjunct.accept(binder)));
        for (RexNode c : RelOptUtil.conjunctions(bound)) {
          Expression x = translator.translate(c);
          if (x != null && (!Call.hasNested(x) || storage.supportsNestedFilters())) {
            offered.add(x);
          } else {
            complete = false;
          }
        }
      }
      if (offered.isEmpty()) {
        complete = false;
        continue;
      }
      List<Expression> accepted = new ArrayList<>(scan.filters());
      java.util.BitSet taken = new java.util.BitSet();
      long t = io.calcitebridge.plan.PhaseTimes.start();
      List<Integer> answer = storage.applyFilters(offered).accepted();
      io.calcitebridge.plan.PhaseTimes.end("cached run/filters bound and offered/offer", t);
      for (int i : answer) {
        if (i >= 0 && i < offered.size() && !taken.get(i)) {
          taken.set(i);
          accepted.add(offered.get(i));
        }
      }
      complete &= taken.cardinality() == offered.size();
      if (accepted.size() > scan.filters().size()) {
        out.put(e.getKey(), List.copyOf(accepted));
      }
    }
    return new Bound(out, complete && !out.isEmpty());
  }
}

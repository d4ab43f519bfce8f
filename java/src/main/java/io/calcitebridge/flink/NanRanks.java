package io.calcitebridge.flink;

import com.google.common.collect.ImmutableList;
import io.calcitebridge.rewrite.BottomUp;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexFieldCollation;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexOver;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.rex.RexWindow;
import org.apache.calcite.rex.RexWindowBounds;
import org.apache.calcite.schema.impl.ScalarFunctionImpl;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.InferTypes;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;
import org.apache.calcite.sql.validate.SqlValidatorUtil;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * {@code RANK()} and {@code DENSE_RANK()} ordered by a DOUBLE or FLOAT key rank each row whose key
 * is NaN on its own, as Flink does: NaN sorts above every number, but Flink finds a row's peers
 * with {@code ==}, and NaN equals nothing ({@code RANK() OVER (ORDER BY x)} over 1, NaN, NaN is 1,
 * 2, 3). {@code PERCENT_RANK()} follows, computed from {@code RANK()} ({@link RankDistributions}).
 *
 * <p>Such a ranking is ordered by one more key, last: {@code CASE WHEN isnan(k) OR ... THEN rn END}
 * over its DOUBLE and FLOAT keys {@code k} ({@link #isNanFunction()}), where {@code rn} is {@code
 * ROW_NUMBER()} over the same window, computed by a projection below. A row with no NaN key has
 * NULL there, so its peers stay its peers; rows with a NaN key differ in it. Every backend gets the
 * same plan. Other window functions are left as they are: Flink's frames over a NaN key take NaNs
 * as peers.
 */
public final class NanRanks {
  private NanRanks() {}

  /**
   * {@code isnan(x)}: TRUE for NaN, NULL for NULL. Written for DuckDB and Spark as their {@code
   * isnan}; planning does not simplify it away, as it does {@code x <> x} of a NOT NULL value.
   */
  public static SqlUserDefinedFunction isNanFunction() {
    return IsNanFunction.INSTANCE;
  }

  /**
   * Whether {@code op} is {@link #isNanFunction()}, without making it: making its implementation
   * initialises Calcite's table of the engine's implementors, which a query without NaN ranks or
   * float comparisons does not need, and every call of a plan for DuckDB or Spark is asked this.
   */
  public static boolean isIsNan(SqlOperator op) {
    return op instanceof IsNanFunction;
  }

  /**
   * Initialised, and so made, when {@link #INSTANCE} is first read; {@code instanceof} does not.
   */
  private static final class IsNanFunction extends SqlUserDefinedFunction {
    static final IsNanFunction INSTANCE = new IsNanFunction();

    private IsNanFunction() {
      super(
          new SqlIdentifier("isnan", SqlParserPos.ZERO),
          ReturnTypes.BOOLEAN_NULLABLE,
          InferTypes.FIRST_KNOWN,
          OperandTypes.NUMERIC,
          null,
          ScalarFunctionImpl.create(NanRanks.class, "isNaN"));
    }
  }

  /** The implementation of {@link #isNanFunction()}. */
  public static @Nullable Boolean isNaN(@Nullable Double x) {
    return x == null ? null : x.isNaN();
  }

  /** {@code rel} with its rankings over DOUBLE and FLOAT keys rewritten as the class says. */
  public static RelNode apply(RelNode rel) {
    return BottomUp.rewrite(rel, NanRanks::step);
  }

  private static boolean applies(RexOver over) {
    SqlKind kind = over.getAggOperator().getKind();
    if (kind != SqlKind.RANK && kind != SqlKind.DENSE_RANK) {
      return false;
    }
    return over.getWindow().orderKeys.stream()
        .anyMatch(key -> SqlTypeFamily.APPROXIMATE_NUMERIC.contains(key.left.getType()));
  }

  private static List<Object> windowKey(RexWindow w) {
    return List.of(w.partitionKeys, w.orderKeys);
  }

  private static RelNode step(RelNode rel) {
    if (!(rel instanceof LogicalProject project)) {
      return rel;
    }
    Map<List<Object>, RexWindow> windows = new LinkedHashMap<>();
    for (RexNode e : project.getProjects()) {
      e.accept(
          new RexShuttle() {
            @Override
            public RexNode visitOver(RexOver over) {
              if (applies(over)) {
                windows.putIfAbsent(windowKey(over.getWindow()), over.getWindow());
              }
              return super.visitOver(over);
            }
          });
    }
    if (windows.isEmpty()) {
      return rel;
    }
    RexBuilder rex = project.getCluster().getRexBuilder();
    RelNode input = project.getInput();
    List<RelDataTypeField> fields = input.getRowType().getFieldList();
    List<RexNode> below = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (RelDataTypeField f : fields) {
      below.add(RexInputRef.of(f.getIndex(), input.getRowType()));
      names.add(f.getName());
    }
    RelDataType bigint = rex.getTypeFactory().createSqlType(SqlTypeName.BIGINT);
    Map<List<Object>, RexNode> ties = new LinkedHashMap<>();
    for (Map.Entry<List<Object>, RexWindow> entry : windows.entrySet()) {
      RexWindow w = entry.getValue();
      below.add(
          rex.makeOver(
              bigint,
              SqlStdOperatorTable.ROW_NUMBER,
              List.of(),
              w.partitionKeys,
              w.orderKeys,
              RexWindowBounds.UNBOUNDED_PRECEDING,
              RexWindowBounds.CURRENT_ROW,
              true,
              true,
              false,
              false,
              false));
      names.add("rn");
      RexNode rn = new RexInputRef(below.size() - 1, bigint);
      List<RexNode> nans = new ArrayList<>();
      for (RexFieldCollation key : w.orderKeys) {
        if (SqlTypeFamily.APPROXIMATE_NUMERIC.contains(key.left.getType())) {
          nans.add(rex.makeCall(isNanFunction(), key.left));
        }
      }
      ties.put(
          entry.getKey(),
          rex.makeCall(
              SqlStdOperatorTable.CASE,
              RexUtil.composeDisjunction(rex, nans),
              rn,
              rex.makeNullLiteral(bigint)));
    }
    LogicalProject lower =
        LogicalProject.create(
            input,
            ImmutableList.of(),
            below,
            SqlValidatorUtil.uniquify(names, SqlValidatorUtil.EXPR_SUGGESTER, true),
            Set.of());
    RexShuttle rewrite =
        new RexShuttle() {
          @Override
          public RexNode visitOver(RexOver over) {
            @Nullable RexNode tie = applies(over) ? ties.get(windowKey(over.getWindow())) : null;
            if (tie == null) {
              return super.visitOver(over);
            }
            RexWindow w = over.getWindow();
            ImmutableList<RexFieldCollation> order =
                ImmutableList.<RexFieldCollation>builder()
                    .addAll(w.orderKeys)
                    .add(new RexFieldCollation(tie, Set.of()))
                    .build();
            return rex.makeOver(
                over.getType(),
                over.getAggOperator(),
                over.getOperands(),
                w.partitionKeys,
                order,
                w.getLowerBound(),
                w.getUpperBound(),
                w.isRows(),
                true,
                false,
                over.isDistinct(),
                over.ignoreNulls());
          }
        };
    return LogicalProject.create(
        lower,
        project.getHints(),
        rewrite.apply(project.getProjects()),
        project.getRowType().getFieldNames(),
        project.getVariablesSet());
  }
}

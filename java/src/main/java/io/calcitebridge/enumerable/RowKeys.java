package io.calcitebridge.enumerable;

import io.calcitebridge.functions.RowKeyValues;
import io.calcitebridge.rewrite.BottomUp;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.adapter.enumerable.EnumerableCalc;
import org.apache.calcite.rel.RelCollations;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.core.SetOp;
import org.apache.calcite.rel.core.Union;
import org.apache.calcite.rel.core.Window;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * ROW values compared by value where Calcite's engine hashes them. The engine holds a ROW as an
 * {@code Object[]}, and its hash tables (GROUP BY, DISTINCT, COUNT(DISTINCT ...), joins on {@code
 * =}, UNION, INTERSECT and EXCEPT) compare arrays as the same object, not by their fields: {@code
 * SELECT DISTINCT pt} kept every row and a join on {@code a.pt = b.pt} matched nothing. {@link
 * #apply} rewrites the Enumerable plan: below such an operator each key holding ROWs (a ROW, an
 * ARRAY or MAP of them) is wrapped in a key compared by value ({@link RowKeyValues#key}), and above
 * it the value is taken back out ({@link RowKeyValues#value}), so that the operators above see the
 * types and values they saw before. The plan the other backends run is not changed.
 */
public final class RowKeys {
  private RowKeys() {}

  /** {@code rel} with the ROW keys of its hashing operators compared by value. */
  public static RelNode apply(RelNode rel) {
    return BottomUp.rewrite(rel, RowKeys::step);
  }

  private static RelNode step(RelNode rel) {
    if (rel instanceof Aggregate aggregate) {
      return aggregate(aggregate);
    }
    if (rel instanceof Join join) {
      return join(join);
    }
    if (rel instanceof SetOp setOp && !(setOp instanceof Union && setOp.all)) {
      return setOp(setOp);
    }
    if (rel instanceof Window window) {
      refusePartitions(window);
    }
    return rel;
  }

  /**
   * Refuses a window partitioned by a ROW value: its partitions are hash-table keys too, and the
   * window's fields pass through it, so its keys cannot be wrapped as an aggregate's are.
   */
  private static void refusePartitions(Window window) {
    for (Window.Group group : window.groups) {
      for (int key : group.keys) {
        if (holdsRow(window.getInput(), key)) {
          throw new UnsupportedOperationException(
              "PARTITION BY a ROW value (column '"
                  + window.getInput().getRowType().getFieldNames().get(key)
                  + "') is not supported: the enumerable backend compares ROWs there by"
                  + " identity; the duckdb backend runs it");
        }
      }
    }
  }

  private static final java.util.Set<SqlKind> GROUPINGS =
      java.util.EnumSet.of(SqlKind.GROUPING, SqlKind.GROUPING_ID, SqlKind.GROUP_ID);

  private static boolean holdsRow(RelNode rel, int column) {
    return RowKeyValues.holdsRow(rel.getRowType().getFieldList().get(column).getType());
  }

  /**
   * An aggregate grouped by ROWs or counting DISTINCT ROWs: its input with the ROW keys wrapped in
   * place (the aggregates of such a column read it from a copy appended to the input), the value
   * taken out of each ROW key of its output.
   */
  private static RelNode aggregate(Aggregate aggregate) {
    RelNode input = aggregate.getInput();
    int n = input.getRowType().getFieldCount();
    List<Integer> keys = new ArrayList<>();
    for (int key : aggregate.getGroupSet()) {
      if (holdsRow(input, key)) {
        keys.add(key);
      }
    }
    boolean distinctRows = false;
    for (AggregateCall call : aggregate.getAggCallList()) {
      if (call.isDistinct() && call.getArgList().stream().anyMatch(a -> holdsRow(input, a))) {
        if (call.getAggregation().getKind() != SqlKind.COUNT) {
          throw new UnsupportedOperationException(
              call.getAggregation().getName()
                  + " of DISTINCT ROW values is not supported on the enumerable backend;"
                  + " the duckdb backend runs it");
        }
        distinctRows = true;
      }
    }
    if (keys.isEmpty() && !distinctRows) {
      return aggregate;
    }
    RexBuilder rex = aggregate.getCluster().getRexBuilder();
    List<RexNode> projects = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      RexNode ref = RexInputRef.of(i, input.getRowType());
      projects.add(keys.contains(i) ? RowKeyValues.key(rex, ref) : ref);
    }
    // Where the aggregates read each wrapped column as it is, and each DISTINCT ROW argument that
    // is not a key as a key.
    int[] original = new int[n];
    int[] wrapped = new int[n];
    for (int i = 0; i < n; i++) {
      original[i] = i;
      wrapped[i] = i;
    }
    List<AggregateCall> calls = new ArrayList<>();
    for (AggregateCall call : aggregate.getAggCallList()) {
      if (GROUPINGS.contains(call.getAggregation().getKind())) {
        calls.add(call); // its arguments name group keys, not the values of a row
        continue;
      }
      List<Integer> args = new ArrayList<>();
      for (int arg : call.getArgList()) {
        if (call.isDistinct() && holdsRow(input, arg)) {
          if (!keys.contains(arg) && wrapped[arg] == arg) {
            wrapped[arg] = projects.size();
            projects.add(RowKeyValues.key(rex, RexInputRef.of(arg, input.getRowType())));
          }
          args.add(wrapped[arg]);
        } else {
          args.add(appendOriginal(arg, keys, original, projects, input));
        }
      }
      int filter =
          call.filterArg < 0
              ? call.filterArg
              : appendOriginal(call.filterArg, keys, original, projects, input);
      List<RelFieldCollation> order = new ArrayList<>();
      for (RelFieldCollation field : call.getCollation().getFieldCollations()) {
        order.add(
            field.withFieldIndex(
                appendOriginal(field.getFieldIndex(), keys, original, projects, input)));
      }
      calls.add(call.copy(args, filter, call.distinctKeys, RelCollations.of(order)));
    }
    RelNode calc = calc(input, projects);
    Aggregate wrappedAggregate =
        aggregate.copy(
            aggregate.getTraitSet(),
            calc,
            aggregate.getGroupSet(),
            aggregate.getGroupSets(),
            calls);
    List<RexNode> out = new ArrayList<>();
    List<RelDataTypeField> fields = aggregate.getRowType().getFieldList();
    List<Integer> groups = aggregate.getGroupSet().asList();
    for (int i = 0; i < fields.size(); i++) {
      RexNode ref = RexInputRef.of(i, wrappedAggregate.getRowType());
      boolean key = i < groups.size() && keys.contains(groups.get(i));
      out.add(key ? RowKeyValues.value(rex, ref, fields.get(i).getType()) : ref);
    }
    return calc(wrappedAggregate, out, aggregate.getRowType().getFieldNames());
  }

  /** Where the aggregates read column {@code i} as it is: a copy appended when it is wrapped. */
  private static int appendOriginal(
      int i, List<Integer> keys, int[] original, List<RexNode> projects, RelNode input) {
    if (keys.contains(i) && original[i] == i) {
      original[i] = projects.size();
      projects.add(RexInputRef.of(i, input.getRowType()));
    }
    return original[i];
  }

  /**
   * A join on ROWs: each side with its ROW keys appended as keys compared by value, the condition
   * comparing those, the appended columns dropped above.
   */
  private static RelNode join(Join join) {
    JoinInfo info = join.analyzeCondition();
    RelNode left = join.getLeft();
    RelNode right = join.getRight();
    List<Integer> rowPairs = new ArrayList<>();
    for (int k = 0; k < info.leftKeys.size(); k++) {
      if (holdsRow(left, info.leftKeys.get(k)) || holdsRow(right, info.rightKeys.get(k))) {
        rowPairs.add(k);
      }
    }
    if (rowPairs.isEmpty()) {
      return join;
    }
    RexBuilder rex = join.getCluster().getRexBuilder();
    int nl = left.getRowType().getFieldCount();
    int nr = right.getRowType().getFieldCount();
    int extra = rowPairs.size();
    List<RexNode> leftProjects = identity(left);
    List<RexNode> rightProjects = identity(right);
    for (int k : rowPairs) {
      leftProjects.add(
          RowKeyValues.key(rex, RexInputRef.of(info.leftKeys.get(k), left.getRowType())));
      rightProjects.add(
          RowKeyValues.key(rex, RexInputRef.of(info.rightKeys.get(k), right.getRowType())));
    }
    RelNode newLeft = calc(left, leftProjects);
    RelNode newRight = calc(right, rightProjects);
    List<RelDataTypeField> leftFields = newLeft.getRowType().getFieldList();
    List<RelDataTypeField> rightFields = newRight.getRowType().getFieldList();
    // Field i of the old join is field shift(i) of the new one.
    RexShuttle shift =
        new RexShuttle() {
          @Override
          public RexNode visitInputRef(RexInputRef ref) {
            int i = ref.getIndex();
            return i < nl ? ref : new RexInputRef(i + extra, ref.getType());
          }
        };
    List<RexNode> conditions = new ArrayList<>();
    for (int k = 0; k < info.leftKeys.size(); k++) {
      int pair = rowPairs.indexOf(k);
      RexNode l;
      RexNode r;
      if (pair >= 0) {
        l = new RexInputRef(nl + pair, leftFields.get(nl + pair).getType());
        r = new RexInputRef(nl + extra + nr + pair, rightFields.get(nr + pair).getType());
      } else {
        int li = info.leftKeys.get(k);
        int ri = info.rightKeys.get(k);
        l = new RexInputRef(li, leftFields.get(li).getType());
        r = new RexInputRef(nl + extra + ri, rightFields.get(ri).getType());
      }
      boolean nullsMatch = !info.nullExclusionFlags.get(k);
      conditions.add(
          rex.makeCall(
              nullsMatch ? SqlStdOperatorTable.IS_NOT_DISTINCT_FROM : SqlStdOperatorTable.EQUALS,
              l,
              r));
    }
    for (RexNode other : info.nonEquiConditions) {
      conditions.add(other.accept(shift));
    }
    Join rewritten =
        join.copy(
            join.getTraitSet(),
            RexUtil.composeConjunction(rex, conditions),
            newLeft,
            newRight,
            join.getJoinType(),
            join.isSemiJoinDone());
    List<RexNode> out = new ArrayList<>();
    int outputs = join.getRowType().getFieldCount();
    for (int i = 0; i < outputs; i++) {
      int from = i < nl ? i : i + extra;
      out.add(RexInputRef.of(from, rewritten.getRowType()));
    }
    return calc(rewritten, out, join.getRowType().getFieldNames());
  }

  /** A set operation over rows holding ROWs: compared as keys, their values taken out above. */
  private static RelNode setOp(SetOp setOp) {
    List<Integer> columns = new ArrayList<>();
    for (int i = 0; i < setOp.getRowType().getFieldCount(); i++) {
      for (RelNode input : setOp.getInputs()) {
        if (holdsRow(input, i)) {
          columns.add(i);
          break;
        }
      }
    }
    if (columns.isEmpty()) {
      return setOp;
    }
    RexBuilder rex = setOp.getCluster().getRexBuilder();
    List<RelNode> inputs = new ArrayList<>();
    for (RelNode input : setOp.getInputs()) {
      List<RexNode> projects = identity(input);
      for (int i : columns) {
        projects.set(i, RowKeyValues.key(rex, projects.get(i)));
      }
      inputs.add(calc(input, projects));
    }
    SetOp rewritten = setOp.copy(setOp.getTraitSet(), inputs, setOp.all);
    List<RexNode> out = new ArrayList<>();
    List<RelDataTypeField> fields = setOp.getRowType().getFieldList();
    for (int i = 0; i < fields.size(); i++) {
      RexNode ref = RexInputRef.of(i, rewritten.getRowType());
      out.add(columns.contains(i) ? RowKeyValues.value(rex, ref, fields.get(i).getType()) : ref);
    }
    return calc(rewritten, out, setOp.getRowType().getFieldNames());
  }

  private static List<RexNode> identity(RelNode rel) {
    List<RexNode> refs = new ArrayList<>();
    for (int i = 0; i < rel.getRowType().getFieldCount(); i++) {
      refs.add(RexInputRef.of(i, rel.getRowType()));
    }
    return refs;
  }

  private static RelNode calc(RelNode input, List<RexNode> projects) {
    return calc(input, projects, null);
  }

  private static RelNode calc(RelNode input, List<RexNode> projects, @Nullable List<String> names) {
    RexProgram program =
        RexProgram.create(
            input.getRowType(), projects, null, names, input.getCluster().getRexBuilder());
    return EnumerableCalc.create(input, program);
  }
}

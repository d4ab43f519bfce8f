package io.calcitebridge.udf;

import io.calcitebridge.functions.UserFunction;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.adapter.enumerable.EnumerableCalc;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.tools.Program;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Computes the user-defined function calls of each {@link EnumerableCalc} a batch at a time: the
 * Calc becomes a Calc that computes the calls' operands (and the conjuncts of its condition that
 * call no such function), a {@link PythonBatch} that adds the calls' results, and a Calc of the
 * rest. A call inside {@code CASE}, {@code COALESCE}, {@code AND} or {@code OR} below the
 * condition's top level, which the row may never reach, stays a call one row at a time, as do calls
 * outside a Calc (a join condition).
 */
public final class PythonBatchRule {
  private PythonBatchRule() {}

  /** The rewrite as a planning phase. */
  public static final Program PROGRAM =
      (planner, rel, traits, materializations, lattices) -> rewrite(rel);

  /** {@code plan} with the calls of its Calcs batched. */
  public static RelNode rewrite(RelNode plan) {
    return plan.accept(
        new RelHomogeneousShuttle() {
          @Override
          public RelNode visit(RelNode other) {
            RelNode visited = super.visit(other);
            if (visited instanceof EnumerableCalc calc) {
              return batch(calc);
            }
            return visited;
          }
        });
  }

  private static RelNode batch(EnumerableCalc calc) {
    RexProgram program = calc.getProgram();
    boolean any = false;
    for (RexNode e : program.getExprList()) {
      if (e instanceof RexCall c && c.getOperator() instanceof UserFunction) {
        any = true; // a program's expressions are shallow: each call is one of them
        break;
      }
    }
    if (!any) {
      return calc;
    }
    RexBuilder rex = calc.getCluster().getRexBuilder();
    List<RexNode> projects = new ArrayList<>();
    for (var p : program.getProjectList()) {
      projects.add(program.expandLocalRef(p));
    }
    List<RexNode> kept = new ArrayList<>();
    List<RexNode> above = new ArrayList<>();
    if (program.getCondition() != null) {
      for (RexNode c : RelOptUtil.conjunctions(program.expandLocalRef(program.getCondition()))) {
        (calls(c) ? above : kept).add(c);
      }
    }
    Map<String, RexCall> found = new LinkedHashMap<>();
    for (RexNode p : projects) {
      collect(p, found);
    }
    for (RexNode c : above) {
      collect(c, found);
    }
    if (found.isEmpty()) {
      return calc;
    }
    RelNode input = calc.getInput();
    int width = input.getRowType().getFieldCount();
    // Below: the input's columns, then every operand of every call.
    List<RexNode> below = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (RelDataTypeField f : input.getRowType().getFieldList()) {
      below.add(new RexInputRef(f.getIndex(), f.getType()));
      names.add(f.getName());
    }
    List<RexCall> batched = new ArrayList<>();
    for (RexCall call : found.values()) {
      List<RexNode> refs = new ArrayList<>();
      for (RexNode o : call.operands) {
        if (o instanceof RexInputRef ref) { // a column of the input already
          refs.add(ref);
          continue;
        }
        refs.add(new RexInputRef(below.size(), o.getType()));
        below.add(o);
        names.add("$arg" + below.size());
      }
      batched.add(call.clone(call.getType(), refs));
    }
    RexProgram bottomProgram =
        RexProgram.create(
            input.getRowType(),
            below,
            kept.isEmpty() ? null : RexUtil.composeConjunction(rex, kept),
            names,
            rex);
    RelNode bottom = EnumerableCalc.create(input, bottomProgram);
    PythonBatch middle = new PythonBatch(calc.getCluster(), calc.getTraitSet(), bottom, batched);
    // Above: the original expressions, each batched call read from its column.
    Map<String, Integer> columns = new LinkedHashMap<>();
    int k = 0;
    for (String key : found.keySet()) {
      columns.put(key, below.size() + k++);
    }
    RexShuttle replace =
        new RexShuttle() {
          @Override
          public RexNode visitCall(RexCall call) {
            Integer at = columns.get(call.toString());
            if (at != null && call.getOperator() instanceof UserFunction) {
              return new RexInputRef(at, call.getType());
            }
            return super.visitCall(call);
          }
        };
    List<RexNode> top = new ArrayList<>();
    for (RexNode p : projects) {
      top.add(p.accept(replace));
    }
    List<RexNode> topCondition = new ArrayList<>();
    for (RexNode c : above) {
      topCondition.add(c.accept(replace));
    }
    RexProgram topProgram =
        RexProgram.create(
            middle.getRowType(),
            top,
            topCondition.isEmpty() ? null : RexUtil.composeConjunction(rex, topCondition),
            calc.getRowType(),
            rex);
    RelNode result = EnumerableCalc.create(middle, topProgram);
    // Calls whose operands held calls come next.
    return result instanceof EnumerableCalc next ? batch(next) : result;
  }

  /** Whether {@code node} calls a user-defined function. */
  private static boolean calls(RexNode node) {
    return node.accept(
            new org.apache.calcite.rex.RexVisitorImpl<@Nullable Boolean>(true) {
              @Override
              public Boolean visitCall(RexCall call) {
                if (call.getOperator() instanceof UserFunction) {
                  return true;
                }
                for (RexNode o : call.operands) {
                  if (Boolean.TRUE.equals(o.accept(this))) {
                    return true;
                  }
                }
                return false;
              }
            })
        == Boolean.TRUE;
  }

  /**
   * Collects the calls of user-defined functions that every row reaches and whose operands call
   * none, by their text.
   */
  private static void collect(RexNode node, Map<String, RexCall> found) {
    if (!(node instanceof RexCall call)) {
      return;
    }
    if (call.getOperator() instanceof UserFunction) {
      boolean inner = true;
      for (RexNode o : call.operands) {
        if (calls(o)) {
          inner = false;
          collect(o, found);
        }
      }
      if (inner) {
        found.putIfAbsent(call.toString(), call);
      }
      return;
    }
    SqlKind kind = call.getKind();
    if (kind == SqlKind.CASE
        || kind == SqlKind.COALESCE
        || kind == SqlKind.AND
        || kind == SqlKind.OR) {
      return; // a row may not reach what is inside
    }
    for (RexNode o : call.operands) {
      collect(o, found);
    }
  }
}

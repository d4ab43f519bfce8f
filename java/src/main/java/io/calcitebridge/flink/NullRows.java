package io.calcitebridge.flink;

import io.calcitebridge.functions.RowText;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Calc;
import org.apache.calcite.rel.core.Correlate;
import org.apache.calcite.rel.core.Exchange;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.SetOp;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;

/**
 * A field of a NULL ROW is NULL, wherever the ROW comes from: {@code CAST(NULL AS ROW<a INT>).a},
 * and {@code x.a} where {@code x} is such a ROW that a sub-query, a view, a CTE or every branch of
 * a UNION ALL projects, or the field of a ROW constructor that is one ({@code ROW(CAST(NULL AS
 * ROW<b INT>), i).EXPR$0.b}). Flink's planner folds such a field to a NULL of its type. No engine
 * here computes a field of a NULL literal (Calcite's code generation has no code for it, the DuckDB
 * and Spark translations write a field of a column only), and a NULL ROW column becomes a literal
 * where it is read once projections merge, which the planner does after the constants are folded
 * (above a filter, in the cost-based pass), so its fields failed.
 *
 * <p>So, while constants are folded ({@link FlinkConstants}), a ROW value NULL in every row of the
 * plan is made the NULL literal it is: the column a reference reads is followed down the plan
 * (through projections, filters, sorts, both sides of joins, every input of a set operation, the
 * group keys of aggregates and the rows of VALUES) to a NULL literal, and a field of such a ROW is
 * a NULL of the field's type ({@link #fold(RexBuilder, RexFieldAccess, List)}), as is a reference
 * to such a ROW column ({@link #fold(RexBuilder, RexInputRef, List)}): every expression over it (a
 * CASE, a COALESCE, a cast, a comparison) then holds the literal, as if it were written in the
 * query, before any backend's rewrites, and its {@code IS NULL} is TRUE ({@link #fold(RexBuilder,
 * RexCall)}). A ROW column NULL in some rows only (a LEFT JOIN's missing side, a CASE without ELSE)
 * is left to the engines, which read its fields as NULL.
 */
public final class NullRows {
  private NullRows() {}

  /**
   * {@code access} as a NULL literal of its type when the field it reads is NULL in every row,
   * {@code inputs} being the inputs of the node it is an expression of ({@link #inputsOf});
   * otherwise {@code access} itself.
   */
  public static RexNode fold(RexBuilder rex, RexFieldAccess access, List<RelNode> inputs) {
    if (access.getType().isNullable() && alwaysNull(access, List.of(), inputs)) {
      return rex.makeNullLiteral(access.getType());
    }
    return access;
  }

  /**
   * {@code ref} as a NULL literal of its type when it reads a ROW column NULL in every row of
   * {@code inputs}; otherwise {@code ref} itself. Only a ROW: a NULL of another type is a constant
   * the planner's own rules already see.
   */
  public static RexNode fold(RexBuilder rex, RexInputRef ref, List<RelNode> inputs) {
    if (ref.getType().isStruct()
        && ref.getType().isNullable()
        && alwaysNull(ref, List.of(), inputs)) {
      return rex.makeNullLiteral(ref.getType());
    }
    return ref;
  }

  /**
   * {@code call} as TRUE or FALSE when it is {@code IS NULL} (SQL's, or {@link RowText}'s test of
   * the ROW itself) or {@code IS NOT NULL} of a NULL ROW literal (as {@link #fold(RexBuilder,
   * RexInputRef, List)} leaves one); otherwise {@code call} itself. Calcite's engine has no code
   * for a NULL ROW literal that is not folded so: the CASE that a ROW cast to STRING is ({@code
   * CAST(x AS STRING)}), or that COALESCE is, tests it.
   */
  public static RexNode fold(RexBuilder rex, RexCall call) {
    boolean isNull = call.getKind() == SqlKind.IS_NULL || RowText.isRowIsNull(call.getOperator());
    if ((isNull || call.getKind() == SqlKind.IS_NOT_NULL)
        && call.getOperands().size() == 1
        && call.getOperands().get(0).getType().isStruct()
        && RexUtil.isNullLiteral(call.getOperands().get(0), true)) {
      return rex.makeLiteral(isNull);
    }
    return call;
  }

  /**
   * The inputs whose fields the input references of {@code node}'s expressions number: those of a
   * projection, a filter, a calc and a join; no other node's are followed.
   */
  public static List<RelNode> inputsOf(RelNode node) {
    if (node instanceof Project || node instanceof Filter || node instanceof Calc) {
      return List.of(node.getInput(0));
    }
    if (node instanceof Join join) {
      return List.of(join.getLeft(), join.getRight());
    }
    return List.of();
  }

  /**
   * Whether the value at {@code path} (field indexes, outermost first) inside {@code e} is NULL in
   * every row.
   */
  private static boolean alwaysNull(RexNode e, List<Integer> path, List<RelNode> inputs) {
    if (RexUtil.isNullLiteral(e, true)) {
      return true;
    }
    if (e instanceof RexFieldAccess access) {
      List<Integer> longer = new ArrayList<>(path.size() + 1);
      longer.add(access.getField().getIndex());
      longer.addAll(path);
      return alwaysNull(access.getReferenceExpr(), longer, inputs);
    }
    if (e instanceof RexInputRef ref) {
      int index = ref.getIndex();
      for (RelNode input : inputs) {
        int count = input.getRowType().getFieldCount();
        if (index < count) {
          return alwaysNull(input, index, path);
        }
        index -= count;
      }
      return false;
    }
    if (!(e instanceof RexCall call)) {
      return false;
    }
    switch (call.getKind()) {
      case ROW:
        // A ROW constructor is never NULL; its fields are its operands.
        return !path.isEmpty()
            && path.get(0) < call.getOperands().size()
            && alwaysNull(
                call.getOperands().get(path.get(0)), path.subList(1, path.size()), inputs);
      case CAST:
        // A ROW cast to a ROW type field by field is NULL where the ROW is, and so are its fields.
        RexNode operand = call.getOperands().get(0);
        return operand.getType().isStruct()
            && call.getType().isStruct()
            && operand.getType().getFieldCount() == call.getType().getFieldCount()
            && alwaysNull(operand, path, inputs);
      case CASE:
        // NULL whichever branch is taken: each value and the ELSE.
        List<RexNode> operands = call.getOperands();
        for (int i = 1; i < operands.size(); i += 2) {
          if (!alwaysNull(operands.get(i), path, inputs)) {
            return false;
          }
        }
        return alwaysNull(operands.get(operands.size() - 1), path, inputs);
      default:
        return false;
    }
  }

  /** Whether the value at {@code path} inside column {@code column} of {@code rel} is NULL. */
  private static boolean alwaysNull(RelNode node, int column, List<Integer> path) {
    RelNode rel = node.stripped();
    if (rel instanceof Project project) {
      return alwaysNull(project.getProjects().get(column), path, List.of(project.getInput()));
    }
    if (rel instanceof Calc calc) {
      RexProgram program = calc.getProgram();
      return alwaysNull(
          program.expandLocalRef(program.getProjectList().get(column)),
          path,
          List.of(calc.getInput()));
    }
    if (rel instanceof Filter || rel instanceof Sort || rel instanceof Exchange) {
      return alwaysNull(rel.getInput(0), column, path);
    }
    if (rel instanceof Join || rel instanceof Correlate) {
      // An outer join's missing side is NULL too: a column NULL on its side stays NULL.
      RelNode left = rel.getInput(0);
      int count = left.getRowType().getFieldCount();
      return column < count
          ? alwaysNull(left, column, path)
          : alwaysNull(rel.getInput(1), column - count, path);
    }
    if (rel instanceof SetOp setOp) {
      for (RelNode input : setOp.getInputs()) {
        if (!alwaysNull(input, column, path)) {
          return false;
        }
      }
      return true;
    }
    if (rel instanceof Aggregate aggregate) {
      return column < aggregate.getGroupCount()
          && alwaysNull(aggregate.getInput(), aggregate.getGroupSet().nth(column), path);
    }
    if (rel instanceof Values values) {
      for (List<RexLiteral> tuple : values.getTuples()) {
        if (!RexLiteral.isNullLiteral(tuple.get(column))) {
          return false;
        }
      }
      return true;
    }
    return false;
  }
}

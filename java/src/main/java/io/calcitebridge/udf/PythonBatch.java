package io.calcitebridge.udf;

import io.calcitebridge.functions.UserFunction;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.SingleRel;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;

/**
 * Calls of user-defined functions computed a batch of rows at a time on Calcite's engine: each row
 * of the input comes out with one more column a call, the call's result. Every operand of a call is
 * a column of the input ({@link PythonBatchRule} computes them below). One batch of rows crosses to
 * Python once a call ({@link UserFunction#apply}), whether the function is vectorized or not.
 */
public final class PythonBatch extends SingleRel implements EnumerableRel {
  private final List<RexCall> calls;

  PythonBatch(RelOptCluster cluster, RelTraitSet traits, RelNode input, List<RexCall> calls) {
    super(cluster, traits, input);
    this.calls = List.copyOf(calls);
  }

  /** The calls, whose operands are input references. */
  public List<RexCall> calls() {
    return calls;
  }

  @Override
  protected RelDataType deriveRowType() {
    RelDataTypeFactory.Builder b = getCluster().getTypeFactory().builder();
    b.addAll(getInput().getRowType().getFieldList());
    for (int i = 0; i < calls.size(); i++) {
      b.add("$udf" + i, calls.get(i).getType());
    }
    return b.uniquify().build();
  }

  @Override
  public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new PythonBatch(getCluster(), traitSet, sole(inputs), calls);
  }

  @Override
  public RelWriter explainTerms(RelWriter pw) {
    List<String> shown = new ArrayList<>();
    for (RexCall c : calls) {
      shown.add(c.toString());
    }
    return super.explainTerms(pw).item("batch", shown);
  }

  private PythonBatches.Spec spec() {
    List<UserFunction> functions = new ArrayList<>();
    List<int[]> operands = new ArrayList<>();
    List<RelDataType> types = new ArrayList<>();
    for (RexCall c : calls) {
      functions.add((UserFunction) c.getOperator());
      int[] refs = new int[c.operands.size()];
      List<RelDataType> operandTypes = new ArrayList<>();
      for (int i = 0; i < refs.length; i++) {
        RexNode o = c.operands.get(i);
        refs[i] = ((RexInputRef) o).getIndex();
        operandTypes.add(o.getType());
      }
      operands.add(refs);
      types.add(UserFunction.argumentType(getCluster().getTypeFactory(), operandTypes));
    }
    return new PythonBatches.Spec(functions, operands, types);
  }

  @Override
  public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    EnumerableRel input = (EnumerableRel) getInput();
    Result child = implementor.visitChild(this, 0, input, Prefer.ARRAY);
    BlockBuilder b = new BlockBuilder();
    Expression rows = b.append("rows", child.block);
    JavaRowFormat format = child.physType.getFormat();
    boolean scalar = format == JavaRowFormat.SCALAR;
    if (!scalar && format != JavaRowFormat.ARRAY && format != JavaRowFormat.LIST) {
      rows = b.append("arrays", child.physType.convertTo(rows, JavaRowFormat.ARRAY));
    }
    Expression spec = implementor.stash(spec(), PythonBatches.Spec.class);
    b.add(
        Expressions.return_(
            null,
            Expressions.call(
                PythonBatches.class, "apply", rows, spec, Expressions.constant(scalar))));
    PhysType phys =
        PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(), JavaRowFormat.ARRAY, false);
    return implementor.result(phys, b.toBlock());
  }
}

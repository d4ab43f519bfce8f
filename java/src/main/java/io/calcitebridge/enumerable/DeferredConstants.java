package io.calcitebridge.enumerable;

import io.calcitebridge.flink.Constants;
import io.calcitebridge.rewrite.BottomUp;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.adapter.enumerable.CallImplementor;
import org.apache.calcite.adapter.enumerable.EnumerableCalc;
import org.apache.calcite.adapter.enumerable.NullPolicy;
import org.apache.calcite.adapter.enumerable.RexImpTable;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.linq4j.tree.Primitive;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.schema.FunctionParameter;
import org.apache.calcite.schema.ImplementableFunction;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;

/**
 * Constants left in a plan that the Enumerable engine compiles are computed for each row that
 * reaches them, never before the first row.
 *
 * <p>The planner folds every constant it can ({@link Constants}); one that fails (an overflow, a
 * division by zero) stays, to fail when a row reaches it. But the code generator lifts a call of a
 * deterministic method over constants into a static field (linq4j's {@code
 * DeterministicCodeOptimizer}), computed when the class loads: {@code CASE WHEN x > 5 THEN 1 / 0
 * ELSE 0 END} failed over rows where {@code x} is at most 5, and {@code SELECT 1 / 0 FROM t WHERE
 * FALSE} failed over no row, where DuckDB (and the SQL standard) return their rows. CALCITE-6753
 * fixed one such method ({@code SqlFunctions.toInt(String)}) by marking it non-deterministic.
 *
 * <p>Here each literal operand of such a constant (a deterministic scalar call over literals) goes
 * through {@link #value}, a method the optimizer does not lift, so the call is computed where it
 * stands. The plan is rewritten only for the code it compiles to: EXPLAIN and the other backends
 * see it unchanged.
 */
public final class DeferredConstants {
  private DeferredConstants() {}

  /** An identity the code generator does not compute ahead: {@code value(x)} is {@code x}. */
  private static final SqlUserDefinedFunction DEFERRED =
      new SqlUserDefinedFunction(
          new SqlIdentifier("$DEFERRED", SqlParserPos.ZERO),
          ReturnTypes.ARG0,
          null,
          OperandTypes.ANY,
          null,
          new Implementation()) {
        @Override
        public boolean isDeterministic() {
          return false;
        }
      };

  /** {@code rel} with the constants of its calculations computed for each row. */
  public static RelNode apply(RelNode rel) {
    return BottomUp.rewrite(rel, DeferredConstants::step);
  }

  private static RelNode step(RelNode rel) {
    if (!(rel instanceof EnumerableCalc calc)) {
      return rel;
    }
    RexProgram program = calc.getProgram();
    RexBuilder rexBuilder = calc.getCluster().getRexBuilder();
    Deferring deferring = new Deferring(rexBuilder);
    List<RexNode> projects = new ArrayList<>();
    for (RexNode project : program.getProjectList()) {
      projects.add(program.expandLocalRef((org.apache.calcite.rex.RexLocalRef) project));
    }
    RexNode condition =
        program.getCondition() == null ? null : program.expandLocalRef(program.getCondition());
    List<RexNode> newProjects = deferring.apply(projects);
    RexNode newCondition = condition == null ? null : condition.accept(deferring);
    if (!deferring.changed) {
      return rel;
    }
    RexProgram rewritten =
        RexProgram.create(
            program.getInputRowType(),
            newProjects,
            newCondition,
            program.getOutputRowType(),
            rexBuilder);
    return calc.copy(calc.getTraitSet(), calc.getInput(), rewritten);
  }

  /** Wraps the literal operands of each constant call the optimizer would lift. */
  private static final class Deferring extends RexShuttle {
    private final RexBuilder rexBuilder;
    boolean changed;

    Deferring(RexBuilder rexBuilder) {
      this.rexBuilder = rexBuilder;
    }

    @Override
    public RexNode visitCall(RexCall call) {
      if (RexUtil.isConstant(call) && Constants.foldable(call)) {
        return wrapLiterals(call);
      }
      return super.visitCall(call);
    }

    private RexNode wrapLiterals(RexCall call) {
      List<RexNode> operands = new ArrayList<>();
      boolean wrapped = false;
      for (RexNode operand : call.getOperands()) {
        if (operand instanceof RexCall inner) {
          operands.add(wrapLiterals(inner));
        } else if (operand instanceof RexLiteral literal && deferrable(literal)) {
          operands.add(rexBuilder.makeCall(literal.getType(), DEFERRED, List.of(literal)));
          wrapped = true;
        } else {
          operands.add(operand);
        }
      }
      changed |= wrapped;
      return wrapped || !operands.equals(call.getOperands())
          ? call.clone(call.getType(), operands)
          : call;
    }

    /**
     * Numbers, strings and booleans: operands that implementors take as any expression. Symbols
     * (flags such as TRIM's), intervals and datetimes stay literals, as some implementors read
     * them, and so do a SEARCH's ranges (a Sarg, which the engine expands into comparisons).
     */
    private static boolean deferrable(RexLiteral literal) {
      if (literal.getTypeName() == org.apache.calcite.sql.type.SqlTypeName.SARG) {
        return false;
      }
      SqlTypeFamily family = literal.getType().getSqlTypeName().getFamily();
      if (family == null) {
        return false;
      }
      switch (family) {
        case NUMERIC:
        case CHARACTER:
        case BOOLEAN:
          return !literal.isNull();
        default:
          return false;
      }
    }
  }

  /** The generated code of {@link #DEFERRED}: a call of {@link #value}. */
  private static final class Implementation implements ImplementableFunction {
    @Override
    public List<FunctionParameter> getParameters() {
      return List.of();
    }

    @Override
    public CallImplementor getImplementor() {
      return RexImpTable.createImplementor(
          (translator, call, operands) -> {
            Expression x = operands.get(0);
            if (Primitive.of(x.getType()) != null) {
              return Expressions.call(DeferredConstants.class, "value", x);
            }
            return Expressions.convert_(
                Expressions.call(
                    DeferredConstants.class, "value", Expressions.convert_(x, Object.class)),
                x.getType());
          },
          NullPolicy.NONE,
          false);
    }
  }

  // The values, one method per primitive type and one for objects. This class is not
  // @Deterministic, so linq4j computes a call of these for each row.

  public static int value(int x) {
    return x;
  }

  public static long value(long x) {
    return x;
  }

  public static short value(short x) {
    return x;
  }

  public static byte value(byte x) {
    return x;
  }

  public static double value(double x) {
    return x;
  }

  public static float value(float x) {
    return x;
  }

  public static boolean value(boolean x) {
    return x;
  }

  public static char value(char x) {
    return x;
  }

  public static Object value(Object x) {
    return x;
  }
}

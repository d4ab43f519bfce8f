package io.calcitebridge.flink;

import io.calcitebridge.functions.JsonFunctions;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.linq4j.QueryProvider;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexExecutor;
import org.apache.calcite.rex.RexExecutorImpl;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.schema.SchemaPlus;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Constant expressions computed while planning, by the code the Enumerable engine runs.
 *
 * <p>Without an executor Calcite's reduction rules fold nothing, so {@code ts > TIMESTAMP
 * '2024-01-02 00:00:00' - INTERVAL '1' DAY} was computed for each row and never reached a source as
 * a filter it could use. This executor is Calcite's {@link RexExecutorImpl} (the engine's code,
 * compiled once per statement), made safe in three ways:
 *
 * <ul>
 *   <li>An expression that fails (an overflow, a division by zero, a bad cast) stays as it is, so
 *       its error is raised when a row reaches it, as the engine raises it, and never for a
 *       statement that reads no row.
 *   <li>Its data context has no variables: an expression that reads the session (its time zone, the
 *       statement's start time) fails and stays, so a plan never holds a value of another session
 *       or another time. Functions that read the clock or the time zone are also not deterministic
 *       ({@code functions/Fn}), so the rules do not offer them.
 *   <li>A failing expression in a batch does not keep the others from being folded: the batch is
 *       retried one expression at a time.
 * </ul>
 */
public final class Constants implements RexExecutor {
  /** The one executor; it holds no state. */
  public static final Constants EXECUTOR = new Constants();

  private final RexExecutorImpl delegate = new RexExecutorImpl(new NoVariables());

  private Constants() {}

  @Override
  public void reduce(RexBuilder rexBuilder, List<RexNode> constExps, List<RexNode> reducedValues) {
    // Each expression the engine would compute as it is written here is sent, with the engine's
    // checked integer arithmetic; the others stay.
    boolean[] foldable = new boolean[constExps.size()];
    List<RexNode> sent = new ArrayList<>();
    RexNode[] exact = new RexNode[constExps.size()];
    for (int i = 0; i < constExps.size(); i++) {
      exact[i] = Timestamps.castLiteral(rexBuilder, constExps.get(i));
      foldable[i] = exact[i] == null && foldable(constExps.get(i));
      if (foldable[i]) {
        sent.add(CheckedArithmetic.checked(rexBuilder, constExps.get(i)));
      }
    }
    List<RexNode> computed = reduceOrKeep(rexBuilder, sent);
    if (sent.size() > 1 && computed == sent) {
      computed = new ArrayList<>();
      for (RexNode e : sent) {
        computed.addAll(reduceOrKeep(rexBuilder, List.of(e)));
      }
    }
    int next = 0;
    for (int i = 0; i < constExps.size(); i++) {
      if (!foldable[i]) {
        reducedValues.add(exact[i] != null ? exact[i] : constExps.get(i));
        continue;
      }
      RexNode value = computed.get(next);
      // A value that could not be computed is the checked expression: keep the original. So is a
      // NaN: Calcite compares literals with NaN above every number (and equal to itself), which
      // is not how the engine, Java or Flink compare it.
      reducedValues.add(value == sent.get(next) || isNaN(value) ? constExps.get(i) : value);
      next++;
    }
  }

  /**
   * Whether {@code e} is a DOUBLE or FLOAT literal holding NaN. Such a literal is never made while
   * planning: Calcite's simplifier compares two literals with {@code Double.compareTo}, under which
   * NaN equals NaN and is above every number ({@code CAST('NaN' AS DOUBLE) > 1} became TRUE), and
   * forms ranges ({@code SEARCH}) in that order. Kept as the expression that computes it, a NaN is
   * compared when the statement runs, with Java's operators, as Flink compares it.
   */
  static boolean isNaN(RexNode e) {
    return e instanceof RexLiteral literal && literal.getValue() instanceof Double d && d.isNaN();
  }

  /** The values of {@code exps}, or {@code exps} itself when one of them cannot be computed. */
  private List<RexNode> reduceOrKeep(RexBuilder rexBuilder, List<RexNode> exps) {
    if (exps.isEmpty()) {
      return exps;
    }
    // Before the engine's code can call Calcite's JSON functions: they read and write JSON as
    // Flink's from then on. Here, where code is compiled, rather than as every plan's cluster is
    // made: starting Jackson was a tenth of a second of every new process's first query.
    JsonFunctions.readAndWriteAsFlinkFor(exps::toString);
    List<RexNode> out = new ArrayList<>();
    try {
      delegate.reduce(rexBuilder, exps, out);
    } catch (RuntimeException | ExceptionInInitializerError | StackOverflowError e) {
      return exps;
    }
    // Calcite's executor answers with the expressions themselves when one of them fails.
    return out.size() == exps.size() && !out.equals(exps) ? out : exps;
  }

  /**
   * {@code e} with each of its constant, deterministic calls computed; a call that cannot be
   * computed stays. Sources are offered filters whose values are literals: this folds {@code 1 + 2}
   * and {@code TIMESTAMP '...' - INTERVAL '1' DAY} before they are offered.
   */
  public static RexNode fold(RexBuilder rexBuilder, RexNode e) {
    return e.accept(
        new RexShuttle() {
          @Override
          public RexNode visitCall(RexCall call) {
            if (RexUtil.isConstant(call) && foldable(call)) {
              List<RexNode> out = new ArrayList<>();
              EXECUTOR.reduce(rexBuilder, List.of(call), out);
              RexNode reduced = out.get(0);
              if (reduced instanceof RexLiteral && reduced.getType().equals(call.getType())) {
                return reduced;
              }
            }
            return super.visitCall(call);
          }
        });
  }

  /**
   * A literal, or a call computed the same way each time, of scalar type, over such expressions.
   * ROW, ARRAY, MAP and MULTISET values are left to the engine, which rewrites some of them first
   * ({@link RowCasts}).
   */
  public static boolean foldable(RexNode e) {
    // A TIMESTAMP finer than milliseconds: the executor's code counts milliseconds ({@link
    // Timestamps}).
    if (Timestamps.fine(e.getType())) {
      return false;
    }
    if (e.getType().isStruct()
        || e.getType().getComponentType() != null
        || e.getType().getKeyType() != null) {
      return false;
    }
    if (e instanceof RexCall call) {
      if (!call.getOperator().isDeterministic() || call.getOperator().isDynamicFunction()) {
        return false;
      }
      for (RexNode operand : call.getOperands()) {
        if (!foldable(operand)) {
          return false;
        }
      }
      return true;
    }
    return e instanceof RexLiteral;
  }

  /** A data context without variables: reading one fails, and the expression is not folded. */
  private static final class NoVariables implements DataContext {
    private static final JavaTypeFactory TYPES = new JavaTypeFactoryImpl();

    @Override
    public @Nullable SchemaPlus getRootSchema() {
      return null;
    }

    @Override
    public JavaTypeFactory getTypeFactory() {
      return TYPES;
    }

    @Override
    public QueryProvider getQueryProvider() {
      throw new IllegalStateException("no query provider while planning");
    }

    @Override
    public @Nullable Object get(String name) {
      throw new IllegalStateException(name + " is not known while planning");
    }
  }
}

package io.calcitebridge.functions;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import org.apache.calcite.adapter.enumerable.AggAddContext;
import org.apache.calcite.adapter.enumerable.AggContext;
import org.apache.calcite.adapter.enumerable.AggResultContext;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.linq4j.tree.Primitive;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlUserDefinedAggFunction;
import org.apache.calcite.util.Optionality;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * {@code STDDEV_POP}, {@code STDDEV_SAMP} ({@code STDDEV}), {@code VAR_POP} and {@code VAR_SAMP}
 * ({@code VARIANCE}) as Flink computes them on Calcite's engine. Flink sums the squared distances
 * from the running mean with Welford's algorithm, in DOUBLE whatever the argument's type ({@code
 * WelfordM2AggFunction}), divides by {@code n} or {@code n - 1} (NULL for one value), takes {@code
 * POWER(v, 0.5)} for a standard deviation and casts the DOUBLE to the result type: a DECIMAL
 * rounded half up to its scale ({@code DECIMAL(38, 6)}), an integer cut. Calcite's own reduction,
 * {@code (SUM(x * x) - SUM(x) * SUM(x) / n) / (n - 1)}, differs in the last binary digit of a
 * DOUBLE (2.333333333333334 where Flink gives 2.333333333333333) and cuts a DECIMAL result
 * (0.707106 where Flink gives 0.707107).
 *
 * <p>{@link #apply} replaces those aggregate calls in a plan for Calcite's engine by this function,
 * with the same result type; the other backends refuse them.
 */
public final class Welford extends SqlUserDefinedAggFunction {
  private final SqlKind kind;

  private Welford(SqlKind kind) {
    super(
        new SqlIdentifier(kind.sql, SqlParserPos.ZERO),
        SqlKind.OTHER_FUNCTION,
        ReturnTypes
            .AVG_AGG_FUNCTION, // as Calcite types these calls: a rule that re-infers keeps it
        null,
        null,
        new Impl(kind),
        false,
        false,
        Optionality.FORBIDDEN);
    this.kind = kind;
  }

  private static final Welford STDDEV_POP = new Welford(SqlKind.STDDEV_POP);
  private static final Welford STDDEV_SAMP = new Welford(SqlKind.STDDEV_SAMP);
  private static final Welford VAR_POP = new Welford(SqlKind.VAR_POP);
  private static final Welford VAR_SAMP = new Welford(SqlKind.VAR_SAMP);

  /** The kind of Calcite's aggregate this computes. */
  public SqlKind kind() {
    return kind;
  }

  /** {@code rel} with each variance and standard deviation of an aggregate computed as Flink's. */
  public static RelNode apply(RelNode rel) {
    return rel.accept(
        new RelHomogeneousShuttle() {
          @Override
          public RelNode visit(RelNode other) {
            RelNode visited = super.visit(other);
            return visited instanceof Aggregate aggregate ? rewrite(aggregate) : visited;
          }
        });
  }

  private static RelNode rewrite(Aggregate aggregate) {
    boolean changed = false;
    List<AggregateCall> calls = new java.util.ArrayList<>();
    for (AggregateCall call : aggregate.getAggCallList()) {
      Welford f = of(call.getAggregation().getKind());
      if (f == null || call.getArgList().size() != 1) {
        calls.add(call);
        continue;
      }
      calls.add(
          AggregateCall.create(
              call.getParserPosition(),
              f,
              call.isDistinct(),
              call.isApproximate(),
              call.ignoreNulls(),
              call.rexList,
              call.getArgList(),
              call.filterArg,
              call.distinctKeys,
              call.collation,
              call.getType(),
              call.getName()));
      changed = true;
    }
    return changed
        ? aggregate.copy(
            aggregate.getTraitSet(),
            aggregate.getInput(),
            aggregate.getGroupSet(),
            aggregate.getGroupSets(),
            calls)
        : aggregate;
  }

  private static @Nullable Welford of(SqlKind kind) {
    return switch (kind) {
      case STDDEV_POP -> STDDEV_POP;
      case STDDEV_SAMP -> STDDEV_SAMP;
      case VAR_POP -> VAR_POP;
      case VAR_SAMP -> VAR_SAMP;
      default -> null;
    };
  }

  /** Welford's running count, mean and sum of squared distances from the mean. */
  public static final class Acc {
    private long n;
    private double mean;
    private double m2;

    /** Flink's {@code WelfordM2AggFunction.accumulate}. */
    public void add(@Nullable Object value) {
      if (value == null) {
        return;
      }
      double x = ((Number) value).doubleValue();
      n++;
      double delta = x - mean;
      mean += delta / n;
      m2 += delta * (x - mean);
    }

    /**
     * The variance ({@code VAR_POP}, {@code VAR_SAMP}) or standard deviation of the values, cast as
     * Flink casts a DOUBLE to {@code sqlType} ({@code scale} for a DECIMAL).
     */
    public @Nullable Object result(String kind, String sqlType, int scale) {
      boolean sample = kind.endsWith("SAMP");
      if (n == 0 || (sample && n == 1)) {
        return null;
      }
      double v = m2 / (sample ? n - 1 : n);
      if (kind.startsWith("STDDEV")) {
        v = Math.pow(v, 0.5);
      }
      return switch (SqlTypeName.valueOf(sqlType)) {
        case DECIMAL ->
            Double.isFinite(v)
                ? BigDecimal.valueOf(v).setScale(scale, RoundingMode.HALF_UP)
                : castFailure(v);
        case TINYINT -> (byte) v;
        case SMALLINT -> (short) v;
        case INTEGER -> (int) v;
        case BIGINT -> (long) v;
        case REAL -> (float) v;
          // Flink's 4-byte FLOAT is held here as the DOUBLE of its shortest text.
        case FLOAT -> Double.parseDouble(Float.toString((float) v));
        default -> v;
      };
    }

    private static Object castFailure(double v) {
      throw new NumberFormatException("Cannot cast " + v + " to DECIMAL");
    }
  }

  private static final class Impl extends AccumulatorAgg {
    private final SqlKind kind;

    Impl(SqlKind kind) {
      super(Acc.class);
      this.kind = kind;
    }

    @Override
    Expression newAccumulator() {
      return Expressions.new_(Acc.class);
    }

    @Override
    void add(AggContext info, AggAddContext add) {
      add.currentBlock()
          .add(
              Expressions.statement(
                  Expressions.call(
                      add.accumulator().get(0),
                      "add",
                      Expressions.convert_(
                          Expressions.box(add.arguments().get(0)), Object.class))));
    }

    @Override
    public Expression implementResult(AggContext info, AggResultContext result) {
      RelDataType type = info.returnRelType();
      Expression value =
          Expressions.call(
              result.accumulator().get(0),
              "result",
              Expressions.constant(kind.name()),
              Expressions.constant(type.getSqlTypeName().name()),
              Expressions.constant(Math.max(type.getScale(), 0)));
      if (info.returnType() instanceof Class<?> c && c.isPrimitive()) {
        return Expressions.unbox(Expressions.convert_(value, Primitive.box(c)));
      }
      return Expressions.convert_(value, info.returnType());
    }
  }
}

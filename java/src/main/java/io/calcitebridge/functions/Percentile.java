package io.calcitebridge.functions;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.apache.calcite.adapter.enumerable.AggAddContext;
import org.apache.calcite.adapter.enumerable.AggContext;
import org.apache.calcite.adapter.enumerable.AggResultContext;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperandCountRange;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.SqlOperandTypeChecker;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlUserDefinedAggFunction;
import org.apache.calcite.util.Optionality;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Flink's {@code PERCENTILE(value, percentage [, frequency])}: the exact percentile of a group's
 * numbers, interpolated linearly between the two values nearest to {@code percentage * (n - 1)},
 * each value counted {@code frequency} times (1 by default). NULL values are left out; a group
 * without values gives NULL. The percentage is a number between 0 and 1, or an array of them (the
 * result is then an array of percentiles); a percentage outside that range or NULL written as a
 * literal is refused while validating, as in Flink. The result is a {@code DOUBLE}.
 */
final class Percentile extends SqlUserDefinedAggFunction {
  private static final SqlOperandTypeChecker OPERANDS =
      OperandTypes.or(
          OperandTypes.family(SqlTypeFamily.NUMERIC, SqlTypeFamily.NUMERIC),
          OperandTypes.family(SqlTypeFamily.NUMERIC, SqlTypeFamily.ARRAY),
          OperandTypes.family(SqlTypeFamily.NUMERIC, SqlTypeFamily.NUMERIC, SqlTypeFamily.INTEGER),
          OperandTypes.family(SqlTypeFamily.NUMERIC, SqlTypeFamily.ARRAY, SqlTypeFamily.INTEGER));

  Percentile() {
    super(
        new SqlIdentifier("PERCENTILE", SqlParserPos.ZERO),
        SqlKind.OTHER_FUNCTION,
        Percentile::returnType,
        null,
        null,
        new Impl(),
        false,
        false,
        Optionality.FORBIDDEN);
  }

  private static RelDataType returnType(SqlOperatorBinding b) {
    RelDataTypeFactory f = b.getTypeFactory();
    RelDataType d = f.createTypeWithNullability(f.createSqlType(SqlTypeName.DOUBLE), true);
    if (b.getOperandType(1).getSqlTypeName() == SqlTypeName.ARRAY) {
      return f.createTypeWithNullability(f.createArrayType(d, -1), true);
    }
    return d;
  }

  @Override
  public SqlOperandCountRange getOperandCountRange() {
    return OPERANDS.getOperandCountRange();
  }

  @Override
  public boolean checkOperandTypes(SqlCallBinding callBinding, boolean throwOnFailure) {
    if (!OPERANDS.checkOperandTypes(callBinding, throwOnFailure)) {
      return false;
    }
    boolean valid = !callBinding.isOperandNull(1, true);
    if (valid && callBinding.isOperandLiteral(1, false)) {
      BigDecimal p = callBinding.getOperandLiteralValue(1, BigDecimal.class);
      valid = p != null && p.signum() >= 0 && p.compareTo(BigDecimal.ONE) <= 0;
    }
    if (!valid && throwOnFailure) {
      throw callBinding.newValidationSignatureError();
    }
    return valid;
  }

  @Override
  public String getAllowedSignatures(String opNameToUse) {
    return "PERCENTILE(<NUMERIC>, <NUMERIC between 0 and 1 | ARRAY>[, <INTEGER>])";
  }

  /** The values of a group with their counts, and the percentage of its first row. */
  public static final class Acc {
    private final TreeMap<Double, Long> counts = new TreeMap<>();
    private @Nullable Object percentage;
    private long n;

    public void add(@Nullable Object value, @Nullable Object percentage, @Nullable Object freq) {
      if (this.percentage == null) {
        this.percentage = percentage;
      }
      if (value == null) {
        return;
      }
      long times = freq == null ? 1 : ((Number) freq).longValue();
      if (times <= 0) {
        return;
      }
      counts.merge(((Number) value).doubleValue(), times, Long::sum);
      n += times;
    }

    public @Nullable Object result() {
      if (percentage instanceof List<?> list) {
        if (n == 0) {
          return null;
        }
        List<@Nullable Double> out = new ArrayList<>();
        for (Object p : list) {
          out.add(p == null ? null : at(((Number) p).doubleValue()));
        }
        return out;
      }
      return n == 0 || percentage == null ? null : at(((Number) percentage).doubleValue());
    }

    private double at(double p) {
      if (p < 0 || p > 1) {
        throw new IllegalArgumentException(
            "PERCENTILE: the percentage must be between 0.0 and 1.0, not " + p);
      }
      double position = p * (n - 1);
      long lower = (long) Math.floor(position);
      long upper = (long) Math.ceil(position);
      double lo = nth(lower);
      double hi = upper == lower ? lo : nth(upper);
      return lo + (position - lower) * (hi - lo);
    }

    /** The value at 0-based position {@code i} of the sorted values, counts expanded. */
    private double nth(long i) {
      long seen = 0;
      for (var e : counts.entrySet()) {
        seen += e.getValue();
        if (i < seen) {
          return e.getKey();
        }
      }
      return counts.lastKey();
    }
  }

  private static final class Impl extends AccumulatorAgg {
    Impl() {
      super(Acc.class);
    }

    @Override
    Expression newAccumulator() {
      return Expressions.new_(Acc.class);
    }

    @Override
    void add(AggContext info, AggAddContext add) {
      List<Expression> args = add.arguments();
      Expression freq =
          args.size() > 2 ? Expressions.box(args.get(2)) : Expressions.constant(null, Object.class);
      add.currentBlock()
          .add(
              Expressions.statement(
                  Expressions.call(
                      add.accumulator().get(0),
                      "add",
                      Expressions.convert_(Expressions.box(args.get(0)), Object.class),
                      Expressions.convert_(Expressions.box(args.get(1)), Object.class),
                      Expressions.convert_(freq, Object.class))));
    }

    @Override
    public Expression implementResult(AggContext info, AggResultContext result) {
      Expression value = Expressions.call(result.accumulator().get(0), "result");
      Class<?> type =
          info.returnRelType().getSqlTypeName() == SqlTypeName.ARRAY ? List.class : Double.class;
      return Expressions.convert_(value, type);
    }
  }
}

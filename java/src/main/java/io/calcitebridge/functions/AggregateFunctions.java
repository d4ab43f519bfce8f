package io.calcitebridge.functions;

import org.apache.calcite.schema.impl.AggregateFunctionImpl;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.InferTypes;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.util.SqlShuttle;
import org.apache.calcite.sql.validate.SqlUserDefinedAggFunction;
import org.apache.calcite.util.Optionality;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Flink's aggregate functions that Calcite has only as window functions: {@code FIRST_VALUE(x)} and
 * {@code LAST_VALUE(x)} without {@code OVER} are the first and the last non-NULL value of the group
 * in the order the rows arrive, or NULL when there is none, as in Flink; under {@code OVER} too,
 * the first and the last non-NULL value of the window's frame, as Flink's window aggregates skip
 * NULLs (Calcite's window functions do not). {@link #aggregates} swaps them in before validation.
 */
public final class AggregateFunctions {
  private AggregateFunctions() {}

  /** The accumulator of both: the value kept so far. */
  public static final class Kept {
    @Nullable Object value;
  }

  /** {@code FIRST_VALUE}: keeps the first value it is given (NULLs are not given). */
  public static final class First {
    private First() {}

    public static Kept init() {
      return new Kept();
    }

    public static Kept add(Kept kept, Object value) {
      if (kept.value == null) {
        kept.value = value;
      }
      return kept;
    }

    public static @Nullable Object result(Kept kept) {
      return kept.value;
    }
  }

  /** {@code LAST_VALUE}: keeps the last value it is given (NULLs are not given). */
  public static final class Last {
    private Last() {}

    public static Kept init() {
      return new Kept();
    }

    public static Kept add(Kept kept, Object value) {
      kept.value = value;
      return kept;
    }

    public static @Nullable Object result(Kept kept) {
      return kept.value;
    }
  }

  public static final SqlUserDefinedAggFunction FIRST_VALUE = aggregate("FIRST_VALUE", First.class);
  public static final SqlUserDefinedAggFunction LAST_VALUE = aggregate("LAST_VALUE", Last.class);

  private static SqlUserDefinedAggFunction aggregate(String name, Class<?> implementation) {
    return new SqlUserDefinedAggFunction(
        new SqlIdentifier(name, SqlParserPos.ZERO),
        SqlKind.OTHER_FUNCTION,
        ReturnTypes.ARG0_FORCE_NULLABLE,
        InferTypes.RETURN_TYPE,
        OperandTypes.operandMetadata(
            java.util.List.of(SqlTypeFamily.ANY),
            types -> java.util.List.of(types.createSqlType(SqlTypeName.ANY)),
            i -> "value",
            i -> false),
        java.util.Objects.requireNonNull(AggregateFunctionImpl.create(implementation)),
        false,
        false,
        Optionality.FORBIDDEN) {
      /**
       * Typed as here, not looked up again by name (which would find Calcite's window function).
       */
      @Override
      public org.apache.calcite.rel.type.RelDataType deriveType(
          org.apache.calcite.sql.validate.SqlValidator validator,
          org.apache.calcite.sql.validate.SqlValidatorScope scope,
          SqlCall call) {
        for (SqlNode operand : call.getOperandList()) {
          validator.deriveType(scope, operand);
        }
        return validateOperands(validator, scope, call);
      }
    };
  }

  /**
   * {@code node} with each {@code FIRST_VALUE} and {@code LAST_VALUE} call that is not the function
   * of an {@code OVER} made the aggregate of this class; Calcite's validator refuses them without
   * {@code OVER} ("OVER clause is necessary for window functions").
   */
  public static SqlNode aggregates(SqlNode node) {
    SqlNode out =
        node.accept(
            new SqlShuttle() {
              @Override
              public @Nullable SqlNode visit(SqlCall call) {
                if (call.getKind() == SqlKind.OVER) {
                  SqlNode function = call.operand(0);
                  SqlUserDefinedAggFunction skipping =
                      function instanceof SqlCall windowed ? nullSkipping(windowed) : null;
                  if (skipping != null) {
                    // Flink's FIRST_VALUE and LAST_VALUE over a window skip NULLs too.
                    call.setOperand(0, rewritten(skipping, (SqlCall) function, this));
                  } else if (function instanceof SqlCall windowed) {
                    for (int i = 0; i < windowed.operandCount(); i++) {
                      SqlNode operand = windowed.operand(i);
                      if (operand != null) {
                        windowed.setOperand(i, operand.accept(this));
                      }
                    }
                  }
                  SqlNode window = call.operand(1);
                  if (window != null) {
                    call.setOperand(1, window.accept(this));
                  }
                  return call;
                }
                SqlUserDefinedAggFunction skipping = nullSkipping(call);
                if (skipping != null) {
                  return rewritten(skipping, call, this);
                }
                return super.visit(call);
              }
            });
    return out == null ? node : out;
  }

  /** This class's aggregate for a call of {@code FIRST_VALUE(x)} or {@code LAST_VALUE(x)}. */
  private static @Nullable SqlUserDefinedAggFunction nullSkipping(SqlCall call) {
    if (call.operandCount() != 1 || call.getFunctionQuantifier() != null) {
      return null;
    }
    String name = call.getOperator().getName();
    if (name.equalsIgnoreCase("FIRST_VALUE")) {
      return FIRST_VALUE;
    }
    return name.equalsIgnoreCase("LAST_VALUE") ? LAST_VALUE : null;
  }

  private static SqlNode rewritten(SqlUserDefinedAggFunction op, SqlCall call, SqlShuttle shuttle) {
    SqlNode operand = call.operand(0);
    SqlNode visited = operand == null ? null : operand.accept(shuttle);
    return op.createCall(call.getParserPosition(), visited);
  }
}

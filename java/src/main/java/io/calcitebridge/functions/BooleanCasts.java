package io.calcitebridge.functions;

import java.math.BigDecimal;
import java.util.List;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.fun.SqlCastFunction;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorScope;
import org.apache.calcite.sql2rel.SqlRexContext;

/**
 * Flink's {@code CAST(b AS <number>)} of a BOOLEAN: 1 for TRUE, 0 for FALSE, NULL for NULL, to
 * every integer type, DECIMAL, FLOAT and DOUBLE ({@code TRY_CAST} alike, which never fails here).
 * Calcite's CAST refuses a BOOLEAN to a number while validating, so the validator gives such a cast
 * the operator {@link #CAST} (or {@link #TRY_CAST}), which accepts it, and SQL conversion writes it
 * as {@code CASE WHEN b THEN 1 WHEN NOT b THEN 0 END} of the target type, which every backend runs.
 */
public final class BooleanCasts {
  private BooleanCasts() {}

  /** CAST of a BOOLEAN to a number; its type is NULL where the BOOLEAN is. */
  public static final SqlCastFunction CAST = new Cast(false);

  /** TRY_CAST of a BOOLEAN to a number; its type may be NULL, as TRY_CAST's is. */
  public static final SqlCastFunction TRY_CAST = new Cast(true);

  private static final class Cast extends SqlCastFunction {
    private final boolean nullable;

    Cast(boolean nullable) {
      this.nullable = nullable;
    }

    @Override
    public boolean checkOperandTypes(SqlCallBinding callBinding, boolean throwOnFailure) {
      return true;
    }

    @Override
    public RelDataType inferReturnType(SqlOperatorBinding binding) {
      return binding
          .getTypeFactory()
          .createTypeWithNullability(
              binding.getOperandType(1), nullable || binding.getOperandType(0).isNullable());
    }

    /** As validated, without looking CAST up again (which would give Calcite's operator). */
    @Override
    public RelDataType deriveType(SqlValidator validator, SqlValidatorScope scope, SqlCall call) {
      for (SqlNode operand : call.getOperandList()) {
        validator.deriveType(scope, operand);
      }
      return validateOperands(validator, scope, call);
    }
  }

  /** Whether a cast of a value of {@code from} to {@code to} is one of these. */
  public static boolean converts(RelDataType from, RelDataType to) {
    return from.getSqlTypeName() == SqlTypeName.BOOLEAN
        && to.getSqlTypeName() != SqlTypeName.NULL
        && (SqlTypeFamily.EXACT_NUMERIC.contains(to)
            || SqlTypeFamily.APPROXIMATE_NUMERIC.contains(to));
  }

  /** The conversion of a call of {@link #CAST} or {@link #TRY_CAST}. */
  public static RexNode convert(SqlRexContext cx, SqlCall c) {
    RexBuilder rex = cx.getRexBuilder();
    RelDataType target = cx.getValidator().getValidatedNodeType(c);
    RexNode b = cx.convertExpression(c.operand(0));
    if (target.getSqlTypeName() == SqlTypeName.DECIMAL
        && target.getPrecision() - target.getScale() < 1) {
      // 1 does not fit DECIMAL(s, s): the cast of the INTEGER fails as another overflow does.
      RelDataType integer =
          rex.getTypeFactory()
              .createTypeWithNullability(
                  rex.getTypeFactory().createSqlType(SqlTypeName.INTEGER), target.isNullable());
      return rex.makeCast(target, ones(rex, b, integer), false, false);
    }
    return ones(rex, b, target);
  }

  /** 1 for TRUE, 0 for FALSE, NULL for NULL, of {@code type}. */
  private static RexNode ones(RexBuilder rex, RexNode b, RelDataType type) {
    RelDataType number = rex.getTypeFactory().createTypeWithNullability(type, false);
    RexNode one = rex.makeLiteral(BigDecimal.ONE, number, false);
    RexNode zero = rex.makeLiteral(BigDecimal.ZERO, number, false);
    if (!b.getType().isNullable()) {
      return rex.makeCall(type, SqlStdOperatorTable.CASE, List.of(b, one, zero));
    }
    return rex.makeCall(
        type,
        SqlStdOperatorTable.CASE,
        List.of(b, one, rex.makeCall(SqlStdOperatorTable.NOT, b), zero, rex.makeNullLiteral(type)));
  }
}

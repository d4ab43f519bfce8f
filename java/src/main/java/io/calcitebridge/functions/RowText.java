package io.calcitebridge.functions;

import java.util.List;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.fun.SqlCastFunction;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql2rel.SqlRexContext;

/**
 * Flink's {@code CAST(r AS STRING)} of a ROW: {@code (Bob, 42)}, each field as its own cast to
 * STRING gives it, {@code NULL} for a NULL field, a nested ROW in parentheses; NULL for a NULL row.
 * Calcite's cast refuses a ROW to a character type, so the validator gives such a cast the operator
 * {@link #CAST}, which accepts it, and SQL conversion builds the text from the fields. A ROW
 * holding an ARRAY, MAP, MULTISET or VARIANT field is still refused (Flink writes those too).
 */
public final class RowText {
  private RowText() {}

  /** CAST of a ROW to a character type; the validator sets it on such a call. */
  public static final SqlCastFunction CAST =
      new SqlCastFunction() {
        @Override
        public boolean checkOperandTypes(SqlCallBinding callBinding, boolean throwOnFailure) {
          return true;
        }

        /** The character type, NULL where the ROW is. */
        @Override
        public RelDataType inferReturnType(org.apache.calcite.sql.SqlOperatorBinding binding) {
          return binding
              .getTypeFactory()
              .createTypeWithNullability(
                  binding.getOperandType(1), binding.getOperandType(0).isNullable());
        }

        /** As validated, without looking CAST up again (which would give Calcite's operator). */
        @Override
        public RelDataType deriveType(
            org.apache.calcite.sql.validate.SqlValidator validator,
            org.apache.calcite.sql.validate.SqlValidatorScope scope,
            SqlCall call) {
          for (org.apache.calcite.sql.SqlNode operand : call.getOperandList()) {
            validator.deriveType(scope, operand);
          }
          return validateOperands(validator, scope, call);
        }
      };

  /**
   * Whether a ROW value is NULL itself; SQL's {@code IS NULL} of a ROW is also TRUE for a row whose
   * fields are all NULL, which Flink writes as {@code (NULL)}.
   */
  private static final SqlOperator ROW_IS_NULL =
      Fn.fn(
          "IS NULL",
          org.apache.calcite.sql.type.ReturnTypes.BOOLEAN,
          org.apache.calcite.sql.type.OperandTypes.ANY,
          RowText.class,
          "rowIsNull",
          org.apache.calcite.adapter.enumerable.NullPolicy.NONE);

  public static boolean rowIsNull(@org.checkerframework.checker.nullness.qual.Nullable Object row) {
    return row == null;
  }

  /** Whether a CAST of a value of {@code source} to a character type is a ROW's text. */
  public static boolean formats(RelDataType source) {
    if (!source.isStruct() || source.getSqlTypeName() != SqlTypeName.ROW) {
      return false;
    }
    for (RelDataTypeField field : source.getFieldList()) {
      RelDataType t = field.getType();
      if (t.isStruct() ? !formats(t) : !scalar(t)) {
        return false;
      }
    }
    return true;
  }

  private static boolean scalar(RelDataType t) {
    SqlTypeName n = t.getSqlTypeName();
    return n != SqlTypeName.ARRAY
        && n != SqlTypeName.MAP
        && n != SqlTypeName.MULTISET
        && n != SqlTypeName.VARIANT
        && n != SqlTypeName.ANY
        && n != SqlTypeName.OTHER
        && n != SqlTypeName.NULL
        && SqlTypeUtil.canCastFrom(
            new org.apache.calcite.sql.type.BasicSqlType(
                org.apache.calcite.rel.type.RelDataTypeSystem.DEFAULT, SqlTypeName.VARCHAR),
            t,
            true);
  }

  /** The conversion of {@code CAST(r AS <character type>)} with the operator {@link #CAST}. */
  public static RexNode convert(SqlRexContext cx, SqlCall c) {
    RexBuilder rex = cx.getRexBuilder();
    RelDataType target = cx.getValidator().getValidatedNodeType(c);
    RexNode row = cx.convertExpression(c.operand(0));
    return rex.makeCast(target, text(rex, row), false, false);
  }

  private static RelDataType string(RelDataTypeFactory f, boolean nullable) {
    return f.createTypeWithNullability(
        f.createSqlType(SqlTypeName.VARCHAR, Integer.MAX_VALUE), nullable);
  }

  /**
   * The text of {@code x} as Flink's CAST to STRING writes it, a {@code VARCHAR}; NULL for NULL. A
   * {@code TIMESTAMP(p)} has {@code p} digits of fraction.
   */
  public static RexNode text(RexBuilder rex, RexNode x) {
    RelDataTypeFactory f = rex.getTypeFactory();
    RelDataType type = x.getType();
    if (!type.isStruct()) {
      if (type.getSqlTypeName() == SqlTypeName.TIMESTAMP && type.getPrecision() > 0) {
        return rex.makeCall(
            string(f, type.isNullable()),
            TemporalFunctions.TIMESTAMP_TO_STRING,
            List.of(x, rex.makeExactLiteral(java.math.BigDecimal.valueOf(type.getPrecision()))));
      }
      if (SqlTypeFamily.BINARY.contains(type)) {
        return rex.makeCall(string(f, type.isNullable()), NumberFunctions.DECODE_UTF8, List.of(x));
      }
      return rex.makeCast(string(f, type.isNullable()), x, false, false);
    }
    RelDataType text = string(f, false);
    RexNode out = rex.makeLiteral("(");
    List<RelDataTypeField> fields = type.getFieldList();
    for (int i = 0; i < fields.size(); i++) {
      RexNode field = text(rex, rex.makeFieldAccess(x, i));
      if (field.getType().isNullable()) {
        field =
            rex.makeCall(
                text,
                SqlStdOperatorTable.CASE,
                List.of(
                    rex.makeCall(SqlStdOperatorTable.IS_NULL, field),
                    rex.makeLiteral("NULL"),
                    rex.makeCast(text, field, false, false)));
      }
      if (i > 0) {
        out = rex.makeCall(text, SqlStdOperatorTable.CONCAT, List.of(out, rex.makeLiteral(", ")));
      }
      out = rex.makeCall(text, SqlStdOperatorTable.CONCAT, List.of(out, field));
    }
    out = rex.makeCall(text, SqlStdOperatorTable.CONCAT, List.of(out, rex.makeLiteral(")")));
    if (!type.isNullable()) {
      return out;
    }
    if (org.apache.calcite.rex.RexUtil.isNullLiteral(x, true)) {
      return rex.makeNullLiteral(string(f, true));
    }
    return rex.makeCall(
        string(f, true),
        SqlStdOperatorTable.CASE,
        List.of(
            rex.makeCall(ROW_IS_NULL, x),
            rex.makeNullLiteral(string(f, true)),
            rex.makeCast(string(f, true), out, false, false)));
  }
}

package io.calcitebridge.validate;

import java.util.List;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.implicit.TypeCoercionImpl;

/**
 * Calcite's implicit type coercion, except that a sign ({@code +d}, {@code -d}) does not turn a
 * string into a number: {@code SELECT + + d} with {@code d STRING} validated, then failed on the
 * first value that was not a number. As in Flink and DuckDB, a sign needs a numeric or interval
 * operand, and a string one is a validation error.
 */
public final class BridgeTypeCoercion extends TypeCoercionImpl {
  public BridgeTypeCoercion(RelDataTypeFactory typeFactory, SqlValidator validator) {
    super(typeFactory, validator);
  }

  @Override
  public boolean builtinFunctionCoercion(
      SqlCallBinding binding,
      List<RelDataType> operandTypes,
      List<SqlTypeFamily> expectedFamilies) {
    SqlKind kind = binding.getOperator().getKind();
    if ((kind == SqlKind.PLUS_PREFIX || kind == SqlKind.MINUS_PREFIX)
        && operandTypes.stream().anyMatch(SqlTypeUtil::isCharacter)) {
      return false;
    }
    return super.builtinFunctionCoercion(binding, operandTypes, expectedFamilies);
  }
}

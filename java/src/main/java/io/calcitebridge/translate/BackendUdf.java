package io.calcitebridge.translate;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;

/**
 * A call of a function that a backend has and our SQL does not, written by name with the type of
 * the call it replaces: the dynamic-columns functions of DuckDB ({@link DuckDbDynCol}) and the UDFs
 * registered in Spark ({@link SparkDynCol}).
 */
class BackendUdf extends SqlFunction {
  BackendUdf(String name, RelDataType type) {
    super(
        name,
        SqlKind.OTHER_FUNCTION,
        ReturnTypes.explicit(type),
        null,
        OperandTypes.VARIADIC,
        SqlFunctionCategory.SYSTEM);
  }
}

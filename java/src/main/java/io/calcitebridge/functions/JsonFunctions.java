package io.calcitebridge.functions;

import static io.calcitebridge.functions.Fn.Nulls.ANY;
import static io.calcitebridge.functions.Fn.strict;
import static io.calcitebridge.functions.Fn.string;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Set;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Flink's JSON functions that Calcite lacks ({@code JSON_STRING}, {@code JSON}), and Flink's type
 * for the results of Calcite's: {@code STRING}, where Calcite's are {@code VARCHAR(2000)} ({@link
 * #STRING_RESULTS}; the validator gives them Flink's type and SQL conversion casts to it).
 */
public final class JsonFunctions {
  private JsonFunctions() {}

  private static final Class<?> C = JsonFunctions.class;
  private static final ObjectMapper MAPPER = new ObjectMapper();

  /** {@code JSON_STRING(value)}: the value as JSON text; NULL for NULL. */
  public static final SqlOperator JSON_STRING =
      strict(
          "JSON_STRING",
          string(ANY),
          OperandTypes.or(
              OperandTypes.NUMERIC,
              OperandTypes.BOOLEAN,
              OperandTypes.CHARACTER,
              OperandTypes.ARRAY,
              OperandTypes.MAP),
          C,
          "jsonString");

  /**
   * {@code JSON(text)}: JSON text that {@code JSON_OBJECT} and {@code JSON_ARRAY} take as a JSON
   * value rather than a string; SQL conversion makes it Calcite's {@code FORMAT JSON} there.
   */
  public static final SqlOperator JSON =
      strict("JSON", string(ANY), OperandTypes.CHARACTER, C, "json");

  /** Calcite's JSON functions whose {@code VARCHAR(2000)} result is Flink's {@code STRING}. */
  public static final Set<SqlOperator> STRING_RESULTS =
      Set.of(
          SqlStdOperatorTable.JSON_VALUE,
          SqlStdOperatorTable.JSON_QUERY,
          SqlStdOperatorTable.JSON_OBJECT,
          SqlStdOperatorTable.JSON_ARRAY);

  /**
   * {@code x IS JSON [VALUE | OBJECT | ARRAY | SCALAR]}: FALSE, not NULL, for a NULL {@code x}, as
   * in Flink; the result is {@code BOOLEAN NOT NULL}.
   */
  public static final Set<SqlOperator> IS_JSON =
      Set.of(
          SqlStdOperatorTable.IS_JSON_VALUE,
          SqlStdOperatorTable.IS_JSON_OBJECT,
          SqlStdOperatorTable.IS_JSON_ARRAY,
          SqlStdOperatorTable.IS_JSON_SCALAR);

  public static final List<SqlOperator> ALL = List.of(JSON_STRING, JSON);

  /**
   * Flink's type for a result of {@link #STRING_RESULTS} (STRING for VARCHAR(2000)) or {@link
   * #IS_JSON} (NOT NULL).
   */
  public static RelDataType flinkType(RelDataTypeFactory f, RelDataType type) {
    if (type.getSqlTypeName() == SqlTypeName.BOOLEAN) {
      return f.createTypeWithNullability(type, false);
    }
    if (type.getSqlTypeName() == SqlTypeName.VARCHAR && type.getPrecision() == 2000) {
      return f.createTypeWithNullability(
          f.createSqlType(SqlTypeName.VARCHAR, Integer.MAX_VALUE), type.isNullable());
    }
    return type;
  }

  public static String jsonString(Object value) {
    try {
      return MAPPER.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("JSON_STRING: " + e.getOriginalMessage(), e);
    }
  }

  public static String json(String text) {
    return text;
  }
}

package io.calcitebridge.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.apache.calcite.config.CalciteConnectionConfig;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeSystem;
import org.apache.calcite.rel.type.StructKind;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeFactoryImpl;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Tests of type names: parsing, unparsing and conversion to RelDataType. */
class BridgeTypesTest {
  private final RelDataTypeFactory typeFactory = new SqlTypeFactoryImpl(RelDataTypeSystem.DEFAULT);

  /** Parses a type as the target of a CAST, as written in DDL or a query. */
  static SqlDataTypeSpec parseType(String type) throws Exception {
    final SqlNode cast = BridgeParser.parseExpression("CAST(x AS " + type + ")");
    return (SqlDataTypeSpec) ((SqlCall) cast).operand(1);
  }

  /** A column type: nullable unless it says NOT NULL, as our grammar sets it. */
  private RelDataType columnType(String type) throws Exception {
    final SqlNode create = BridgeParser.parseStatement("CREATE TABLE t (c " + type + ")");
    final SqlPhysicalColumn column = (SqlPhysicalColumn) ((SqlCreateTable) create).columns().get(0);
    return BridgeTypes.toRelDataType(column.type(), typeFactory);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        // written type | unparsed | full type string of the column
        "STRING | STRING | VARCHAR(65536)",
        "BYTES | BYTES | VARBINARY(65536)",
        "TIMESTAMP_LTZ(3) | TIMESTAMP_LTZ(3) | TIMESTAMP_WITH_LOCAL_TIME_ZONE(3)",
        "TIMESTAMP_LTZ | TIMESTAMP_LTZ | TIMESTAMP_WITH_LOCAL_TIME_ZONE(0)",
        "TIMESTAMP(3) WITH LOCAL TIME ZONE | TIMESTAMP(3) WITH LOCAL TIME ZONE | TIMESTAMP_WITH_LOCAL_TIME_ZONE(3)",
        "INT NOT NULL | INTEGER NOT NULL | INTEGER NOT NULL",
        "BIGINT | BIGINT | BIGINT",
        "DECIMAL(10, 2) | DECIMAL(10, 2) | DECIMAL(10, 2)",
        "VARCHAR(5) | VARCHAR(5) | VARCHAR(5)",
        "DOUBLE | DOUBLE | DOUBLE",
        "BOOLEAN NOT NULL | BOOLEAN NOT NULL | BOOLEAN NOT NULL",
        "DATE | DATE | DATE",
        "TIME(3) | TIME(3) | TIME(3)",
        "ARRAY<INT> | ARRAY<INTEGER> | INTEGER ARRAY",
        "ARRAY<INT NOT NULL> NOT NULL | ARRAY<INTEGER NOT NULL> NOT NULL | INTEGER NOT NULL ARRAY NOT NULL",
        "INT ARRAY | INTEGER ARRAY | INTEGER ARRAY",
        "MAP<BIGINT, DOUBLE NOT NULL> | MAP<BIGINT, DOUBLE NOT NULL> | (BIGINT, DOUBLE NOT NULL) MAP",
        // Calcite makes every field of a nullable ROW nullable; a ROW ... NOT NULL
        // keeps the NOT NULL of its fields.
        "ROW<a INT, b BIGINT NOT NULL> | ROW<`a` INTEGER, `b` BIGINT NOT NULL> | RecordType:peek_no_expand(INTEGER a, BIGINT b)",
        "ROW<a INT, b BIGINT NOT NULL> NOT NULL | ROW<`a` INTEGER, `b` BIGINT NOT NULL> NOT NULL | RecordType:peek_no_expand(INTEGER a, BIGINT NOT NULL b) NOT NULL",
        "ROW(a INT, b BIGINT NOT NULL) NOT NULL | ROW(`a` INTEGER, `b` BIGINT NOT NULL) NOT NULL | RecordType:peek_no_expand(INTEGER a, BIGINT NOT NULL b) NOT NULL",
        "ROW<a ROW<b ARRAY<MAP<INT, ROW(c DATE)>>>> | ROW<`a` ROW<`b` ARRAY<MAP<INTEGER, ROW(`c` DATE)>>>> | RecordType:peek_no_expand(RecordType:peek_no_expand((INTEGER, RecordType:peek_no_expand(DATE c)) MAP ARRAY b) a)",
      })
  void convert(String written, String unparsed, String full) throws Exception {
    assertEquals(unparsed, unparseColumnType(written));
    assertEquals(unparsed, unparseColumnType(unparsed), "fixpoint");
    assertEquals(full, columnType(written).getFullTypeString());
  }

  private static String unparseColumnType(String type) throws Exception {
    final SqlCreateTable create =
        (SqlCreateTable) BridgeParser.parseStatement("CREATE TABLE t (c " + type + ")");
    final String column = BridgeParser.unparse(create.columns().get(0));
    assertTrue(column.startsWith("`c` "), column);
    return column.substring(4);
  }

  @Test
  void rowIsPeekFieldsNoExpand() throws Exception {
    final RelDataType type = columnType("ROW<name STRING, age INT NOT NULL> NOT NULL");
    assertEquals(StructKind.PEEK_FIELDS_NO_EXPAND, type.getStructKind());
    assertEquals(List.of("name", "age"), type.getFieldNames());
    assertFalse(type.isNullable());
    assertTrue(type.getFieldList().get(0).getType().isNullable());
    assertFalse(type.getFieldList().get(1).getType().isNullable());
    // Nested rows, and rows made nullable, keep their kind.
    final RelDataType nested = columnType("ROW<a ROW<b INT>>");
    assertTrue(nested.isNullable());
    assertEquals(StructKind.PEEK_FIELDS_NO_EXPAND, nested.getStructKind());
    assertEquals(
        StructKind.PEEK_FIELDS_NO_EXPAND, nested.getFieldList().get(0).getType().getStructKind());
  }

  @Test
  void stringIsVarcharOfMaximumLength() throws Exception {
    final RelDataType type = columnType("STRING");
    assertEquals(SqlTypeName.VARCHAR, type.getSqlTypeName());
    assertEquals(
        typeFactory.getTypeSystem().getMaxPrecision(SqlTypeName.VARCHAR), type.getPrecision());
    assertEquals(SqlTypeName.VARBINARY, columnType("BYTES").getSqlTypeName());
  }

  @Test
  void unknownTypeHasAPosition() throws Exception {
    // CAST leaves an unknown name to later; the conversion reports it.
    final SqlDataTypeSpec spec = parseType("ROW<a FOO>");
    final CalciteContextException e =
        assertThrows(
            CalciteContextException.class, () -> BridgeTypes.toRelDataType(spec, typeFactory));
    assertTrue(e.getMessage().contains("Unknown datatype name 'FOO'"), e.getMessage());
    assertEquals(1, e.getPosLine());
    assertEquals(17, e.getPosColumn());
  }

  @Test
  void validatorDerivesTheSameTypes() throws Exception {
    final CalciteCatalogReader catalogReader =
        new CalciteCatalogReader(
            CalciteSchema.createRootSchema(false),
            List.of(),
            typeFactory,
            CalciteConnectionConfig.DEFAULT);
    final SqlValidator validator =
        SqlValidatorUtil.newValidator(
            SqlStdOperatorTable.instance(),
            catalogReader,
            typeFactory,
            SqlValidator.Config.DEFAULT);
    for (String type :
        List.of(
            "STRING",
            "BYTES",
            "TIMESTAMP_LTZ(3)",
            "ROW<a INT, b ARRAY<ROW(c STRING)>>",
            "MAP<STRING, ARRAY<INT NOT NULL>>")) {
      final SqlDataTypeSpec spec = parseType(type).withNullable(true);
      assertEquals(BridgeTypes.toRelDataType(spec, typeFactory), spec.deriveType(validator), type);
    }
    final SqlNode query =
        BridgeParser.parseStatement(
            "SELECT CAST(NULL AS ROW<a INT, b STRING>) AS r,"
                + " CAST('a' AS STRING) AS s, CAST(NULL AS MAP<STRING, INT>) AS m");
    final RelDataType rowType = validator.getValidatedNodeType(validator.validate(query));
    final RelDataType r = rowType.getFieldList().get(0).getType();
    assertEquals(StructKind.PEEK_FIELDS_NO_EXPAND, r.getStructKind());
    assertEquals(List.of("a", "b"), r.getFieldNames());
    assertEquals(SqlTypeName.VARCHAR, rowType.getFieldList().get(1).getType().getSqlTypeName());
    assertEquals(SqlTypeName.MAP, rowType.getFieldList().get(2).getType().getSqlTypeName());
  }
}

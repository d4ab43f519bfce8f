package io.calcitebridge.arrow;

import static io.calcitebridge.arrow.TestData.TF;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.calcitebridge.types.ArrowTypes;
import java.util.List;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.StructKind;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.Test;

/** Tests {@link ArrowTypes} in both directions. */
class ArrowTypesTest {
  private static Field field(String name, ArrowType type, boolean nullable, Field... children) {
    return new Field(name, new FieldType(nullable, type, null), List.of(children));
  }

  /**
   * A validate's schema message, written without Arrow's {@code Schema} class, is the bytes Arrow
   * writes for the same schema, for every type: scalars, ROW, ARRAY, MAP, MULTISET, nested.
   */
  @Test
  void schemaMessageIsArrowsOwn() throws Exception {
    RelDataType multiset =
        TF.builder()
            .add(
                "ms",
                TestData.nullable(TF.createMultisetType(TestData.type(SqlTypeName.VARCHAR), -1)))
            .build();
    RelDataType none = TF.builder().build();
    for (RelDataType rowType :
        List.of(TestData.allTypes(false), TestData.allTypes(true), multiset, none)) {
      byte[] ours = ArrowTypes.schemaMessage(rowType);
      Schema arrows = ArrowTypes.toSchema(rowType);
      org.junit.jupiter.api.Assertions.assertArrayEquals(arrows.serializeAsMessage(), ours);
      assertEquals(arrows, Schema.deserializeMessage(java.nio.ByteBuffer.wrap(ours)));
    }
  }

  /**
   * The messages kept by row type give each row type its own message, among more row types than are
   * kept, asked for again in another order.
   */
  @Test
  void keptSchemaMessagesBelongToTheirRowTypes() {
    List<RelDataType> rowTypes = new java.util.ArrayList<>();
    for (int i = 0; i < 40; i++) {
      rowTypes.add(
          TF.builder()
              .add("c" + i, TestData.type(i % 2 == 0 ? SqlTypeName.INTEGER : SqlTypeName.VARCHAR))
              .build());
    }
    for (int round = 0; round < 3; round++) {
      for (int i = 0; i < rowTypes.size(); i++) {
        RelDataType rowType = rowTypes.get(round == 1 ? rowTypes.size() - 1 - i : i % 5);
        org.junit.jupiter.api.Assertions.assertArrayEquals(
            ArrowTypes.toSchema(rowType).serializeAsMessage(), ArrowTypes.schemaMessage(rowType));
      }
    }
  }

  @Test
  void calciteToArrowScalars() {
    Schema schema = ArrowTypes.toSchema(TestData.allTypes(false));
    assertEquals(new ArrowType.Int(32, true), schema.findField("nn").getType());
    assertFalse(schema.findField("nn").isNullable());
    assertTrue(schema.findField("i").isNullable());
    assertEquals(ArrowType.Bool.INSTANCE, schema.findField("bo").getType());
    assertEquals(new ArrowType.Int(8, true), schema.findField("ti").getType());
    assertEquals(new ArrowType.Int(16, true), schema.findField("si").getType());
    assertEquals(new ArrowType.Int(64, true), schema.findField("bi").getType());
    assertEquals(
        new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE),
        schema.findField("re").getType());
    assertEquals(
        new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE),
        schema.findField("db").getType());
    assertEquals(new ArrowType.Decimal(10, 2, 128), schema.findField("de").getType());
    assertEquals(ArrowType.Utf8.INSTANCE, schema.findField("s").getType());
    assertEquals(ArrowType.Utf8.INSTANCE, schema.findField("c").getType());
    assertEquals(ArrowType.Binary.INSTANCE, schema.findField("bin").getType());
    assertEquals(new ArrowType.Date(DateUnit.DAY), schema.findField("d").getType());
    assertEquals(new ArrowType.Time(TimeUnit.MILLISECOND, 32), schema.findField("t").getType());
    assertEquals(new ArrowType.Timestamp(TimeUnit.SECOND, null), schema.findField("ts0").getType());
    assertEquals(
        new ArrowType.Timestamp(TimeUnit.MILLISECOND, null), schema.findField("ts").getType());
    assertEquals(
        new ArrowType.Timestamp(TimeUnit.MILLISECOND, "UTC"), schema.findField("ltz").getType());
  }

  @Test
  void calciteToArrowNested() {
    Schema schema = ArrowTypes.toSchema(TestData.allTypes(false));
    Field st = schema.findField("st");
    assertEquals(ArrowType.Struct.INSTANCE, st.getType());
    assertTrue(st.isNullable());
    assertEquals("a", st.getChildren().get(0).getName());
    assertFalse(st.getChildren().get(0).isNullable());
    assertTrue(st.getChildren().get(1).isNullable());
    assertEquals(ArrowType.Struct.INSTANCE, st.getChildren().get(2).getType());

    Field arr = schema.findField("arr");
    assertEquals(ArrowType.List.INSTANCE, arr.getType());
    assertEquals("element", arr.getChildren().get(0).getName());
    assertTrue(arr.getChildren().get(0).isNullable());

    Field m = schema.findField("m");
    assertEquals(new ArrowType.Map(false), m.getType());
    Field entries = m.getChildren().get(0);
    assertFalse(entries.isNullable());
    assertEquals("key", entries.getChildren().get(0).getName());
    assertFalse(entries.getChildren().get(0).isNullable());
    assertEquals("value", entries.getChildren().get(1).getName());
    assertTrue(entries.getChildren().get(1).isNullable());
  }

  @Test
  void roundTripKeepsTypesNamesAndNullability() {
    RelDataType rowType = TestData.allTypes(false);
    RelDataType back = ArrowTypes.toRowType(TF, ArrowTypes.toSchema(rowType));
    // CHAR(n) comes back as VARCHAR: Arrow has no fixed-length string.
    assertEquals(
        rowType.getFullTypeString().replace("CHAR(3) c", "VARCHAR c"), back.getFullTypeString());
    assertEquals(rowType.getFieldNames(), back.getFieldNames());
    RelDataType st = back.getField("st", true, false).getType();
    assertEquals(StructKind.PEEK_FIELDS_NO_EXPAND, st.getStructKind());
    assertTrue(st.isNullable());
    assertFalse(st.getFieldList().get(0).getType().isNullable());
    assertTrue(st.getFieldList().get(1).getType().isNullable());
  }

  @Test
  void namesArePreservedExactly() {
    Schema schema =
        new Schema(
            List.of(
                field("Mixed Case", ArrowType.Utf8.INSTANCE, true),
                field("with.dot", new ArrowType.Int(32, true), false),
                field(
                    "`tick`",
                    ArrowType.Struct.INSTANCE,
                    true,
                    field("ÄÖ", ArrowType.Bool.INSTANCE, true))));
    RelDataType rowType = ArrowTypes.toRowType(TF, schema);
    assertEquals(List.of("Mixed Case", "with.dot", "`tick`"), rowType.getFieldNames());
    assertEquals("ÄÖ", rowType.getFieldList().get(2).getType().getFieldNames().get(0));
    assertEquals(schema, ArrowTypes.toSchema(rowType));
  }

  @Test
  void largeAndOtherArrowTypesAreReadable() {
    Schema schema =
        new Schema(
            List.of(
                field("ls", ArrowType.LargeUtf8.INSTANCE, true),
                field("vs", ArrowType.Utf8View.INSTANCE, true),
                field("lb", ArrowType.LargeBinary.INSTANCE, true),
                field("fb", new ArrowType.FixedSizeBinary(4), true),
                field(
                    "ll",
                    ArrowType.LargeList.INSTANCE,
                    true,
                    field("item", new ArrowType.Int(64, true), true)),
                field(
                    "fl",
                    new ArrowType.FixedSizeList(2),
                    false,
                    field("item", new ArrowType.Int(16, true), false)),
                field("u8", new ArrowType.Int(8, false), true),
                field("u32", new ArrowType.Int(32, false), true),
                field("u64", new ArrowType.Int(64, false), true),
                field("h", new ArrowType.FloatingPoint(FloatingPointPrecision.HALF), true),
                field("dm", new ArrowType.Date(DateUnit.MILLISECOND), true),
                field("tus", new ArrowType.Time(TimeUnit.MICROSECOND, 64), true),
                field("tsus", new ArrowType.Timestamp(TimeUnit.MICROSECOND, null), true),
                field(
                    "tsny", new ArrowType.Timestamp(TimeUnit.NANOSECOND, "America/New_York"), true),
                field("d256", new ArrowType.Decimal(50, 4, 256), true)));
    RelDataType t = ArrowTypes.toRowType(TF, schema);
    assertEquals(
        "RecordType(VARCHAR ls, VARCHAR vs, VARBINARY lb, BINARY(4) fb, "
            + "BIGINT ARRAY ll, SMALLINT NOT NULL ARRAY NOT NULL fl, SMALLINT u8, BIGINT u32, "
            + "DECIMAL(19, 0) u64, REAL h, DATE dm, TIME(3) tus, TIMESTAMP(3) tsus, "
            + "TIMESTAMP_WITH_LOCAL_TIME_ZONE(3) tsny, DECIMAL(19, 4) d256) NOT NULL",
        t.getFullTypeString());
  }

  @Test
  void unsupportedTypesFailWithTheFieldName() {
    Schema schema =
        new Schema(List.of(field("dur", new ArrowType.Duration(TimeUnit.SECOND), true)));
    Exception e =
        assertThrows(UnsupportedOperationException.class, () -> ArrowTypes.toRowType(TF, schema));
    assertTrue(e.getMessage().contains("'dur'"), e.getMessage());
    assertThrows(
        UnsupportedOperationException.class,
        () -> ArrowTypes.toField("x", TF.createSqlType(SqlTypeName.GEOMETRY)));
  }

  @Test
  void intervalResultsAreDurationsOrMonthDayNanoIntervals() {
    assertEquals(
        new ArrowType.Duration(TimeUnit.MILLISECOND),
        ArrowTypes.toField(
                "x",
                TF.createSqlIntervalType(
                    new SqlIntervalQualifier(
                        org.apache.calcite.avatica.util.TimeUnit.DAY, null, SqlParserPos.ZERO)))
            .getType());
    assertEquals(
        new ArrowType.Interval(org.apache.arrow.vector.types.IntervalUnit.MONTH_DAY_NANO),
        ArrowTypes.toField(
                "x",
                TF.createSqlIntervalType(
                    new SqlIntervalQualifier(
                        org.apache.calcite.avatica.util.TimeUnit.YEAR,
                        org.apache.calcite.avatica.util.TimeUnit.MONTH,
                        SqlParserPos.ZERO)))
            .getType());
  }
}

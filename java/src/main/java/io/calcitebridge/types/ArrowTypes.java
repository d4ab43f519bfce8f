package io.calcitebridge.types;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.ipc.WriteChannel;
import org.apache.arrow.vector.ipc.message.IpcOption;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;

/**
 * Maps Calcite {@link RelDataType}s to Arrow {@link Field}s and {@link Schema}s and back.
 *
 * <p>Column names are kept exactly; nullability maps to the Arrow {@code nullable} flag at every
 * nesting level. Calcite to Arrow:
 *
 * <table>
 *   <caption>Calcite type to Arrow type</caption>
 *   <tr><th>Calcite</th><th>Arrow</th></tr>
 *   <tr><td>BOOLEAN</td><td>Bool</td></tr>
 *   <tr><td>TINYINT, SMALLINT, INTEGER, BIGINT</td><td>Int(8/16/32/64, signed)</td></tr>
 *   <tr><td>REAL</td><td>FloatingPoint(SINGLE)</td></tr>
 *   <tr><td>FLOAT, DOUBLE</td><td>FloatingPoint(DOUBLE) (Calcite's FLOAT is a double)</td></tr>
 *   <tr><td>DECIMAL(p, s)</td><td>Decimal(p, s, 128), or 256 bits when p &gt; 38</td></tr>
 *   <tr><td>CHAR, VARCHAR</td><td>Utf8</td></tr>
 *   <tr><td>BINARY, VARBINARY</td><td>Binary</td></tr>
 *   <tr><td>DATE</td><td>Date(DAY)</td></tr>
 *   <tr><td>TIME(p)</td><td>Time(MILLISECOND, 32)</td></tr>
 *   <tr><td>TIMESTAMP(p)</td><td>Timestamp(unit, no zone): p 0 seconds, 1-3 millis, 4-6 micros,
 *       7-9 nanos</td></tr>
 *   <tr><td>TIMESTAMP_WITH_LOCAL_TIME_ZONE(p)</td><td>Timestamp(unit, "UTC")</td></tr>
 *   <tr><td>ROW</td><td>Struct</td></tr>
 *   <tr><td>ARRAY</td><td>List (element field "element")</td></tr>
 *   <tr><td>MULTISET</td><td>Map of each distinct element to its count (INT), as Flink's</td></tr>
 *   <tr><td>MAP</td><td>Map of non-null "entries" struct of non-null "key" and "value"</td></tr>
 * </table>
 *
 * <p>Arrow to Calcite reads the inverse and also the "large" and "view" variants (LargeUtf8,
 * Utf8View, LargeBinary, BinaryView, FixedSizeBinary, LargeList, FixedSizeList, ListView), unsigned
 * integers (widened), Float16, Date(MILLISECOND), Time32/Time64 of any unit and Timestamp of any
 * unit and zone. A struct becomes a ROW of kind {@link
 * org.apache.calcite.rel.type.StructKind#PEEK_FIELDS_NO_EXPAND}. See {@link ArrowToRelType}.
 */
public final class ArrowTypes {
  /** Name of the element field of a list. */
  public static final String LIST_ELEMENT = "element";

  private ArrowTypes() {}

  /** Converts a row type to an Arrow schema, one field per column. */
  public static Schema toSchema(RelDataType rowType) {
    List<Field> fields = new ArrayList<>();
    for (RelDataTypeField f : rowType.getFieldList()) {
      fields.add(toField(f.getName(), f.getType()));
    }
    return new Schema(fields);
  }

  /**
   * The IPC message of {@link #toSchema}'s schema, byte for byte what {@code
   * toSchema(rowType).serializeAsMessage()} writes, without Arrow's {@link Schema} class: its
   * initialisation starts Jackson (for the schema's JSON form), a third of a first validate, which
   * returns no more than this message.
   */
  public static byte[] schemaMessage(RelDataType rowType) {
    for (int i = 0; i < MESSAGES.length(); i++) {
      Message m = MESSAGES.get(i);
      if (m != null && m.rowType() == rowType) {
        return m.bytes();
      }
    }
    byte[] bytes = writeSchemaMessage(rowType);
    MESSAGES.set(
        Math.floorMod(NEXT_MESSAGE.getAndIncrement(), MESSAGES.length()),
        new Message(rowType, bytes));
    return bytes;
  }

  /** A row type's schema message, as {@link #schemaMessage} returns it. */
  private record Message(RelDataType rowType, byte[] bytes) {}

  /**
   * The last row types' messages, found by identity: Calcite's type factories intern their types,
   * so a new statement of a result type seen before (a query run again with another constant, a
   * notebook's cell re-run) gets the same instance, and its validation skips writing the message.
   * Callers do not change the bytes.
   */
  private static final java.util.concurrent.atomic.AtomicReferenceArray<Message> MESSAGES =
      new java.util.concurrent.atomic.AtomicReferenceArray<>(16);

  private static final java.util.concurrent.atomic.AtomicInteger NEXT_MESSAGE =
      new java.util.concurrent.atomic.AtomicInteger();

  private static byte[] writeSchemaMessage(RelDataType rowType) {
    com.google.flatbuffers.FlatBufferBuilder builder =
        new com.google.flatbuffers.FlatBufferBuilder();
    List<RelDataTypeField> columns = rowType.getFieldList();
    int[] fields = new int[columns.size()];
    for (int i = 0; i < fields.length; i++) {
      RelDataTypeField f = columns.get(i);
      fields[i] = toField(f.getName(), f.getType()).getField(builder);
    }
    int fieldsVector = org.apache.arrow.flatbuf.Schema.createFieldsVector(builder, fields);
    int metadata =
        org.apache.arrow.vector.ipc.message.FBSerializables.writeKeyValues(builder, Map.of());
    org.apache.arrow.flatbuf.Schema.startSchema(builder);
    org.apache.arrow.flatbuf.Schema.addEndianness(
        builder,
        java.nio.ByteOrder.nativeOrder() == java.nio.ByteOrder.LITTLE_ENDIAN
            ? org.apache.arrow.flatbuf.Endianness.Little
            : org.apache.arrow.flatbuf.Endianness.Big);
    org.apache.arrow.flatbuf.Schema.addFields(builder, fieldsVector);
    org.apache.arrow.flatbuf.Schema.addCustomMetadata(builder, metadata);
    int schema = org.apache.arrow.flatbuf.Schema.endSchema(builder);
    IpcOption option = IpcOption.DEFAULT;
    ByteBuffer message =
        MessageSerializer.serializeMessage(
            builder, org.apache.arrow.flatbuf.MessageHeader.Schema, schema, 0, option);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (WriteChannel channel = new WriteChannel(Channels.newChannel(out))) {
      MessageSerializer.writeMessageBuffer(channel, message.remaining(), message, option);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a stream in memory
    }
    return out.toByteArray();
  }

  /** Converts a Calcite type to an Arrow field of the given name. */
  public static Field toField(String name, RelDataType type) {
    boolean nullable = type.isNullable();
    switch (type.getSqlTypeName()) {
      case ROW:
        List<Field> children = new ArrayList<>();
        for (RelDataTypeField f : type.getFieldList()) {
          children.add(toField(f.getName(), f.getType()));
        }
        return new Field(name, new FieldType(nullable, ArrowType.Struct.INSTANCE, null), children);
      case MULTISET:
        // Each distinct element with the number of times it occurs, as Flink gives a MULTISET.
        Field counted = withNullable(toField("key", requireComponent(type)), false);
        Field count =
            new Field("value", FieldType.notNullable(new ArrowType.Int(32, true)), List.of());
        return new Field(
            name,
            new FieldType(nullable, new ArrowType.Map(false), null),
            List.of(
                new Field(
                    "entries",
                    FieldType.notNullable(ArrowType.Struct.INSTANCE),
                    List.of(counted, count))));
      case ARRAY:
        RelDataType element = requireComponent(type);
        return new Field(
            name,
            new FieldType(nullable, ArrowType.List.INSTANCE, null),
            List.of(toField(LIST_ELEMENT, element)));
      case MAP:
        RelDataType keyType = type.getKeyType();
        RelDataType valueType = type.getValueType();
        if (keyType == null || valueType == null) {
          throw new IllegalArgumentException("MAP type without key or value type: " + type);
        }
        Field key = withNullable(toField("key", keyType), false);
        Field value = toField("value", valueType);
        Field entries =
            new Field(
                "entries", FieldType.notNullable(ArrowType.Struct.INSTANCE), List.of(key, value));
        return new Field(
            name, new FieldType(nullable, new ArrowType.Map(false), null), List.of(entries));
      default:
        return new Field(name, new FieldType(nullable, toArrowType(type), null), List.of());
    }
  }

  /** Converts a scalar (non-nested) Calcite type to an Arrow type. */
  public static ArrowType toArrowType(RelDataType type) {
    switch (type.getSqlTypeName()) {
      case BOOLEAN:
        return ArrowType.Bool.INSTANCE;
      case TINYINT:
        return new ArrowType.Int(8, true);
      case SMALLINT:
        return new ArrowType.Int(16, true);
      case INTEGER:
        return new ArrowType.Int(32, true);
      case BIGINT:
        return new ArrowType.Int(64, true);
      case REAL:
        return new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
      case FLOAT:
      case DOUBLE:
        return new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
      case DECIMAL:
        int precision = type.getPrecision();
        return new ArrowType.Decimal(precision, type.getScale(), precision > 38 ? 256 : 128);
      case CHAR:
      case VARCHAR:
      case VARIANT: // Flink's PARSE_JSON: the value's JSON text
        return ArrowType.Utf8.INSTANCE;
      case BINARY:
      case VARBINARY:
        return ArrowType.Binary.INSTANCE;
      case DATE:
        return new ArrowType.Date(DateUnit.DAY);
      case TIME:
        return new ArrowType.Time(TimeUnit.MILLISECOND, 32);
      case TIMESTAMP:
        return new ArrowType.Timestamp(timestampUnit(type.getPrecision()), null);
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
        return new ArrowType.Timestamp(timestampUnit(type.getPrecision()), "UTC");
      case NULL:
        return ArrowType.Null.INSTANCE;
      default:
        if (type.getSqlTypeName().getFamily()
            == org.apache.calcite.sql.type.SqlTypeFamily.INTERVAL_YEAR_MONTH) {
          // A number of months, as DuckDB's INTERVAL: Arrow's month-day-nano interval.
          return new ArrowType.Interval(org.apache.arrow.vector.types.IntervalUnit.MONTH_DAY_NANO);
        }
        if (type.getSqlTypeName().getFamily()
            == org.apache.calcite.sql.type.SqlTypeFamily.INTERVAL_DAY_TIME) {
          // An exact length of time, in milliseconds at run time: a duration.
          return new ArrowType.Duration(TimeUnit.MILLISECOND);
        }
        throw new UnsupportedOperationException(
            "No Arrow type for SQL type " + type.getFullTypeString());
    }
  }

  /**
   * The ticks per millisecond of Calcite's engine's value of a {@code TIMESTAMP(precision)}: 1 (a
   * count of milliseconds) for {@code precision <= 3}, 1000 (microseconds) up to 6, a million
   * (nanoseconds) up to 9.
   */
  public static long ticksPerMilli(int precision) {
    if (precision <= 3) {
      return 1L;
    } else if (precision <= 6) {
      return 1_000L;
    }
    return 1_000_000L;
  }

  /** The Arrow timestamp unit for a TIMESTAMP precision (fractional second digits). */
  public static TimeUnit timestampUnit(int precision) {
    if (precision <= 0) {
      return TimeUnit.SECOND;
    } else if (precision <= 3) {
      return TimeUnit.MILLISECOND;
    } else if (precision <= 6) {
      return TimeUnit.MICROSECOND;
    }
    return TimeUnit.NANOSECOND;
  }

  /** Converts an Arrow schema to a Calcite row type (not nullable, fields as in the schema). */
  public static RelDataType toRowType(RelDataTypeFactory typeFactory, Schema schema) {
    return ArrowToRelType.toRowType(typeFactory, schema.getFields());
  }

  /** Converts an Arrow field to a Calcite type, nullable as the field is. */
  public static RelDataType toRelType(RelDataTypeFactory typeFactory, Field field) {
    return ArrowToRelType.toRelType(typeFactory, field);
  }

  private static RelDataType requireComponent(RelDataType type) {
    RelDataType component = type.getComponentType();
    if (component == null) {
      throw new IllegalArgumentException("Collection type without element type: " + type);
    }
    return component;
  }

  private static Field withNullable(Field field, boolean nullable) {
    FieldType ft = field.getFieldType();
    return new Field(
        field.getName(),
        new FieldType(nullable, ft.getType(), ft.getDictionary(), ft.getMetadata()),
        field.getChildren());
  }
}

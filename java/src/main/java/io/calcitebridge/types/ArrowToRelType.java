package io.calcitebridge.types;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.StructKind;
import org.apache.calcite.sql.type.SqlTypeName;

/** Arrow field to Calcite type conversion; the public entry points are on {@link ArrowTypes}. */
final class ArrowToRelType {
  private ArrowToRelType() {}

  static RelDataType toRowType(RelDataTypeFactory typeFactory, List<Field> fields) {
    List<RelDataType> types = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (Field f : fields) {
      names.add(f.getName());
      types.add(toRelType(typeFactory, f));
    }
    return typeFactory.createStructType(StructKind.FULLY_QUALIFIED, types, names);
  }

  static RelDataType toRelType(RelDataTypeFactory typeFactory, Field field) {
    if (field.getDictionary() != null) {
      throw new UnsupportedOperationException(
          "Dictionary-encoded Arrow field is not supported: " + field);
    }
    RelDataType type = nonNullType(typeFactory, field);
    // enforceTypeWithNullability keeps the nullability of a ROW's fields as they are;
    // createTypeWithNullability(row, true) would make every field nullable.
    return typeFactory.enforceTypeWithNullability(type, field.isNullable());
  }

  private static RelDataType nonNullType(RelDataTypeFactory tf, Field field) {
    ArrowType type = field.getType();
    switch (type.getTypeID()) {
      case Struct:
        List<RelDataType> types = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (Field child : field.getChildren()) {
          names.add(child.getName());
          types.add(toRelType(tf, child));
        }
        return tf.createStructType(StructKind.PEEK_FIELDS_NO_EXPAND, types, names);
      case List:
      case LargeList:
      case FixedSizeList:
      case ListView:
        return tf.createArrayType(toRelType(tf, onlyChild(field)), -1);
      case Map:
        Field entries = onlyChild(field);
        if (entries.getChildren().size() != 2) {
          throw new IllegalArgumentException("Arrow map entries must have key and value: " + field);
        }
        RelDataType key = toRelType(tf, entries.getChildren().get(0));
        RelDataType value = toRelType(tf, entries.getChildren().get(1));
        return tf.createMapType(tf.createTypeWithNullability(key, false), value);
      default:
        return scalar(tf, field, type);
    }
  }

  private static RelDataType scalar(RelDataTypeFactory tf, Field field, ArrowType type) {
    switch (type.getTypeID()) {
      case Bool:
        return tf.createSqlType(SqlTypeName.BOOLEAN);
      case Int:
        return integer(tf, (ArrowType.Int) type);
      case FloatingPoint:
        switch (((ArrowType.FloatingPoint) type).getPrecision()) {
          case DOUBLE:
            return tf.createSqlType(SqlTypeName.DOUBLE);
          default:
            return tf.createSqlType(SqlTypeName.REAL);
        }
      case Decimal:
        ArrowType.Decimal d = (ArrowType.Decimal) type;
        return tf.createSqlType(SqlTypeName.DECIMAL, d.getPrecision(), d.getScale());
      case Utf8:
      case LargeUtf8:
      case Utf8View:
        return tf.createSqlType(SqlTypeName.VARCHAR);
      case Binary:
      case LargeBinary:
      case BinaryView:
        return tf.createSqlType(SqlTypeName.VARBINARY);
      case FixedSizeBinary:
        return tf.createSqlType(
            SqlTypeName.BINARY, ((ArrowType.FixedSizeBinary) type).getByteWidth());
      case Date:
        return tf.createSqlType(SqlTypeName.DATE);
      case Time:
        return precise(tf, SqlTypeName.TIME, ((ArrowType.Time) type).getUnit());
      case Timestamp:
        ArrowType.Timestamp ts = (ArrowType.Timestamp) type;
        return precise(
            tf,
            ts.getTimezone() == null
                ? SqlTypeName.TIMESTAMP
                : SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE,
            ts.getUnit());
      case Null:
        return tf.createSqlType(SqlTypeName.NULL);
      default:
        throw new UnsupportedOperationException(
            "Arrow type " + type + " of field '" + field.getName() + "' is not supported");
    }
  }

  /** Signed integers map by width; unsigned ones widen to the next signed type. */
  private static RelDataType integer(RelDataTypeFactory tf, ArrowType.Int type) {
    int bits = type.getBitWidth() + (type.getIsSigned() ? 0 : 1);
    if (bits <= 8) {
      return tf.createSqlType(SqlTypeName.TINYINT);
    } else if (bits <= 16) {
      return tf.createSqlType(SqlTypeName.SMALLINT);
    } else if (bits <= 32) {
      return tf.createSqlType(SqlTypeName.INTEGER);
    } else if (bits <= 64) {
      return tf.createSqlType(SqlTypeName.BIGINT);
    }
    return tf.createSqlType(SqlTypeName.DECIMAL, 20, 0);
  }

  private static RelDataType precise(RelDataTypeFactory tf, SqlTypeName name, TimeUnit unit) {
    int precision;
    switch (unit) {
      case SECOND:
        precision = 0;
        break;
      case MILLISECOND:
        precision = 3;
        break;
      case MICROSECOND:
        precision = 6;
        break;
      default:
        precision = 9;
        break;
    }
    int max = tf.getTypeSystem().getMaxPrecision(name);
    return tf.createSqlType(name, max >= 0 ? Math.min(precision, max) : precision);
  }

  private static Field onlyChild(Field field) {
    if (field.getChildren().size() != 1) {
      throw new IllegalArgumentException("Arrow field must have one child: " + field);
    }
    return field.getChildren().get(0);
  }
}

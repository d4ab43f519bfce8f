package io.calcitebridge.types;

import java.util.stream.Collectors;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;

/**
 * Renders a {@link RelDataType} the way users write it in our DDL ({@code STRING}, {@code ROW<a
 * INT>}, {@code TIMESTAMP_LTZ(3)}).
 */
public final class TypeNames {
  private TypeNames() {}

  /** Renders {@code type} including a trailing {@code NOT NULL} when it is not nullable. */
  public static String render(RelDataType type) {
    String s = renderNullable(type);
    return type.isNullable() ? s : s + " NOT NULL";
  }

  /** Renders {@code type} without its top-level nullability. */
  public static String renderNullable(RelDataType type) {
    return renderNullable(type, false);
  }

  /**
   * Renders {@code type} as Flink's {@code SHOW CREATE TABLE} writes it (its serializable form):
   * {@code STRING} and {@code BYTES} as {@code VARCHAR(2147483647)} and {@code
   * VARBINARY(2147483647)}, {@code TIMESTAMP_LTZ(p)} as {@code TIMESTAMP(p) WITH LOCAL TIME ZONE},
   * inside nested types too; with a trailing {@code NOT NULL} when it is not nullable.
   */
  public static String renderSerializable(RelDataType type) {
    String s = renderNullable(type, true);
    return type.isNullable() ? s : s + " NOT NULL";
  }

  private static String render(RelDataType type, boolean serializable) {
    return serializable ? renderSerializable(type) : render(type);
  }

  private static String renderNullable(RelDataType type, boolean serializable) {
    if (type instanceof BitmapType) {
      return "BITMAP";
    }
    if (type instanceof StructuredType s) {
      return "STRUCTURED<'"
          + s.className().replace("'", "''")
          + "', "
          + type.getFieldList().stream()
              .map(f -> field(f, serializable))
              .collect(Collectors.joining(", "))
          + ">";
    }
    switch (type.getSqlTypeName()) {
      case BOOLEAN:
        return "BOOLEAN";
      case TINYINT:
        return "TINYINT";
      case SMALLINT:
        return "SMALLINT";
      case INTEGER:
        return "INT";
      case BIGINT:
        return "BIGINT";
      case REAL:
      case FLOAT:
        return "FLOAT";
      case DOUBLE:
        return "DOUBLE";
      case DECIMAL:
        return "DECIMAL(" + type.getPrecision() + ", " + type.getScale() + ")";
      case CHAR:
        return "CHAR(" + type.getPrecision() + ")";
      case VARCHAR:
        return type.getPrecision() == Integer.MAX_VALUE && !serializable
            ? "STRING"
            : "VARCHAR(" + type.getPrecision() + ")";
      case BINARY:
        return "BINARY(" + type.getPrecision() + ")";
      case VARBINARY:
        return type.getPrecision() == Integer.MAX_VALUE && !serializable
            ? "BYTES"
            : "VARBINARY(" + type.getPrecision() + ")";
      case DATE:
        return "DATE";
      case TIME:
        return "TIME(" + type.getPrecision() + ")";
      case TIMESTAMP:
        return "TIMESTAMP(" + type.getPrecision() + ")";
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
        return serializable
            ? "TIMESTAMP(" + type.getPrecision() + ") WITH LOCAL TIME ZONE"
            : "TIMESTAMP_LTZ(" + type.getPrecision() + ")";
      case ROW:
        return "ROW<"
            + type.getFieldList().stream()
                .map(f -> field(f, serializable))
                .collect(Collectors.joining(", "))
            + ">";
      case ARRAY:
      case MULTISET:
        return type.getSqlTypeName().name()
            + "<"
            + render(type.getComponentType(), serializable)
            + ">";
      case MAP:
        return "MAP<"
            + render(type.getKeyType(), serializable)
            + ", "
            + render(type.getValueType(), serializable)
            + ">";
      case NULL:
        return "NULL";
      case VARIANT:
        return "VARIANT";
      default:
        // Calcite's full type string has the NOT NULL that render adds.
        return type.getFullTypeString().replaceFirst(" NOT NULL$", "");
    }
  }

  private static String field(RelDataTypeField f, boolean serializable) {
    return quote(f.getName()) + " " + render(f.getType(), serializable);
  }

  /** Quotes an identifier with backticks, doubling backticks inside it. */
  public static String quote(String name) {
    return "`" + name.replace("`", "``") + "`";
  }
}

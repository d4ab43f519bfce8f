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
    if (type instanceof BitmapType) {
      return "BITMAP";
    }
    if (type instanceof StructuredType s) {
      return "STRUCTURED<'"
          + s.className().replace("'", "''")
          + "', "
          + type.getFieldList().stream().map(TypeNames::field).collect(Collectors.joining(", "))
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
        return type.getPrecision() == Integer.MAX_VALUE
            ? "STRING"
            : "VARCHAR(" + type.getPrecision() + ")";
      case BINARY:
        return "BINARY(" + type.getPrecision() + ")";
      case VARBINARY:
        return type.getPrecision() == Integer.MAX_VALUE
            ? "BYTES"
            : "VARBINARY(" + type.getPrecision() + ")";
      case DATE:
        return "DATE";
      case TIME:
        return "TIME(" + type.getPrecision() + ")";
      case TIMESTAMP:
        return "TIMESTAMP(" + type.getPrecision() + ")";
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
        return "TIMESTAMP_LTZ(" + type.getPrecision() + ")";
      case ROW:
        return "ROW<"
            + type.getFieldList().stream().map(TypeNames::field).collect(Collectors.joining(", "))
            + ">";
      case ARRAY:
      case MULTISET:
        return type.getSqlTypeName().name() + "<" + render(type.getComponentType()) + ">";
      case MAP:
        return "MAP<" + render(type.getKeyType()) + ", " + render(type.getValueType()) + ">";
      case NULL:
        return "NULL";
      case VARIANT:
        return "VARIANT";
      default:
        // Calcite's full type string has the NOT NULL that render adds.
        return type.getFullTypeString().replaceFirst(" NOT NULL$", "");
    }
  }

  private static String field(RelDataTypeField f) {
    return quote(f.getName()) + " " + render(f.getType());
  }

  /** Quotes an identifier with backticks, doubling backticks inside it. */
  public static String quote(String name) {
    return "`" + name.replace("`", "``") + "`";
  }
}

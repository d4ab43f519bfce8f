package io.calcitebridge.sql.type;

import static org.apache.calcite.util.Static.RESOURCE;

import org.apache.calcite.sql.SqlCollectionTypeNameSpec;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlMapTypeNameSpec;
import org.apache.calcite.sql.SqlRowTypeNameSpec;
import org.apache.calcite.sql.SqlTypeNameSpec;
import org.apache.calcite.sql.SqlUserDefinedTypeNameSpec;
import org.apache.calcite.sql.SqlUtil;

/**
 * The check that a type names only built-in types, nested ones included (kept apart from {@link
 * BridgeTypeSpecs}, which the type specifications use, since it walks them).
 */
public final class KnownTypeNames {
  private KnownTypeNames() {}

  /**
   * Throws a positioned "Unknown datatype name" error when the type, or a type nested in it, is a
   * name that is not a built-in type (the parser reads an unknown name as a user-defined type; this
   * dialect has none).
   */
  public static void requireKnown(SqlDataTypeSpec type) {
    requireKnown(type.getTypeNameSpec());
  }

  private static void requireKnown(SqlTypeNameSpec spec) {
    if (spec instanceof SqlUserDefinedTypeNameSpec) {
      throw SqlUtil.newContextException(
          spec.getParserPos(), RESOURCE.unknownDatatypeName(spec.getTypeName().toString()));
    } else if (spec instanceof SqlRowTypeNameSpec) {
      ((SqlRowTypeNameSpec) spec).getFieldTypes().forEach(KnownTypeNames::requireKnown);
    } else if (spec instanceof BridgeArrayTypeNameSpec) {
      requireKnown(((BridgeArrayTypeNameSpec) spec).elementType());
    } else if (spec instanceof BridgeMapTypeNameSpec) {
      requireKnown(((BridgeMapTypeNameSpec) spec).keyType());
      requireKnown(((BridgeMapTypeNameSpec) spec).valueType());
    } else if (spec instanceof SqlCollectionTypeNameSpec) {
      requireKnown(((SqlCollectionTypeNameSpec) spec).getElementTypeName());
    } else if (spec instanceof SqlMapTypeNameSpec) {
      requireKnown(((SqlMapTypeNameSpec) spec).getKeyType());
      requireKnown(((SqlMapTypeNameSpec) spec).getValType());
    }
  }
}

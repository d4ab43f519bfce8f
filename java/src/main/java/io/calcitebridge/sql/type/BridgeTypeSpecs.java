package io.calcitebridge.sql.type;

import static org.apache.calcite.util.Static.RESOURCE;

import java.util.List;
import java.util.Objects;
import org.apache.calcite.sql.SqlCollectionTypeNameSpec;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlMapTypeNameSpec;
import org.apache.calcite.sql.SqlRowTypeNameSpec;
import org.apache.calcite.sql.SqlTypeNameSpec;
import org.apache.calcite.sql.SqlUserDefinedTypeNameSpec;
import org.apache.calcite.sql.SqlUtil;
import org.apache.calcite.sql.SqlWriter;

/** Helpers shared by the type specifications and the DDL nodes. */
public final class BridgeTypeSpecs {
  private BridgeTypeSpecs() {}

  /** Unparses a type followed by NOT NULL when it is not nullable. */
  public static void unparse(SqlWriter writer, SqlDataTypeSpec type) {
    type.unparse(writer, 0, 0);
    if (Boolean.FALSE.equals(type.getNullable())) {
      writer.keyword("NOT NULL");
    }
  }

  /** Returns whether two lists of types agree on NOT NULL, pairwise. */
  public static boolean sameNullability(List<SqlDataTypeSpec> a, List<SqlDataTypeSpec> b) {
    if (a.size() != b.size()) {
      return false;
    }
    for (int i = 0; i < a.size(); i++) {
      if (!Objects.equals(a.get(i).getNullable(), b.get(i).getNullable())) {
        return false;
      }
    }
    return true;
  }

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
      ((SqlRowTypeNameSpec) spec).getFieldTypes().forEach(BridgeTypeSpecs::requireKnown);
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

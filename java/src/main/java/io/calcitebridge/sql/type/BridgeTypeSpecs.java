package io.calcitebridge.sql.type;

import java.util.List;
import java.util.Objects;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlWriter;

/** Unparsing and comparing helpers shared by the type specifications and the DDL nodes. */
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
}

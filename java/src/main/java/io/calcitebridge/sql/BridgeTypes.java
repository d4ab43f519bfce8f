package io.calcitebridge.sql;

import io.calcitebridge.sql.type.KnownTypeNames;
import java.lang.reflect.Proxy;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.validate.SqlValidator;

/**
 * Converts type specifications to {@link RelDataType} without a validator, for DDL: a column's type
 * is known before any query is validated.
 *
 * <p>Every type of this dialect derives from the type factory alone, so the conversion hands {@code
 * deriveType} a stand-in validator that offers only {@code getTypeFactory()}. An unknown type name
 * fails with a positioned {@code CalciteContextException} ("Unknown datatype name 'FOO'").
 */
public final class BridgeTypes {
  private BridgeTypes() {}

  /**
   * Returns the type that {@code spec} stands for. Nullability follows the spec: nullable unless it
   * says NOT NULL; a spec whose nullability is unset (not written through our grammar) gives a NOT
   * NULL type, as in Calcite. ROW types have {@code StructKind.PEEK_FIELDS_NO_EXPAND}.
   */
  public static RelDataType toRelDataType(SqlDataTypeSpec spec, RelDataTypeFactory typeFactory) {
    KnownTypeNames.requireKnown(spec);
    return spec.deriveType(typeOnlyValidator(typeFactory));
  }

  private static SqlValidator typeOnlyValidator(RelDataTypeFactory typeFactory) {
    return (SqlValidator)
        Proxy.newProxyInstance(
            BridgeTypes.class.getClassLoader(),
            new Class<?>[] {SqlValidator.class},
            (proxy, method, args) -> {
              switch (method.getName()) {
                case "getTypeFactory":
                  return typeFactory;
                case "toString":
                  return "type-only validator";
                case "hashCode":
                  return System.identityHashCode(proxy);
                case "equals":
                  return proxy == args[0];
                default:
                  throw new UnsupportedOperationException(
                      "type conversion needs a validator for " + method.getName());
              }
            });
  }
}

package io.calcitebridge.functions;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.StructKind;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperandCountRange;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.type.SqlOperandCountRanges;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Flink's {@code OBJECT_OF(class, key1, value1, ...)} and {@code OBJECT_UPDATE(object, key1,
 * value1, ...)}. The result is Flink's structured type named by the class ({@link
 * io.calcitebridge.types.StructuredType}: {@code TYPEOF} says {@code STRUCTURED<'class', ...>}),
 * held as a ROW of the same fields, reached with {@code .name}; the type is nullable, as Flink's
 * is, so its fields are read as nullable. {@code OBJECT_UPDATE} of a ROW that is not a structured
 * type gives a ROW of nullable fields. The class and keys are string literals. SQL conversion makes
 * both a ROW constructor ({@code plan.Convertlets}).
 */
public final class ObjectFunctions {
  private ObjectFunctions() {}

  /** {@code OBJECT_OF}: a structured type of the values named by the keys. */
  public static final SqlOperator OBJECT_OF = new ObjectFunction("OBJECT_OF", false);

  /**
   * {@code OBJECT_UPDATE}: the object with the named fields replaced (their type that of the new
   * value); NULL for a NULL object; a key that is not a field is an error.
   */
  public static final SqlOperator OBJECT_UPDATE = new ObjectFunction("OBJECT_UPDATE", true);

  static final List<SqlOperator> ALL = List.of(OBJECT_OF, OBJECT_UPDATE);

  private static final class ObjectFunction extends SqlFunction {
    private final boolean update;

    ObjectFunction(String name, boolean update) {
      super(
          name,
          SqlKind.OTHER_FUNCTION,
          b -> type(b, update),
          null,
          null,
          SqlFunctionCategory.USER_DEFINED_FUNCTION);
      this.update = update;
    }

    @Override
    public SqlOperandCountRange getOperandCountRange() {
      return SqlOperandCountRanges.from(update ? 3 : 1);
    }

    @Override
    public String getAllowedSignatures(String opNameToUse) {
      return update
          ? opNameToUse + "(<ROW>, '<key>', <value>[, '<key>', <value>]...)"
          : opNameToUse + "('<class>'[, '<key>', <value>]...)";
    }

    @Override
    public boolean checkOperandTypes(SqlCallBinding b, boolean throwOnFailure) {
      int n = b.getOperandCount();
      boolean ok = n % 2 == (update ? 1 : 1);
      ok &= update ? b.getOperandType(0).isStruct() : literal(b, 0);
      for (int i = 1; ok && i < n; i += 2) {
        ok = literal(b, i);
      }
      if (ok && update) {
        RelDataType object = b.getOperandType(0);
        for (int i = 1; i < n; i += 2) {
          String key = b.getStringLiteralOperand(i);
          if (key == null || object.getField(key, true, false) == null) {
            if (throwOnFailure) {
              throw b.newValidationError(
                  org.apache.calcite.util.Static.RESOURCE.unknownField(String.valueOf(key)));
            }
            return false;
          }
        }
      }
      if (!ok && throwOnFailure) {
        throw b.newValidationSignatureError();
      }
      return ok;
    }

    private static boolean literal(SqlCallBinding b, int i) {
      return b.isOperandLiteral(i, false)
          && SqlTypeFamily.CHARACTER.contains(b.getOperandType(i))
          && b.getStringLiteralOperand(i) != null;
    }
  }

  private static RelDataType type(SqlOperatorBinding b, boolean update) {
    RelDataTypeFactory f = b.getTypeFactory();
    List<String> names = new ArrayList<>();
    List<RelDataType> types = new ArrayList<>();
    RelDataType object = update ? b.getOperandType(0) : null;
    if (object != null) {
      for (var field : object.getFieldList()) {
        names.add(field.getName());
        types.add(field.getType());
      }
    }
    for (int i = 1; i + 1 < b.getOperandCount(); i += 2) {
      String key = b.getStringLiteralOperand(i);
      RelDataType value = b.getOperandType(i + 1);
      int at = indexOf(names, key);
      if (at >= 0) {
        types.set(at, value);
      } else {
        names.add(String.valueOf(key));
        types.add(value);
      }
    }
    String className =
        object instanceof io.calcitebridge.types.StructuredType s
            ? s.className()
            : update ? null : b.getStringLiteralOperand(0);
    if (className != null && f instanceof io.calcitebridge.types.BridgeTypeFactory bridge) {
      // Flink's structured type, nullable: a field is read as nullable, whatever its value's type.
      return bridge.createStructuredType(className, types, names, true);
    }
    // A field of a structured type is read as nullable in Flink, whatever its value's type.
    types.replaceAll(t -> f.createTypeWithNullability(t, true));
    RelDataType row = f.createStructType(StructKind.PEEK_FIELDS_NO_EXPAND, types, names);
    return f.createTypeWithNullability(row, object != null && object.isNullable());
  }

  private static int indexOf(List<String> names, @Nullable String key) {
    for (int i = 0; i < names.size(); i++) {
      if (names.get(i).equalsIgnoreCase(String.valueOf(key))) {
        return i;
      }
    }
    return -1;
  }

  /** Whether {@code type} is a ROW, as OBJECT_UPDATE's first operand must be. */
  static boolean isObject(RelDataType type) {
    return SqlTypeUtil.isRow(type);
  }
}

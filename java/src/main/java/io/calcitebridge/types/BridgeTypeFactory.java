package io.calcitebridge.types;

import java.util.List;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeSystem;
import org.apache.calcite.sql.type.SqlTypeMappingRule;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The type factory of every environment: types are interned and shared.
 *
 * <p>Numbers and datetimes have no common type, as in Flink and DuckDB. Calcite's {@code
 * leastRestrictive} takes the datetime for a number next to one (a shortcut for its datetime
 * arithmetic), so {@code VALUES (1), (DATE '2024-01-01')}, {@code SELECT 1 UNION ALL SELECT DATE
 * ...} and {@code COALESCE(dt, 1)} validated and read the number 1 as 1970-01-02, or failed in the
 * planner with a ClassCastException. They are validation errors now. Nor have strings and ARRAY,
 * MAP or ROW values a common type: Calcite took the ARRAY for {@code SELECT CAST(NULL AS
 * ARRAY<INT>) UNION SELECT 'bc'}, as a string may be cast to one, and failed in conversion.
 */
public final class BridgeTypeFactory extends JavaTypeFactoryImpl {
  /** The single instance, over {@link BridgeTypeSystem}. */
  public static final JavaTypeFactory INSTANCE = new BridgeTypeFactory(BridgeTypeSystem.INSTANCE);

  private BridgeTypeFactory(RelDataTypeSystem typeSystem) {
    super(typeSystem);
  }

  /**
   * A {@link BitmapType} keeps its class as its nullability changes, and a {@link StructuredType}
   * its class and its fields as they are.
   */
  @Override
  public RelDataType createTypeWithNullability(RelDataType type, boolean nullable) {
    if (type instanceof BitmapType) {
      return canonize(BitmapType.withNullability(nullable));
    }
    if (type instanceof StructuredType s) {
      return s.isNullable() == nullable ? s : canonize(s.withNullability(nullable));
    }
    return super.createTypeWithNullability(type, nullable);
  }

  @Override
  public RelDataType enforceTypeWithNullability(RelDataType type, boolean nullable) {
    if (type instanceof BitmapType) {
      return canonize(BitmapType.withNullability(nullable));
    }
    if (type instanceof StructuredType s) {
      return s.isNullable() == nullable ? s : canonize(s.withNullability(nullable));
    }
    return super.enforceTypeWithNullability(type, nullable);
  }

  /**
   * The structured type that {@code types} all are but for nullability (or NULL), nullable if one
   * is; Calcite's would be a plain ROW, which a CASE choosing between structured values was then
   * cast from.
   */
  private @Nullable RelDataType sameStructured(List<RelDataType> types) {
    StructuredType first = null;
    boolean nullable = false;
    for (RelDataType t : types) {
      if (t.getSqlTypeName() == org.apache.calcite.sql.type.SqlTypeName.NULL) {
        nullable = true;
        continue;
      }
      if (!(t instanceof StructuredType s)
          || first != null && !createTypeWithNullability(s, false).equals(first)) {
        return null;
      }
      first = (StructuredType) createTypeWithNullability(s, false);
      nullable |= s.isNullable();
    }
    return first == null ? null : createTypeWithNullability(first, nullable);
  }

  /** Flink's structured type named {@code className} with these fields ({@link StructuredType}). */
  public RelDataType createStructuredType(
      String className, List<RelDataType> types, List<String> names, boolean nullable) {
    RelDataType row =
        createStructType(
            org.apache.calcite.rel.type.StructKind.PEEK_FIELDS_NO_EXPAND, types, names);
    return canonize(new StructuredType(className, row.getFieldList(), nullable));
  }

  @Override
  public @Nullable RelDataType leastRestrictive(
      List<RelDataType> types, SqlTypeMappingRule mappingRule) {
    if (types.stream().anyMatch(BitmapType::is)) {
      // BITMAPs have BITMAP in common (Calcite would take BYTES), and nothing else but NULL.
      boolean others =
          types.stream()
              .anyMatch(
                  t ->
                      !BitmapType.is(t)
                          && t.getSqlTypeName() != org.apache.calcite.sql.type.SqlTypeName.NULL);
      return others
          ? null
          : BitmapType.of(
              this,
              types.stream()
                  .anyMatch(
                      t ->
                          t.isNullable()
                              || t.getSqlTypeName()
                                  == org.apache.calcite.sql.type.SqlTypeName.NULL));
    }
    RelDataType structured = sameStructured(types);
    if (structured != null) {
      return structured;
    }
    boolean number = false;
    boolean datetime = false;
    boolean string = false;
    boolean composite = false;
    for (RelDataType type : types) {
      number |= SqlTypeUtil.isNumeric(type);
      datetime |= SqlTypeUtil.isDatetime(type);
      string |= SqlTypeUtil.isCharacter(type);
      composite |= type.isStruct() || SqlTypeUtil.isCollection(type) || SqlTypeUtil.isMap(type);
    }
    if (number && datetime || string && composite) {
      return null;
    }
    return super.leastRestrictive(types, mappingRule);
  }
}

package io.calcitebridge.types;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.type.AbstractSqlType;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Flink's {@code BITMAP}: a set of unsigned 32-bit integers, a type of its own ({@code TYPEOF} says
 * {@code BITMAP}), which only the {@code BITMAP_*} functions take. Its values are held, and cross
 * to Arrow, as the bytes of its portable RoaringBitmap serialization (those of {@code
 * BITMAP_TO_BYTES}), so its {@link SqlTypeName} is {@code VARBINARY}, and the engine holds a value
 * as it holds {@code BYTES}.
 */
public final class BitmapType extends AbstractSqlType {
  private static final BitmapType NOT_NULL = new BitmapType(false);
  private static final BitmapType NULLABLE = new BitmapType(true);

  private BitmapType(boolean nullable) {
    super(SqlTypeName.VARBINARY, nullable, null);
    computeDigest();
  }

  /** {@code BITMAP}, nullable or not, from {@code f}. */
  public static RelDataType of(RelDataTypeFactory f, boolean nullable) {
    return f.createTypeWithNullability(nullable ? NULLABLE : NOT_NULL, nullable);
  }

  /** Whether {@code type} is a {@code BITMAP}. */
  public static boolean is(RelDataType type) {
    return type instanceof BitmapType;
  }

  static RelDataType withNullability(boolean nullable) {
    return nullable ? NULLABLE : NOT_NULL;
  }

  @Override
  public int getPrecision() {
    return Integer.MAX_VALUE;
  }

  @Override
  protected void generateTypeString(StringBuilder sb, boolean withDetail) {
    sb.append("BITMAP");
  }
}

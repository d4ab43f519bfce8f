package io.calcitebridge.sql.type;

import io.calcitebridge.types.BitmapType;
import java.util.Objects;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlTypeNameSpec;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.util.Litmus;

/**
 * A Flink type name that stands for a standard type: {@code STRING} (VARCHAR of the type system's
 * maximum length), {@code BYTES} (VARBINARY of maximum length) and {@code TIMESTAMP_LTZ(p)}
 * (TIMESTAMP(p) WITH LOCAL TIME ZONE). It derives the standard type and unparses as written. {@code
 * BITMAP} derives {@link BitmapType}, held as bytes.
 */
public final class BridgeAliasTypeNameSpec extends SqlBasicTypeNameSpec {
  /** The alias names. */
  public enum Alias {
    /** {@code STRING}. */
    STRING,
    /** {@code BYTES}. */
    BYTES,
    /** {@code BITMAP}. */
    BITMAP,
    /** {@code TIMESTAMP_LTZ[(p)]}. */
    TIMESTAMP_LTZ
  }

  private final Alias alias;

  private BridgeAliasTypeNameSpec(
      Alias alias, SqlTypeName typeName, int precision, SqlParserPos pos) {
    super(typeName, precision, pos);
    this.alias = alias;
  }

  /** Returns {@code STRING}. Its precision is capped by the type system. */
  public static BridgeAliasTypeNameSpec string(SqlParserPos pos) {
    return new BridgeAliasTypeNameSpec(Alias.STRING, SqlTypeName.VARCHAR, Integer.MAX_VALUE, pos);
  }

  /** Returns {@code BYTES}. Its precision is capped by the type system. */
  public static BridgeAliasTypeNameSpec bytes(SqlParserPos pos) {
    return new BridgeAliasTypeNameSpec(Alias.BYTES, SqlTypeName.VARBINARY, Integer.MAX_VALUE, pos);
  }

  /** Returns {@code BITMAP}. */
  public static BridgeAliasTypeNameSpec bitmap(SqlParserPos pos) {
    return new BridgeAliasTypeNameSpec(Alias.BITMAP, SqlTypeName.VARBINARY, Integer.MAX_VALUE, pos);
  }

  @Override
  public RelDataType deriveType(SqlValidator validator) {
    return alias == Alias.BITMAP
        ? BitmapType.of(validator.getTypeFactory(), false)
        : super.deriveType(validator);
  }

  /** Returns {@code TIMESTAMP_LTZ(p)}; precision -1 when not given. */
  public static BridgeAliasTypeNameSpec timestampLtz(int precision, SqlParserPos pos) {
    return new BridgeAliasTypeNameSpec(
        Alias.TIMESTAMP_LTZ, SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE, precision, pos);
  }

  /** Returns which alias was written. */
  public Alias alias() {
    return alias;
  }

  @Override
  public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword(alias.name());
    if (alias == Alias.TIMESTAMP_LTZ && getPrecision() >= 0) {
      final SqlWriter.Frame frame = writer.startList(SqlWriter.FrameTypeEnum.FUN_CALL, "(", ")");
      writer.print(getPrecision());
      writer.endList(frame);
    }
  }

  @Override
  public boolean equalsDeep(SqlTypeNameSpec node, Litmus litmus) {
    if (!(node instanceof BridgeAliasTypeNameSpec)
        || !Objects.equals(alias, ((BridgeAliasTypeNameSpec) node).alias)) {
      return litmus.fail("{} != {}", this, node);
    }
    return super.equalsDeep(node, litmus);
  }
}

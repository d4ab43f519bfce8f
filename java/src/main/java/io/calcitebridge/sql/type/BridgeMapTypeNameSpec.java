package io.calcitebridge.sql.type;

import java.util.List;
import java.util.Objects;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlTypeNameSpec;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.util.Litmus;

/** {@code MAP<K, V>}; key and value are nullable unless they say NOT NULL. */
public final class BridgeMapTypeNameSpec extends SqlTypeNameSpec {
  private final SqlDataTypeSpec keyType;
  private final SqlDataTypeSpec valueType;

  /** Creates a MAP type. */
  public BridgeMapTypeNameSpec(
      SqlDataTypeSpec keyType, SqlDataTypeSpec valueType, SqlParserPos pos) {
    super(new SqlIdentifier(SqlTypeName.MAP.name(), pos), pos);
    this.keyType = Objects.requireNonNull(keyType, "keyType");
    this.valueType = Objects.requireNonNull(valueType, "valueType");
  }

  /** Returns the key type, with its nullability. */
  public SqlDataTypeSpec keyType() {
    return keyType;
  }

  /** Returns the value type, with its nullability. */
  public SqlDataTypeSpec valueType() {
    return valueType;
  }

  @Override
  public RelDataType deriveType(SqlValidator validator) {
    return validator
        .getTypeFactory()
        .createMapType(keyType.deriveType(validator), valueType.deriveType(validator));
  }

  @Override
  public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword("MAP");
    final SqlWriter.Frame frame = writer.startList(SqlWriter.FrameTypeEnum.FUN_CALL, "<", ">");
    writer.setNeedWhitespace(false);
    writer.sep(",", false);
    BridgeTypeSpecs.unparse(writer, keyType);
    writer.sep(",", false);
    BridgeTypeSpecs.unparse(writer, valueType);
    writer.setNeedWhitespace(false);
    writer.endList(frame);
  }

  @Override
  public boolean equalsDeep(SqlTypeNameSpec node, Litmus litmus) {
    if (!(node instanceof BridgeMapTypeNameSpec)) {
      return litmus.fail("{} != {}", this, node);
    }
    final BridgeMapTypeNameSpec that = (BridgeMapTypeNameSpec) node;
    if (!BridgeTypeSpecs.sameNullability(
        List.of(keyType, valueType), List.of(that.keyType, that.valueType))) {
      return litmus.fail("{} != {}", this, node);
    }
    return keyType.equalsDeep(that.keyType, litmus) && valueType.equalsDeep(that.valueType, litmus);
  }
}

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

/**
 * {@code ARRAY<T>}; the element is nullable unless it says NOT NULL. Calcite's postfix form {@code
 * T ARRAY} keeps working and gives Calcite's own spec.
 */
public final class BridgeArrayTypeNameSpec extends SqlTypeNameSpec {
  private final SqlDataTypeSpec elementType;

  /** Creates an ARRAY type. */
  public BridgeArrayTypeNameSpec(SqlDataTypeSpec elementType, SqlParserPos pos) {
    super(new SqlIdentifier(SqlTypeName.ARRAY.name(), pos), pos);
    this.elementType = Objects.requireNonNull(elementType, "elementType");
  }

  /** Returns the element type, with its nullability. */
  public SqlDataTypeSpec elementType() {
    return elementType;
  }

  @Override
  public RelDataType deriveType(SqlValidator validator) {
    return validator.getTypeFactory().createArrayType(elementType.deriveType(validator), -1);
  }

  @Override
  public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword("ARRAY");
    final SqlWriter.Frame frame = writer.startList(SqlWriter.FrameTypeEnum.FUN_CALL, "<", ">");
    writer.setNeedWhitespace(false);
    BridgeTypeSpecs.unparse(writer, elementType);
    writer.setNeedWhitespace(false);
    writer.endList(frame);
  }

  @Override
  public boolean equalsDeep(SqlTypeNameSpec node, Litmus litmus) {
    if (!(node instanceof BridgeArrayTypeNameSpec)) {
      return litmus.fail("{} != {}", this, node);
    }
    final SqlDataTypeSpec that = ((BridgeArrayTypeNameSpec) node).elementType;
    if (!BridgeTypeSpecs.sameNullability(List.of(elementType), List.of(that))) {
      return litmus.fail("{} != {}", this, node);
    }
    return elementType.equalsDeep(that, litmus);
  }
}

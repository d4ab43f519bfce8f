package io.calcitebridge.sql.type;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.StructKind;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlRowTypeNameSpec;
import org.apache.calcite.sql.SqlTypeNameSpec;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.util.Litmus;

/**
 * {@code ROW<a INT, b STRING NOT NULL>} or {@code ROW(a INT, ...)}. Fields are nullable unless they
 * say NOT NULL. The derived struct type has {@link StructKind#PEEK_FIELDS_NO_EXPAND}, so {@code
 * user.age} resolves without a table qualifier and {@code SELECT *} keeps the row as one column.
 */
public final class BridgeRowTypeNameSpec extends SqlRowTypeNameSpec {
  private final boolean angleBrackets;

  /** Creates a ROW type; {@code angleBrackets} says how it was written. */
  public BridgeRowTypeNameSpec(
      SqlParserPos pos,
      List<SqlIdentifier> fieldNames,
      List<SqlDataTypeSpec> fieldTypes,
      boolean angleBrackets) {
    super(pos, fieldNames, fieldTypes);
    this.angleBrackets = angleBrackets;
  }

  /** Returns whether the type was written {@code ROW<...>}. */
  public boolean angleBrackets() {
    return angleBrackets;
  }

  @Override
  public RelDataType deriveType(SqlValidator validator) {
    final List<RelDataType> types = new ArrayList<>();
    final List<String> names = new ArrayList<>();
    for (int i = 0; i < getArity(); i++) {
      names.add(getFieldNames().get(i).getSimple());
      types.add(getFieldTypes().get(i).deriveType(validator));
    }
    return validator
        .getTypeFactory()
        .createStructType(StructKind.PEEK_FIELDS_NO_EXPAND, types, names);
  }

  @Override
  public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword("ROW");
    final SqlWriter.Frame frame =
        angleBrackets
            ? writer.startList(SqlWriter.FrameTypeEnum.FUN_CALL, "<", ">")
            : writer.startList(SqlWriter.FrameTypeEnum.FUN_CALL, "(", ")");
    writer.setNeedWhitespace(false);
    for (int i = 0; i < getArity(); i++) {
      writer.sep(",", false);
      getFieldNames().get(i).unparse(writer, 0, 0);
      BridgeTypeSpecs.unparse(writer, getFieldTypes().get(i));
    }
    writer.setNeedWhitespace(false);
    writer.endList(frame);
  }

  @Override
  public boolean equalsDeep(SqlTypeNameSpec node, Litmus litmus) {
    if (!(node instanceof BridgeRowTypeNameSpec)) {
      return litmus.fail("{} != {}", this, node);
    }
    final BridgeRowTypeNameSpec that = (BridgeRowTypeNameSpec) node;
    if (angleBrackets != that.angleBrackets
        || !BridgeTypeSpecs.sameNullability(getFieldTypes(), that.getFieldTypes())) {
      return litmus.fail("{} != {}", this, node);
    }
    return super.equalsDeep(node, litmus);
  }
}

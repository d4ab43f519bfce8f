package io.calcitebridge.enumerable;

import io.calcitebridge.rewrite.BottomUp;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.adapter.enumerable.EnumerableCalc;
import org.apache.calcite.adapter.enumerable.EnumerableUncollect;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgramBuilder;
import org.apache.calcite.schema.impl.ScalarFunctionImpl;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.InferTypes;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Runs after cost-based planning: {@code UNNEST} of an ARRAY of ROWs holding a NULL element gives a
 * row of NULLs for that element. Calcite's engine (1.42) flattens each element of such an array
 * into the row it emits and failed on a NULL one with a NullPointerException; below each {@link
 * EnumerableUncollect}, every ARRAY of ROWs it unnests has its NULL elements replaced by an element
 * whose fields are all NULL ({@link #ROWS_OF_NULLS}), which the engine flattens as it does any
 * other.
 */
public final class NullRowElements {
  private NullRowElements() {}

  /**
   * {@code rows_of_nulls(array, arity)}: {@code array} with each NULL element replaced by {@code
   * arity} NULL fields; NULL for a NULL array. Runs in Calcite's engine only.
   */
  static final SqlUserDefinedFunction ROWS_OF_NULLS =
      new SqlUserDefinedFunction(
          new SqlIdentifier("rows_of_nulls", SqlParserPos.ZERO),
          ReturnTypes.ARG0,
          InferTypes.FIRST_KNOWN,
          OperandTypes.ANY_ANY,
          null,
          ScalarFunctionImpl.create(NullRowElements.class, "rowsOfNulls"));

  /** The implementation of {@link #ROWS_OF_NULLS}. */
  public static @Nullable List<@Nullable Object> rowsOfNulls(
      @Nullable List<@Nullable Object> array, int arity) {
    if (array == null || !array.contains(null)) {
      return array;
    }
    List<@Nullable Object> out = new ArrayList<>(array.size());
    for (Object element : array) {
      out.add(element == null ? new Object[arity] : element);
    }
    return out;
  }

  /** {@code rel} with the arrays of ROWs each UNNEST reads freed of NULL elements. */
  public static RelNode apply(RelNode rel) {
    return BottomUp.rewrite(rel, NullRowElements::step);
  }

  private static RelNode step(RelNode rel) {
    if (!(rel instanceof EnumerableUncollect uncollect)) {
      return rel;
    }
    RelNode input = uncollect.getInput();
    List<RelDataTypeField> fields = input.getRowType().getFieldList();
    if (fields.stream().noneMatch(f -> rowElements(f.getType()) > 0)) {
      return rel;
    }
    RexBuilder rex = rel.getCluster().getRexBuilder();
    RexProgramBuilder program = new RexProgramBuilder(input.getRowType(), rex);
    for (int i = 0; i < fields.size(); i++) {
      RelDataType type = fields.get(i).getType();
      RexNode ref = rex.makeInputRef(type, i);
      int arity = rowElements(type);
      program.addProject(
          arity > 0
              ? rex.makeCall(
                  type, ROWS_OF_NULLS, List.of(ref, rex.makeLiteral(arity, intType(rex))))
              : ref,
          fields.get(i).getName());
    }
    RelNode calc = EnumerableCalc.create(input, program.getProgram());
    return uncollect.copy(uncollect.getTraitSet(), List.of(calc));
  }

  /** The field count of a nullable ROW element of the ARRAY type {@code type}, or 0. */
  private static int rowElements(RelDataType type) {
    RelDataType element = type.getComponentType();
    return type.getSqlTypeName() == SqlTypeName.ARRAY
            && element != null
            && element.isStruct()
            && element.isNullable()
        ? element.getFieldCount()
        : 0;
  }

  private static RelDataType intType(RexBuilder rex) {
    return rex.getTypeFactory().createSqlType(SqlTypeName.INTEGER);
  }
}

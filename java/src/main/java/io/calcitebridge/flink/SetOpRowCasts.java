package io.calcitebridge.flink;

import io.calcitebridge.functions.CollectionCasts;
import io.calcitebridge.rewrite.BottomUp;
import io.calcitebridge.rewrite.CallRewrites;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.SetOp;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Casts each input of a UNION, INTERSECT or EXCEPT whose ROW column holds a field of another type
 * than the set operation's column: {@code SELECT CAST(ROW(1, ROW(2)) AS ROW<a INT, n ROW<x INT>>)
 * UNION SELECT CAST(NULL AS ROW<a INT, n ROW<x BIGINT>>)} is typed {@code ROW<a INT, n ROW<x
 * BIGINT>>}, but the validator's coercion casts scalar columns only, so the first input's {@code x}
 * stayed an {@code Integer} where the code above the union reads a {@code Long} (a
 * ClassCastException on Calcite's engine). The cast is added to the input's projection, field by
 * field ({@link RowCasts}). Runs on the plan given to the Enumerable engine only.
 */
public final class SetOpRowCasts {
  private SetOpRowCasts() {}

  /** {@code rel} with the ROW columns of each set operation's inputs cast to its column types. */
  public static RelNode apply(RelNode rel) {
    return BottomUp.rewrite(rel, SetOpRowCasts::step);
  }

  private static RelNode step(RelNode rel) {
    if (!(rel instanceof SetOp setOp)) {
      return rel;
    }
    List<RelDataTypeField> columns = setOp.getRowType().getFieldList();
    List<RelNode> inputs = new ArrayList<>(setOp.getInputs().size());
    boolean changed = false;
    for (RelNode input : setOp.getInputs()) {
      List<RelDataTypeField> fields = input.getRowType().getFieldList();
      if (fields.size() != columns.size()
          || java.util.stream.IntStream.range(0, fields.size())
              .noneMatch(i -> rowDiffers(fields.get(i).getType(), columns.get(i).getType()))) {
        inputs.add(input);
        continue;
      }
      RexBuilder rex = input.getCluster().getRexBuilder();
      List<RexNode> projects = new ArrayList<>(fields.size());
      for (int i = 0; i < fields.size(); i++) {
        RexNode ref = RexInputRef.of(i, input.getRowType());
        RelDataType type = columns.get(i).getType();
        projects.add(
            rowDiffers(fields.get(i).getType(), type)
                ? rex.makeAbstractCast(type, ref, false)
                : ref);
      }
      RelNode cast =
          LogicalProject.create(
              input, List.of(), projects, input.getRowType().getFieldNames(), Set.of());
      // Field by field, an ARRAY or MAP field's elements cast as well.
      inputs.add(CallRewrites.everyCall(RowCasts.apply(cast), CollectionCasts::elementCasts));
      changed = true;
    }
    return changed ? setOp.copy(setOp.getTraitSet(), inputs) : rel;
  }

  /** Whether {@code from} and {@code to} are ROWs with a field held as another Java type. */
  private static boolean rowDiffers(RelDataType from, RelDataType to) {
    if (!from.isStruct() || !to.isStruct() || from.getFieldCount() != to.getFieldCount()) {
      return false;
    }
    for (int i = 0; i < from.getFieldCount(); i++) {
      if (heldDifferently(
          from.getFieldList().get(i).getType(), to.getFieldList().get(i).getType())) {
        return true;
      }
    }
    return false;
  }

  /** Whether values of {@code a} and of {@code b} are held differently (an INT and a BIGINT). */
  private static boolean heldDifferently(RelDataType a, RelDataType b) {
    if (a.isStruct() || b.isStruct()) {
      return rowDiffers(a, b);
    }
    RelDataType ca = a.getComponentType();
    RelDataType cb = b.getComponentType();
    if (ca != null && cb != null) {
      return heldDifferently(ca, cb);
    }
    RelDataType ka = a.getKeyType();
    RelDataType kb = b.getKeyType();
    RelDataType va = a.getValueType();
    RelDataType vb = b.getValueType();
    if (ka != null && kb != null && va != null && vb != null) {
      return heldDifferently(ka, kb) || heldDifferently(va, vb);
    }
    SqlTypeName x = a.getSqlTypeName();
    SqlTypeName y = b.getSqlTypeName();
    if (SqlTypeName.CHAR_TYPES.contains(x) && SqlTypeName.CHAR_TYPES.contains(y)
        || SqlTypeName.BINARY_TYPES.contains(x) && SqlTypeName.BINARY_TYPES.contains(y)
        || x == SqlTypeName.NULL
        || y == SqlTypeName.NULL) {
      return false; // held alike: a String, a ByteString, or no value
    }
    if (x != y) {
      return true;
    }
    return a.getSqlTypeName() == SqlTypeName.DECIMAL && a.getScale() != b.getScale();
  }
}

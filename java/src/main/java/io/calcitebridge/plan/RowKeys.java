package io.calcitebridge.plan;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.core.SetOp;
import org.apache.calcite.rel.core.Union;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;

/**
 * Refuses, on Calcite's engine, the plans that would compare ROW values by identity: the engine
 * holds a ROW as an {@code Object[]}, and its hash tables (GROUP BY, DISTINCT, COUNT(DISTINCT ...),
 * joins on {@code =}, UNION, INTERSECT and EXCEPT) compare arrays as the same object, not by their
 * fields: {@code SELECT DISTINCT pt} kept every row and a join on {@code a.pt = b.pt} matched
 * nothing. The statement fails with an error naming the construct; {@code auto} runs it on DuckDB,
 * which compares ROWs by value. A comparison of ROWs in a filter is by value and runs.
 */
final class RowKeys {
  private RowKeys() {}

  static void refuse(RelNode rel) {
    if (rel instanceof Aggregate aggregate) {
      for (int key : aggregate.getGroupSet()) {
        check(aggregate.getInput(), key, "GROUP BY or DISTINCT of");
      }
      for (AggregateCall call : aggregate.getAggCallList()) {
        if (call.isDistinct()) {
          for (int arg : call.getArgList()) {
            check(aggregate.getInput(), arg, "an aggregate of DISTINCT");
          }
        }
      }
    } else if (rel instanceof Join join) {
      JoinInfo info = join.analyzeCondition();
      for (int key : info.leftKeys) {
        check(join.getLeft(), key, "a join on");
      }
    } else if (rel instanceof SetOp setOp && !(setOp instanceof Union && setOp.all)) {
      for (int i = 0; i < setOp.getRowType().getFieldCount(); i++) {
        check(setOp, i, setOp.kind + " of");
      }
    }
    for (RelNode input : rel.getInputs()) {
      refuse(input);
    }
  }

  private static void check(RelNode rel, int column, String what) {
    RelDataTypeField field = rel.getRowType().getFieldList().get(column);
    if (holdsRow(field.getType())) {
      throw new UnsupportedOperationException(
          what
              + " a ROW value (column '"
              + field.getName()
              + "') is not supported: the enumerable backend compares ROWs there by identity;"
              + " the duckdb backend runs it");
    }
  }

  private static boolean holdsRow(RelDataType type) {
    if (type.isStruct()) {
      return true;
    }
    RelDataType component = type.getComponentType();
    RelDataType key = type.getKeyType();
    RelDataType value = type.getValueType();
    return (component != null && holdsRow(component))
        || (key != null && holdsRow(key))
        || (value != null && holdsRow(value));
  }
}

package io.calcitebridge.enumerable;

import com.google.common.collect.ImmutableList;
import io.calcitebridge.rewrite.BottomUp;
import java.math.BigDecimal;
import java.util.List;
import org.apache.calcite.adapter.enumerable.EnumerableValues;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;

/**
 * Runs after cost-based planning: a literal of an {@link EnumerableValues} typed {@code DECIMAL} in
 * a floating-point column becomes a literal of the column's type.
 *
 * <p>The planner folds the casts of {@code INSERT INTO t (x DOUBLE) VALUES (1.5), (NULL)} into the
 * literals but keeps their {@code DECIMAL} type; Calcite's code for a literal (in {@code
 * RexToLixTranslator.translateLiteral}) turns a {@code DECIMAL} into a {@code double} only for a
 * NOT NULL column, and wrote a {@code BigDecimal} into a nullable one: the statement did not
 * compile ("Assignment conversion not possible from BigDecimal to Double"), or, with two columns,
 * stored a {@code BigDecimal} in a {@code DOUBLE} column.
 */
public final class ValuesLiterals {
  private ValuesLiterals() {}

  /** {@code rel} with the literals of its values retyped; shared inputs stay shared. */
  public static RelNode apply(RelNode rel) {
    return BottomUp.rewrite(rel, ValuesLiterals::step);
  }

  private static RelNode step(RelNode rel) {
    RelNode node = rel;
    if (node instanceof EnumerableValues values) {
      node = retyped(values);
      if (node instanceof EnumerableValues retyped) {
        node = StashedValues.of(retyped);
      }
    }
    return node;
  }

  private static RelNode retyped(EnumerableValues values) {
    RexBuilder rex = values.getCluster().getRexBuilder();
    List<RelDataTypeField> fields = values.getRowType().getFieldList();
    ImmutableList.Builder<ImmutableList<RexLiteral>> tuples = ImmutableList.builder();
    boolean changed = false;
    for (List<RexLiteral> tuple : values.getTuples()) {
      ImmutableList.Builder<RexLiteral> row = ImmutableList.builder();
      for (int i = 0; i < tuple.size(); i++) {
        RexLiteral literal = tuple.get(i);
        RelDataType type = fields.get(i).getType();
        if (!literal.isNull()
            && literal.getType().getSqlTypeName() == SqlTypeName.DECIMAL
            && SqlTypeUtil.isApproximateNumeric(type)) {
          RelDataType notNull = rex.getTypeFactory().createTypeWithNullability(type, false);
          row.add(rex.makeApproxLiteral(literal.getValueAs(BigDecimal.class), notNull));
          changed = true;
        } else {
          row.add(literal);
        }
      }
      tuples.add(row.build());
    }
    return changed
        ? EnumerableValues.create(values.getCluster(), values.getRowType(), tuples.build())
        : values;
  }
}

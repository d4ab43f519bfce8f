package io.calcitebridge.flink;

import java.util.List;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.validate.SqlValidatorUtil;

/**
 * A query's column names made unique as Flink makes them: a repeated name gets the first free
 * suffix {@code 0}, {@code 1}, ... ({@code SELECT a, a, a} is {@code a, a0, a1}); names differing
 * only in case are distinct. Arrow, pandas and DuckDB then see one column per name.
 */
public final class OutputNames {
  private OutputNames() {}

  /** {@code names}, each repeated one renamed. */
  public static List<String> unique(List<String> names) {
    return SqlValidatorUtil.uniquify(names, SqlValidatorUtil.EXPR_SUGGESTER, true);
  }

  /** {@code type}, a row type, with unique field names. */
  public static RelDataType unique(RelDataType type, RelDataTypeFactory typeFactory) {
    List<String> names = type.getFieldNames();
    List<String> unique = unique(names);
    if (unique.equals(names)) {
      return type;
    }
    return typeFactory.createTypeWithNullability(
        typeFactory.createStructType(
            type.getFieldList().stream().map(f -> f.getType()).toList(), unique),
        type.isNullable());
  }

  /** {@code rel}, renamed (by a projection) when its field names repeat. */
  public static RelNode unique(RelNode rel) {
    List<String> names = rel.getRowType().getFieldNames();
    List<String> unique = unique(names);
    if (unique.equals(names)) {
      return rel;
    }
    return RelFactories.LOGICAL_BUILDER
        .create(rel.getCluster(), null)
        .push(rel)
        .rename(unique)
        .build();
  }
}

package io.calcitebridge.functions;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.fun.SqlAvgAggFunction;

/**
 * {@code VAR_SAMP} and {@code VARIANCE}, Calcite's functions typed as they give: the sample
 * variance of one value is NULL, so the result may be NULL whatever the argument. Calcite's type
 * ({@code ReturnTypes.AVG_AGG_FUNCTION}) makes {@code STDDEV_SAMP} nullable but not {@code
 * VAR_SAMP}, so {@code VAR_SAMP(x)} of a NOT NULL {@code x} in a grouped query was NOT NULL: a
 * group of one row failed on Calcite's engine (its NULL unboxed) and gave a NULL in a column
 * declared NOT NULL elsewhere. (Flink types it NOT NULL too, and gives -1 for such a group.) As an
 * operator's own type, every rule that types the call again agrees with the validator. Calcite's
 * CALCITE-7656 makes {@code AVG_AGG_FUNCTION} nullable for {@code VAR_SAMP} in a release after the
 * bundled 1.42; with it this class can go.
 */
public final class SampleVariance extends SqlAvgAggFunction {
  /** {@code VAR_SAMP}. */
  public static final SampleVariance VAR_SAMP = new SampleVariance("VAR_SAMP");

  /** {@code VARIANCE}, the same function by Flink's other name. */
  public static final SampleVariance VARIANCE = new SampleVariance("VARIANCE");

  private final String shownName;

  private SampleVariance(String name) {
    super(SqlKind.VAR_SAMP);
    this.shownName = name;
  }

  @Override
  public String getName() {
    return shownName;
  }

  @Override
  public RelDataType inferReturnType(SqlOperatorBinding binding) {
    return binding.getTypeFactory().createTypeWithNullability(super.inferReturnType(binding), true);
  }
}

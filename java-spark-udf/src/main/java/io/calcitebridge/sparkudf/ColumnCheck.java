package io.calcitebridge.sparkudf;

import io.calcitebridge.dyncol.DynColRuntime;
import org.apache.spark.sql.api.java.UDF1;

/** {@code COLUMN_CHECK(blob)} as the Spark UDF {@code cb_dyncol_check(blob)}, returning INT. */
public final class ColumnCheck implements UDF1<Object, Integer> {
  private static final long serialVersionUID = 1L;

  @Override
  public Integer call(Object blob) {
    return DynColRuntime.check(Blobs.of(blob));
  }
}

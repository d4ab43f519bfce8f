package io.calcitebridge.sparkudf;

import io.calcitebridge.dyncol.DynColRuntime;
import org.apache.spark.sql.api.java.UDF1;

/** {@code COLUMN_JSON(blob)} as the Spark UDF {@code cb_dyncol_json(blob)}, returning STRING. */
public final class ColumnJson implements UDF1<Object, String> {
  private static final long serialVersionUID = 1L;

  @Override
  public String call(Object blob) {
    return DynColRuntime.json(Blobs.of(blob));
  }
}

package io.calcitebridge.sparkudf;

import io.calcitebridge.dyncol.DynColRuntime;
import org.apache.spark.sql.api.java.UDF2;

/**
 * {@code COLUMN_EXISTS(blob, key)} as the Spark UDF {@code cb_dyncol_exists(blob, key)}, returning
 * INT.
 */
public final class ColumnExists implements UDF2<Object, Object, Integer> {
  private static final long serialVersionUID = 1L;

  @Override
  public Integer call(Object blob, Object key) {
    return DynColRuntime.exists(Blobs.of(blob), key);
  }
}

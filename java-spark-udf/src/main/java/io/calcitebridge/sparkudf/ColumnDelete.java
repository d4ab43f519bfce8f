package io.calcitebridge.sparkudf;

import io.calcitebridge.dyncol.DynColRuntime;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.api.java.UDF2;

/**
 * {@code COLUMN_DELETE(blob, k1, k2, ...)} as the Spark UDF {@code cb_dyncol_delete(blob,
 * struct(k1, k2, ...))}, returning BINARY.
 */
public final class ColumnDelete implements UDF2<Object, Row, byte[]> {
  private static final long serialVersionUID = 1L;

  @Override
  public byte[] call(Object blob, Row keys) {
    return Values.bytes(DynColRuntime.delete(Blobs.of(blob), Values.keys(keys)));
  }
}

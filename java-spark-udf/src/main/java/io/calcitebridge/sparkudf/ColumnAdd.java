package io.calcitebridge.sparkudf;

import io.calcitebridge.dyncol.DynColRuntime;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.api.java.UDF3;

/**
 * {@code COLUMN_ADD(blob, k1, v1 [AS t1], ...)} as the Spark UDF {@code cb_dyncol_add(spec, blob,
 * struct(k1, v1, ...))}, returning BINARY; the pairs and the spec as in {@link ColumnCreate}.
 */
public final class ColumnAdd implements UDF3<String, Object, Row, byte[]> {
  private static final long serialVersionUID = 1L;

  @Override
  public byte[] call(String spec, Object blob, Row pairs) {
    Values.Pairs p = Values.pairs(spec, pairs);
    return Values.bytes(
        DynColRuntime.add(Blobs.of(blob), p.keys(), p.values(), p.kinds(), p.types()));
  }
}

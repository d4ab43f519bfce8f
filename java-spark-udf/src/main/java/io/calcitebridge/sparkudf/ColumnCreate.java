package io.calcitebridge.sparkudf;

import io.calcitebridge.dyncol.DynColRuntime;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.api.java.UDF2;

/**
 * {@code COLUMN_CREATE(k1, v1 [AS t1], k2, v2, ...)} as the Spark UDF {@code cb_dyncol_create(spec,
 * struct(k1, v1, k2, v2, ...))}, returning BINARY: the pairs travel in one STRUCT (so any number of
 * them fits Spark's fixed-arity UDFs), the spec gives each value's kind and {@code AS} type ({@link
 * Values#pairs}).
 */
public final class ColumnCreate implements UDF2<String, Row, byte[]> {
  private static final long serialVersionUID = 1L;

  @Override
  public byte[] call(String spec, Row pairs) {
    Values.Pairs p = Values.pairs(spec, pairs);
    return Values.bytes(DynColRuntime.create(p.keys(), p.values(), p.kinds(), p.types()));
  }
}

package io.calcitebridge.sparkudf;

import io.calcitebridge.dyncol.DynColRuntime;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.api.java.UDF2;

/**
 * {@code COLUMN_CREATE(k1, v1 [AS t1], k2, v2, ...)} as the Spark UDF {@code cb_dyncol_create(spec,
 * struct(k1, v1, k2, v2, ...))}, returning BINARY: the pairs travel in one STRUCT (so any number of
 * them fits Spark's fixed-arity UDFs), the spec gives each value's kind and {@code AS} type ({@link
 * Values#spec}).
 */
public final class ColumnCreate implements UDF2<String, Row, byte[]> {
  private static final long serialVersionUID = 1L;

  @Override
  public byte[] call(String spec, Row pairs) {
    int n = pairs.length() / 2;
    String[][] s = Values.spec(spec, n);
    Object[] keys = new Object[n];
    Object[] values = new Object[n];
    for (int i = 0; i < n; i++) {
      keys[i] = Values.key(pairs.get(2 * i));
      values[i] = Values.value(pairs.get(2 * i + 1), s[0][i]);
    }
    return Values.bytes(DynColRuntime.create(keys, values, s[0], s[1]));
  }
}

package io.calcitebridge.statement;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * The outcome of one statement before it becomes Arrow: a row type and rows in Calcite's runtime
 * representation.
 *
 * @param kind what ran: {@code query}, {@code insert}, {@code ddl}, {@code explain}, ...
 * @param rowType the columns
 * @param rows the rows, read once
 * @param direct the rows as a source's own Arrow stream, or null
 * @param translation the query in a backend's SQL, which runs it over {@code scans}, or null
 * @param scans the scans a translation reads, as Arrow streams, in order
 */
public record RowSet(
    String kind,
    RelDataType rowType,
    Enumerable<Object[]> rows,
    org.apache.arrow.vector.ipc.@org.checkerframework.checker.nullness.qual.Nullable ArrowReader
        direct,
    io.calcitebridge.translate.@org.checkerframework.checker.nullness.qual.Nullable Translation
        translation,
    List<BackendScan> scans) {

  public RowSet(String kind, RelDataType rowType, Enumerable<Object[]> rows) {
    this(kind, rowType, rows, null, null, List.of());
  }

  public RowSet(
      String kind,
      RelDataType rowType,
      Enumerable<Object[]> rows,
      org.apache.arrow.vector.ipc.@org.checkerframework.checker.nullness.qual.Nullable ArrowReader
          direct) {
    this(kind, rowType, rows, direct, null, List.of());
  }

  /** A small result of string-or-other columns built from a list of rows. */
  public static RowSet of(String kind, RelDataType rowType, List<Object[]> rows) {
    return new RowSet(kind, rowType, Linq4j.asEnumerable(rows));
  }

  /** The one-row {@code result = 'OK'} answer of a DDL statement. */
  public static RowSet ok(String kind, RelDataTypeFactory tf) {
    return of(kind, strings(tf, "result"), List.<Object[]>of(new Object[] {"OK"}));
  }

  /** A row type of nullable strings named {@code names}. */
  public static RelDataType strings(RelDataTypeFactory tf, String... names) {
    List<RelDataType> types = new ArrayList<>();
    for (int i = 0; i < names.length; i++) {
      types.add(
          tf.createTypeWithNullability(
              tf.createSqlType(SqlTypeName.VARCHAR, Integer.MAX_VALUE), true));
    }
    return tf.createStructType(types, List.of(names));
  }
}

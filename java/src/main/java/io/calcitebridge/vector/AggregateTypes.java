package io.calcitebridge.vector;

import org.apache.calcite.sql.type.SqlTypeName;

/** The SQL types the vectorized aggregates compute with. */
final class AggregateTypes {
  private AggregateTypes() {}

  /** Whether aggregates of this result type sum as floating point. */
  static boolean isFloating(SqlTypeName type) {
    return type == SqlTypeName.REAL || type == SqlTypeName.FLOAT || type == SqlTypeName.DOUBLE;
  }

  /** Whether SUM, MIN and MAX can be computed here for a column and a result of this type. */
  static boolean isInteger(SqlTypeName type) {
    return type == SqlTypeName.TINYINT
        || type == SqlTypeName.SMALLINT
        || type == SqlTypeName.INTEGER
        || type == SqlTypeName.BIGINT;
  }

  /** A long sum, minimum or maximum in the Java type of {@code type}. */
  static Object narrow(long value, SqlTypeName type) {
    switch (type) {
      case TINYINT:
        return (byte) fits(value, Byte.MIN_VALUE, Byte.MAX_VALUE, type);
      case SMALLINT:
        return (short) fits(value, Short.MIN_VALUE, Short.MAX_VALUE, type);
      case INTEGER:
        return (int) fits(value, Integer.MIN_VALUE, Integer.MAX_VALUE, type);
      default:
        return value;
    }
  }

  private static long fits(long value, long min, long max, SqlTypeName type) {
    if (value < min || value > max) {
      throw new ArithmeticException(type + " overflow: " + value + " is out of its range");
    }
    return value;
  }
}

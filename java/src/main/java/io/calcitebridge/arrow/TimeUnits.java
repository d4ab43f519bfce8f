package io.calcitebridge.arrow;

import org.apache.arrow.vector.types.TimeUnit;

/** Conversions between Calcite's millisecond values and Arrow time units. */
final class TimeUnits {
  private TimeUnits() {}

  /** Converts a value in {@code unit} to milliseconds, rounding towards negative infinity. */
  static long toMillis(long value, TimeUnit unit) {
    switch (unit) {
      case SECOND:
        return Math.multiplyExact(value, 1000L);
      case MILLISECOND:
        return value;
      case MICROSECOND:
        return Math.floorDiv(value, 1000L);
      default:
        return Math.floorDiv(value, 1_000_000L);
    }
  }

  /** Converts milliseconds to {@code unit}, rounding towards negative infinity. */
  static long fromMillis(long millis, TimeUnit unit) {
    switch (unit) {
      case SECOND:
        return Math.floorDiv(millis, 1000L);
      case MILLISECOND:
        return millis;
      case MICROSECOND:
        return Math.multiplyExact(millis, 1000L);
      default:
        return Math.multiplyExact(millis, 1_000_000L);
    }
  }
}

package io.calcitebridge.arrow;

import org.apache.arrow.vector.types.TimeUnit;

/**
 * Conversions between Calcite's engine values of a {@code TIMESTAMP} and Arrow time units.
 *
 * <p>The engine holds a {@code TIMESTAMP(p)} as a count of milliseconds for {@code p <= 3}, of
 * microseconds for {@code p} 4 to 6 and of nanoseconds for {@code p} 7 to 9: the unit of its Arrow
 * type ({@code timestamp[s]} aside, whose values are milliseconds in the engine). A {@code
 * TIMESTAMP_LTZ(p)}, an instant, is held in the same units as a {@code TIMESTAMP(p)}.
 */
public final class TimeUnits {
  private TimeUnits() {}

  /** The ticks per millisecond of the engine's value of a timestamp stored in {@code unit}. */
  static long ticksPerMilli(TimeUnit unit) {
    switch (unit) {
      case MICROSECOND:
        return 1_000L;
      case NANOSECOND:
        return 1_000_000L;
      default:
        return 1L;
    }
  }

  /** Converts a value in {@code unit} to milliseconds, rounding towards negative infinity. */
  public static long toMillis(long value, TimeUnit unit) {
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

  /** The engine's value of a timestamp of {@code unit} stored as {@code value}. */
  static long toEngine(long value, TimeUnit unit) {
    return ticksPerMilli(unit) == 1L ? toMillis(value, unit) : value;
  }

  /** The value stored in {@code unit} for the engine's value {@code ticks}. */
  static long fromEngine(long ticks, TimeUnit unit) {
    return ticksPerMilli(unit) == 1L ? fromMillis(ticks, unit) : ticks;
  }
}

package io.calcitebridge.dyncol;

import java.util.Objects;

/**
 * A temporal value as the dynamic-columns format stores it (MariaDB's MYSQL_TIME): a DATE, a TIME
 * (signed, up to 838 hours) or a DATETIME, with microseconds.
 */
public final class DynTime {
  /** What the value is. */
  public enum Kind {
    DATE,
    TIME,
    DATETIME
  }

  public final Kind kind;
  public final int year;
  public final int month;
  public final int day;
  public final int hour;
  public final int minute;
  public final int second;
  public final int micros;
  public final boolean negative;

  public DynTime(
      Kind kind,
      int year,
      int month,
      int day,
      int hour,
      int minute,
      int second,
      int micros,
      boolean negative) {
    this.kind = kind;
    this.year = year;
    this.month = month;
    this.day = day;
    this.hour = hour;
    this.minute = minute;
    this.second = second;
    this.micros = micros;
    this.negative = negative;
  }

  public static DynTime date(int year, int month, int day) {
    return new DynTime(Kind.DATE, year, month, day, 0, 0, 0, 0, false);
  }

  public static DynTime time(boolean negative, int hour, int minute, int second, int micros) {
    return new DynTime(Kind.TIME, 0, 0, 0, hour, minute, second, micros, negative);
  }

  public static DynTime datetime(
      int year, int month, int day, int hour, int minute, int second, int micros) {
    return new DynTime(Kind.DATETIME, year, month, day, hour, minute, second, micros, false);
  }

  /** As MariaDB prints it: microseconds only when not zero, then all six digits. */
  @Override
  public String toString() {
    StringBuilder b = new StringBuilder();
    if (kind != Kind.TIME) {
      b.append(String.format("%04d-%02d-%02d", year, month, day));
      if (kind == Kind.DATE) {
        return b.toString();
      }
      b.append(' ');
    } else if (negative) {
      b.append('-');
    }
    b.append(String.format("%02d:%02d:%02d", hour, minute, second));
    if (micros != 0) {
      b.append(String.format(".%06d", micros));
    }
    return b.toString();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DynTime && toString().equals(o.toString()) && kind == ((DynTime) o).kind;
  }

  @Override
  public int hashCode() {
    return Objects.hash(kind, toString());
  }
}

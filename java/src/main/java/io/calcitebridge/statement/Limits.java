package io.calcitebridge.statement;

import io.calcitebridge.errors.ConfigException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The text forms of the limits a statement runs under: durations ({@code execution.timeout}, {@code
 * planner.timeout}) such as {@code '30 s'}, and sizes ({@code execution.memory-limit}) such as
 * {@code '256 MB'}. {@code 0} means no limit.
 */
public final class Limits {
  private static final Pattern DURATION =
      Pattern.compile(
          "(\\d+(?:\\.\\d+)?)\\s*(ms|millis|milliseconds?|s|sec|secs|seconds?|min|mins|minutes?"
              + "|h|hours?)?");
  private static final Pattern SIZE =
      Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(b|bytes?|k|kb|kib|m|mb|mib|g|gb|gib|t|tb|tib)?");

  private Limits() {}

  /** {@code value} checked as a duration for {@code key}, in a canonical form ({@code 30 s}). */
  public static String normalizeDuration(String key, String value) {
    String v = value.trim().toLowerCase(Locale.ROOT);
    Matcher m = DURATION.matcher(v);
    if (m.matches() && (m.group(2) != null || Double.parseDouble(m.group(1)) == 0)) {
      return m.group(2) == null ? "0" : m.group(1) + " " + m.group(2);
    }
    throw new ConfigException(
        "Invalid value '"
            + value.trim()
            + "' for '"
            + key
            + "': expected a duration with its unit, such as '30 s', '500 ms', '2 min' or '1 h'"
            + " (0 means no limit)");
  }

  /** {@code value} checked as a size for {@code key}, in a canonical form ({@code 256 mb}). */
  public static String normalizeSize(String key, String value) {
    String v = value.trim().toLowerCase(Locale.ROOT);
    Matcher m = SIZE.matcher(v);
    if (m.matches()) {
      return m.group(2) == null ? m.group(1) : m.group(1) + " " + m.group(2);
    }
    throw new ConfigException(
        "Invalid value '"
            + value.trim()
            + "' for '"
            + key
            + "': expected a size such as '256 MB', '1 GB' or a number of bytes (0 means no"
            + " limit)");
  }

  /** Milliseconds of a duration in canonical form; 0 for none. */
  public static long millis(String duration) {
    Matcher m = DURATION.matcher(duration.trim().toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      throw new ConfigException("Invalid duration '" + duration + "'");
    }
    double n = Double.parseDouble(m.group(1));
    String unit = m.group(2) == null ? "s" : m.group(2);
    double factor;
    if (unit.startsWith("ms") || unit.startsWith("milli")) {
      factor = 1;
    } else if (unit.startsWith("s")) {
      factor = 1_000;
    } else if (unit.startsWith("m")) {
      factor = 60_000;
    } else {
      factor = 3_600_000;
    }
    double ms = n * factor;
    return ms <= 0 ? 0 : Math.max(1, (long) Math.min(ms, Long.MAX_VALUE / 2.0));
  }

  /** Bytes of a size in canonical form; 0 for none. */
  public static long bytes(String size) {
    Matcher m = SIZE.matcher(size.trim().toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      throw new ConfigException("Invalid size '" + size + "'");
    }
    double n = Double.parseDouble(m.group(1));
    String unit = m.group(2) == null ? "b" : m.group(2);
    double factor =
        switch (unit.charAt(0)) {
          case 'k' -> 1L << 10;
          case 'm' -> 1L << 20;
          case 'g' -> 1L << 30;
          case 't' -> 1L << 40;
          default -> 1;
        };
    return (long) Math.min(n * factor, Long.MAX_VALUE / 2.0);
  }
}

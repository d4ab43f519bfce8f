package io.calcitebridge.connector;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The {@code WITH} options of a table as a Flink connector factory reads them: each key read is
 * consumed, a value is parsed as the option's type with Flink's message when it does not parse, and
 * a key that no read consumed is refused with Flink's "Unsupported options found" message.
 */
final class ConnectorOptions {
  private static final Pattern DURATION =
      Pattern.compile(
          "(-?\\d+)\\s*(ns|nano|nanos|nanosecond|nanoseconds|us|micro|micros|microsecond|"
              + "microseconds|ms|milli|millis|millisecond|milliseconds|s|sec|secs|second|seconds|"
              + "m|min|mins|minute|minutes|h|hour|hours|d|day|days)?");

  private final Map<String, String> all;
  private final TreeSet<String> consumed = new TreeSet<>();
  private final List<String> prefixes = new ArrayList<>();

  ConnectorOptions(Map<String, String> all) {
    this.all = all;
    consumed.add("connector");
  }

  /** Marks {@code keys} as known without reading them. */
  void accept(String... keys) {
    consumed.addAll(List.of(keys));
  }

  /** Accepts every key starting with {@code prefix} (such as {@code properties.}). */
  void acceptPrefix(String prefix) {
    prefixes.add(prefix);
  }

  boolean has(String key) {
    return all.containsKey(key);
  }

  @Nullable String string(String key) {
    consumed.add(key);
    return all.get(key);
  }

  String string(String key, String fallback) {
    String v = string(key);
    return v == null ? fallback : v;
  }

  @Nullable Long longValue(String key) {
    String v = string(key);
    if (v == null) {
      return null;
    }
    try {
      return Long.parseLong(v.trim());
    } catch (NumberFormatException e) {
      throw unparsable(key, v);
    }
  }

  long longValue(String key, long fallback) {
    Long v = longValue(key);
    return v == null ? fallback : v;
  }

  int intValue(String key, int fallback) {
    String v = string(key);
    if (v == null) {
      return fallback;
    }
    try {
      return Integer.parseInt(v.trim());
    } catch (NumberFormatException e) {
      throw unparsable(key, v);
    }
  }

  double doubleValue(String key, double fallback) {
    String v = string(key);
    if (v == null) {
      return fallback;
    }
    try {
      return Double.parseDouble(v.trim());
    } catch (NumberFormatException e) {
      throw unparsable(key, v);
    }
  }

  float floatValue(String key, float fallback) {
    return (float) doubleValue(key, fallback);
  }

  boolean booleanValue(String key, boolean fallback) {
    String v = string(key);
    if (v == null) {
      return fallback;
    }
    String t = v.trim().toLowerCase(Locale.ROOT);
    if (t.equals("true") || t.equals("false")) {
      return Boolean.parseBoolean(t);
    }
    throw unparsable(key, v);
  }

  /** A duration as Flink's {@code TimeUtils} reads it: a number and a unit, milliseconds alone. */
  Duration duration(String key, Duration fallback) {
    String v = string(key);
    if (v == null) {
      return fallback;
    }
    Matcher m = DURATION.matcher(v.trim().toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      throw unparsable(key, v);
    }
    long n = Long.parseLong(m.group(1));
    String unit = m.group(2) == null ? "ms" : m.group(2);
    if (unit.startsWith("n")) {
      return Duration.ofNanos(n);
    } else if (unit.startsWith("u") || unit.startsWith("micro")) {
      return Duration.ofNanos(n * 1000);
    } else if (unit.equals("ms") || unit.startsWith("milli")) {
      return Duration.ofMillis(n);
    } else if (unit.startsWith("s")) {
      return Duration.ofSeconds(n);
    } else if (unit.startsWith("m")) {
      return Duration.ofMinutes(n);
    } else if (unit.startsWith("h")) {
      return Duration.ofHours(n);
    }
    return Duration.ofDays(n);
  }

  /** One of {@code values} (case-insensitive), or {@code fallback} when the key is not set. */
  @Nullable String enumValue(String key, @Nullable String fallback, List<String> values) {
    String v = string(key);
    if (v == null) {
      return fallback;
    }
    for (String allowed : values) {
      if (allowed.equalsIgnoreCase(v.trim())) {
        return allowed;
      }
    }
    return fail(
        "Could not parse value '"
            + v
            + "' for key '"
            + key
            + "'. Expected one of: ["
            + String.join(", ", values)
            + "]");
  }

  /** Fails with Flink's message when a required option is missing. */
  void require(String... keys) {
    List<String> missing = new ArrayList<>();
    for (String k : keys) {
      consumed.add(k);
      if (!all.containsKey(k)) {
        missing.add(k);
      }
    }
    if (!missing.isEmpty()) {
      fail(
          "One or more required options are missing.\n\nMissing required options are:\n\n"
              + missing.stream().sorted().collect(Collectors.joining("\n")));
    }
  }

  /** Fails with Flink's message naming the keys no read consumed, and the supported ones. */
  void checkConsumed(String identifier) {
    List<String> unknown =
        all.keySet().stream()
            .filter(k -> !consumed.contains(k) && prefixes.stream().noneMatch(k::startsWith))
            .sorted()
            .toList();
    if (!unknown.isEmpty()) {
      fail(
          "Unsupported options found for '"
              + identifier
              + "'.\n\nUnsupported options:\n\n"
              + String.join("\n", unknown)
              + "\n\nSupported options:\n\n"
              + String.join("\n", consumed));
    }
  }

  static IllegalArgumentException unparsable(String key, String value) {
    return new IllegalArgumentException(
        "Could not parse value '" + value + "' for key '" + key + "'.");
  }

  static <T> T fail(String message) {
    throw new IllegalArgumentException(message);
  }
}

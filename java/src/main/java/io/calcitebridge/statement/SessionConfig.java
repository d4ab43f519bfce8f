package io.calcitebridge.statement;

import io.calcitebridge.catalog.ExpansionStrategy;
import io.calcitebridge.errors.ConfigException;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TimeZone;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The settings of one environment. Every key is known, and a value is checked when it is set, so a
 * mistake fails at {@code SET} time with the allowed values named.
 */
public final class SessionConfig {
  public static final String EXPANSION_STRATEGY = "table.column-expansion-strategy";
  public static final String LOCAL_TIME_ZONE = "table.local-time-zone";
  public static final String RUNTIME_MODE = "execution.runtime-mode";
  public static final String PYTHON_ALLOWED_MODULES = "python.allowed-modules";
  public static final String EXECUTION_BACKEND = "execution.backend";
  public static final String PLAN_CACHE_SIZE = "planner.plan-cache.size";
  // Limits of one statement (docs/limits.md); 0 means none.
  public static final String EXECUTION_TIMEOUT = "execution.timeout";
  public static final String PLANNER_TIMEOUT = "planner.timeout";
  public static final String MEMORY_LIMIT = "execution.memory-limit";

  /** Threads a backend of this process (DuckDB) runs a statement on; the cores by default. */
  public static final String THREADS = "execution.threads";

  // The sandbox (docs/security.md): what SQL may reach, and the lock that freezes it.
  public static final String FILESYSTEM_ALLOWED_PATHS = "filesystem.allowed-paths";
  public static final String EXTERNAL_ACCESS = "external-access";
  public static final String LOCK_CONFIG = "lock-config";

  /**
   * The jars (files, or directories holding them) that {@code CREATE FUNCTION ... USING JAR} may
   * load when {@link #EXTERNAL_ACCESS} is off or the configuration is locked.
   */
  public static final String JAVA_ALLOWED_JARS = "java.allowed-jars";

  /** The settings that {@link #LOCK_CONFIG} freezes. */
  public static final List<String> SECURITY_KEYS =
      List.of(
          PYTHON_ALLOWED_MODULES,
          JAVA_ALLOWED_JARS,
          FILESYSTEM_ALLOWED_PATHS,
          EXTERNAL_ACCESS,
          EXECUTION_TIMEOUT,
          PLANNER_TIMEOUT,
          MEMORY_LIMIT,
          LOCK_CONFIG);

  /** The default of {@link #PLAN_CACHE_SIZE}: how many planned statements an environment keeps. */
  public static final int DEFAULT_PLAN_CACHE_SIZE = 256;

  /** Values of {@link #EXECUTION_BACKEND}. */
  public static final List<String> BACKENDS = List.of("auto", "enumerable", "duckdb", "spark");

  private record Key(String defaultValue, UnaryOperator<String> normalizer) {}

  private static final Map<String, Key> KEYS = new LinkedHashMap<>();

  static {
    KEYS.put(EXPANSION_STRATEGY, new Key("", SessionConfig::normalizeStrategy));
    KEYS.put(LOCAL_TIME_ZONE, new Key("UTC", SessionConfig::normalizeZone));
    KEYS.put(PYTHON_ALLOWED_MODULES, new Key("", SessionConfig::normalizeList));
    KEYS.put(EXECUTION_BACKEND, new Key("auto", SessionConfig::normalizeBackend));
    KEYS.put(
        PLAN_CACHE_SIZE,
        new Key(Integer.toString(DEFAULT_PLAN_CACHE_SIZE), SessionConfig::normalizeSize));
    KEYS.put(EXECUTION_TIMEOUT, new Key("0", v -> Limits.normalizeDuration(EXECUTION_TIMEOUT, v)));
    KEYS.put(PLANNER_TIMEOUT, new Key("0", v -> Limits.normalizeDuration(PLANNER_TIMEOUT, v)));
    KEYS.put(MEMORY_LIMIT, new Key("0", v -> Limits.normalizeSize(MEMORY_LIMIT, v)));
    KEYS.put(
        THREADS,
        new Key(
            Integer.toString(Runtime.getRuntime().availableProcessors()),
            SessionConfig::normalizeThreads));
    KEYS.put(FILESYSTEM_ALLOWED_PATHS, new Key("", SessionConfig::normalizePaths));
    KEYS.put(JAVA_ALLOWED_JARS, new Key("", v -> normalizePaths(JAVA_ALLOWED_JARS, v)));
    KEYS.put(EXTERNAL_ACCESS, new Key("true", v -> normalizeBoolean(EXTERNAL_ACCESS, v)));
    KEYS.put(LOCK_CONFIG, new Key("false", v -> normalizeBoolean(LOCK_CONFIG, v)));
  }

  private final Map<String, String> values = new ConcurrentHashMap<>();

  /** The number of each set of settings seen (the plan cache's size left out), by the set. */
  private final Map<Map<String, String>, Long> settingsIds = new java.util.HashMap<>();

  /** The number of the current settings ({@link #settingsId}), -1 once they changed. */
  private volatile long settingsId = -1;

  /** Sets {@code key}; fails naming the allowed keys or values, or when the key is locked. */
  public synchronized void set(String key, String value) {
    FlinkOptions.Option flink = KEYS.containsKey(key) ? null : FlinkOptions.option(key);
    if (flink != null) {
      values.put(key, flink.normalizer().apply(value == null ? "" : value));
      settingsId = -1;
      return;
    }
    String normalized = key(key).normalizer.apply(value == null ? "" : value);
    if (locked() && SECURITY_KEYS.contains(key)) {
      if (key.equals(LOCK_CONFIG) && normalized.equals("true")) {
        return; // locking again changes nothing
      }
      throw locked("SET '" + key + "'");
    }
    values.put(key, normalized);
    settingsId = -1;
  }

  /** Resets {@code key} to its default; every key when null. Fails for a locked key. */
  public synchronized void reset(@Nullable String key) {
    if (key == null) {
      if (locked()) {
        throw locked("RESET (of every key)");
      }
      values.clear();
    } else {
      if (!KEYS.containsKey(key) && FlinkOptions.option(key) != null) {
        values.remove(key);
        settingsId = -1;
        return;
      }
      key(key);
      if (locked() && SECURITY_KEYS.contains(key)) {
        throw locked("RESET '" + key + "'");
      }
      values.remove(key);
    }
    settingsId = -1;
  }

  /**
   * A number that is the same whenever the settings are (every key but the plan cache's size, which
   * no plan depends on): what a plan cache key holds of them, read without copying them.
   */
  public long settingsId() {
    long id = settingsId;
    if (id >= 0) {
      return id;
    }
    synchronized (this) {
      if (settingsId < 0) {
        Map<String, String> current = all();
        current.remove(PLAN_CACHE_SIZE);
        if (settingsIds.size() >= 1024) {
          settingsIds.clear(); // the numbers given go on rising: none is given twice
        }
        Long known = settingsIds.get(current);
        if (known == null) {
          known = nextSettingsId++;
          settingsIds.put(current, known);
        }
        settingsId = known;
      }
      return settingsId;
    }
  }

  private long nextSettingsId;

  /** Whether {@link #LOCK_CONFIG} froze the security settings for the environment's life. */
  public boolean locked() {
    return "true".equals(values.get(LOCK_CONFIG));
  }

  private static ConfigException locked(String what) {
    return new ConfigException(
        "The configuration is locked ('"
            + LOCK_CONFIG
            + "' = 'true'): "
            + what
            + " is refused. The security settings ("
            + String.join(", ", SECURITY_KEYS)
            + ") keep their values for the life of this environment");
  }

  public String get(String key) {
    FlinkOptions.Option flink = KEYS.containsKey(key) ? null : FlinkOptions.option(key);
    if (flink != null) {
      String v = values.get(key);
      return v != null ? v : flink.defaultValue() == null ? "" : flink.defaultValue();
    }
    return values.getOrDefault(key, key(key).defaultValue);
  }

  /**
   * Every key of our own with its current value, in a stable order, then the Flink keys that were
   * set (sorted).
   */
  public Map<String, String> all() {
    Map<String, String> m = new LinkedHashMap<>();
    for (String k : KEYS.keySet()) {
      m.put(k, get(k));
    }
    for (String k : FlinkOptions.setKeys(values.keySet())) {
      m.put(k, get(k));
    }
    return m;
  }

  /**
   * The width at which the CLI cuts a value in its table output: {@code
   * table.display.max-column-width}, or the SQL client's older {@code
   * sql-client.display.max-column-width} when only that one was set.
   */
  public int displayMaxColumnWidth() {
    String v = values.get("table.display.max-column-width");
    if (v == null) {
      v = values.getOrDefault("sql-client.display.max-column-width", "30");
    }
    return (int) Math.max(-1, Math.min(Integer.MAX_VALUE, Long.parseLong(v)));
  }

  /** Milliseconds a statement may run ({@code execution.timeout}); 0 for no limit. */
  public long timeoutMillis() {
    return Limits.millis(get(EXECUTION_TIMEOUT));
  }

  /** Milliseconds a statement may plan ({@code planner.timeout}); 0 for no limit of its own. */
  public long plannerTimeoutMillis() {
    return Limits.millis(get(PLANNER_TIMEOUT));
  }

  /**
   * Bytes of Arrow memory a statement's rows may hold ({@code execution.memory-limit}); 0: none.
   */
  public long memoryLimitBytes() {
    return Limits.bytes(get(MEMORY_LIMIT));
  }

  /** The parsed expansion strategy. */
  public List<ExpansionStrategy> expansionStrategy() {
    List<ExpansionStrategy> out = new ArrayList<>();
    for (String s : get(EXPANSION_STRATEGY).split(";")) {
      if (!s.isEmpty()) {
        out.add(ExpansionStrategy.valueOf(s));
      }
    }
    return out;
  }

  /** How many planned statements the plan cache keeps; 0 when it is off. */
  public int planCacheSize() {
    return Integer.parseInt(get(PLAN_CACHE_SIZE));
  }

  /**
   * Whether {@code execution.runtime-mode} is {@code STREAMING}, as Flink's environment reads it
   * ({@code AUTOMATIC} and {@code BATCH} are not): a table's watermarked column is then a rowtime
   * attribute in its description. Queries run as batch queries in every mode.
   */
  public boolean streaming() {
    return "STREAMING".equalsIgnoreCase(get(RUNTIME_MODE).trim());
  }

  public TimeZone timeZone() {
    return TimeZone.getTimeZone(ZoneId.of(get(LOCAL_TIME_ZONE)));
  }

  private static Key key(String key) {
    Key k = KEYS.get(key);
    if (k == null) {
      List<String> known = new ArrayList<>(KEYS.keySet());
      known.addAll(FlinkOptions.keys());
      String near = FlinkOptions.closest(key, known);
      throw new ConfigException(
          "Unknown configuration key '"
              + key
              + "'"
              + (near == null ? "." : "; did you mean '" + near + "'?")
              + " Known keys: "
              + String.join(", ", KEYS.keySet())
              + ", and Flink's table, SQL-client and execution options (docs/flink.md)");
    }
    return k;
  }

  private static String normalizeStrategy(String value) {
    List<String> out = new ArrayList<>();
    for (String part : value.split(";")) {
      String p = part.trim().toUpperCase(Locale.ROOT);
      if (p.isEmpty()) {
        continue;
      }
      try {
        ExpansionStrategy.valueOf(p);
      } catch (IllegalArgumentException e) {
        throw new ConfigException(
            "Invalid value '"
                + part.trim()
                + "' for '"
                + EXPANSION_STRATEGY
                + "'; allowed values: "
                + Arrays.toString(ExpansionStrategy.values()));
      }
      if (!out.contains(p)) {
        out.add(p);
      }
    }
    return String.join(";", out);
  }

  /** {@code value} as a backend name; fails naming the allowed ones. */
  public static String normalizeBackend(String value) {
    String v = value.trim().toLowerCase(Locale.ROOT);
    if (!BACKENDS.contains(v)) {
      throw new ConfigException(
          "Invalid value '"
              + value.trim()
              + "' for '"
              + EXECUTION_BACKEND
              + "'; allowed values: "
              + String.join(", ", BACKENDS));
    }
    return v;
  }

  private static String normalizeList(String value) {
    List<String> out = new ArrayList<>();
    for (String part : value.split(";")) {
      if (!part.isBlank() && !out.contains(part.trim())) {
        out.add(part.trim());
      }
    }
    return String.join(";", out);
  }

  /** Absolute directories, {@code ;}-separated; resolved where the files are read. */
  private static String normalizePaths(String value) {
    return normalizePaths(FILESYSTEM_ALLOWED_PATHS, value);
  }

  private static String normalizePaths(String key, String value) {
    String list = normalizeList(value);
    for (String p : list.split(";")) {
      if (!p.isEmpty() && !(p.startsWith("/") || p.matches("^[A-Za-z]:[\\\\/].*"))) {
        throw new ConfigException(
            "Invalid value '"
                + p
                + "' for '"
                + key
                + "': expected absolute "
                + (key.equals(FILESYSTEM_ALLOWED_PATHS) ? "directory paths" : "paths")
                + " separated by ';' (no URIs, no relative paths)");
      }
    }
    return list;
  }

  private static String normalizeBoolean(String key, String value) {
    String v = value.trim().toLowerCase(Locale.ROOT);
    if (!v.equals("true") && !v.equals("false")) {
      throw new ConfigException(
          "Invalid value '" + value.trim() + "' for '" + key + "'; allowed values: true, false");
    }
    return v;
  }

  private static String normalizeSize(String value) {
    return normalizeCount(
        PLAN_CACHE_SIZE, value, 0, "statements, 0 or more (0 turns the cache off)");
  }

  private static String normalizeThreads(String value) {
    return normalizeCount(THREADS, value, 1, "threads, 1 or more");
  }

  /** {@code value} as a whole number of at least {@code min}, or an error saying {@code what}. */
  private static String normalizeCount(String key, String value, int min, String what) {
    try {
      int n = Integer.parseInt(value.trim());
      if (n >= min) {
        return Integer.toString(n);
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new ConfigException(
        "Invalid value '"
            + value.trim()
            + "' for '"
            + key
            + "': expected a whole number of "
            + what);
  }

  private static String normalizeZone(String value) {
    try {
      return ZoneId.of(value.trim()).getId();
    } catch (DateTimeException e) {
      throw new ConfigException(
          "Invalid time zone '" + value + "' for '" + LOCAL_TIME_ZONE + "': " + e.getMessage());
    }
  }
}

package io.calcitebridge.statement;

import io.calcitebridge.errors.ConfigException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Flink's own settings, so that a Flink script's {@code SET} runs unchanged: the keys of Flink's
 * {@code TableConfigOptions}, {@code ExecutionConfigOptions} and {@code OptimizerConfigOptions},
 * and the SQL client's and runtime's keys that its scripts set. A value is checked as Flink's
 * option type reads it (boolean, number, duration, memory size, one of an enumeration), so a typo
 * in a value fails at {@code SET}. Most of them have no effect here (docs/flink.md says which do);
 * {@code SET} lists the ones a script set.
 */
final class FlinkOptions {
  private FlinkOptions() {}

  /** One of Flink's keys: its default (null when Flink has none) and the check of a value. */
  record Option(@Nullable String defaultValue, UnaryOperator<String> normalizer) {}

  private static final Map<String, Option> OPTIONS = new LinkedHashMap<>();

  private static final Pattern DURATION =
      Pattern.compile(
          "(?i)\\s*\\d+\\s*(|ns|nano|nanos|nanosecond|nanoseconds|µs|us|micro|micros|microsecond"
              + "|microseconds|ms|milli|millis|millisecond|milliseconds|s|sec|secs|second|seconds"
              + "|m|min|mins|minute|minutes|h|hour|hours|d|day|days)\\s*");

  private static final Pattern MEMORY =
      Pattern.compile(
          "(?i)\\s*\\d+\\s*(|b|bytes|k|kb|kibibytes|m|mb|mebibytes|g|gb|gibibytes|t|tb"
              + "|tebibytes)\\s*");

  private static void bool(String key, String def) {
    OPTIONS.put(key, new Option(def, v -> normalizeBoolean(key, v)));
  }

  private static void integer(String key, String def) {
    OPTIONS.put(key, new Option(def, v -> normalizeNumber(key, v, false)));
  }

  private static void decimal(String key, String def) {
    OPTIONS.put(key, new Option(def, v -> normalizeNumber(key, v, true)));
  }

  private static void duration(String key, String def) {
    OPTIONS.put(key, new Option(def, v -> matching(key, v, DURATION, "a duration such as 10 s")));
  }

  private static void memory(String key, String def) {
    OPTIONS.put(key, new Option(def, v -> matching(key, v, MEMORY, "a memory size such as 64 mb")));
  }

  private static void string(String key, @Nullable String def) {
    OPTIONS.put(key, new Option(def, String::trim));
  }

  private static void enumeration(String key, String def, String... values) {
    OPTIONS.put(key, new Option(def, v -> normalizeEnum(key, v, Arrays.asList(values))));
  }

  static {
    // TableConfigOptions
    string("table.builtin-catalog-name", "default_catalog");
    string("table.builtin-database-name", "default_database");
    string("table.catalog-store.kind", "generic_in_memory");
    bool("table.dml-sync", "false");
    bool("table.dynamic-table-options.enabled", "true");
    enumeration("table.sql-dialect", "default", "default", "hive");
    enumeration("table.plan.compile.catalog-objects", "ALL", "ALL", "SCHEMA", "IDENTIFIER");
    enumeration("table.plan.restore.catalog-objects", "ALL", "ALL", "ALL_ENFORCED", "IDENTIFIER");
    bool("table.plan.force-recompile", "false");
    integer("table.generated-code.max-length", "4000");
    integer("table.generated-code.max-members", "10000");
    string("table.resources.download-dir", null);
    integer("table.display.max-column-width", "30");
    bool("table.rtas-ctas.atomicity-enabled", "false");
    enumeration("table.planner", "BLINK", "BLINK", "OLD", "ANY");
    // ExecutionConfigOptions
    duration("table.exec.state.ttl", "0 ms");
    duration("table.exec.source.idle-timeout", "0 ms");
    bool("table.exec.source.cdc-events-duplicate", "false");
    enumeration("table.exec.sink.not-null-enforcer", "ERROR", "ERROR", "DROP");
    enumeration("table.exec.sink.type-length-enforcer", "IGNORE", "IGNORE", "TRIM_PAD");
    enumeration("table.exec.sink.upsert-materialize", "AUTO", "NONE", "AUTO", "FORCE");
    enumeration("table.exec.sink.keyed-shuffle", "AUTO", "NONE", "AUTO", "FORCE");
    enumeration("table.exec.sink.rowtime-inserter", "ENABLED", "ENABLED", "DISABLED");
    integer("table.exec.sort.default-limit", "-1");
    integer("table.exec.sort.max-num-file-handles", "128");
    bool("table.exec.sort.async-merge-enabled", "true");
    bool("table.exec.spill-compression.enabled", "true");
    memory("table.exec.spill-compression.block-size", "64 kb");
    integer("table.exec.resource.default-parallelism", "-1");
    memory("table.exec.resource.external-buffer-memory", "10 mb");
    memory("table.exec.resource.hash-agg.memory", "128 mb");
    memory("table.exec.resource.hash-join.memory", "128 mb");
    memory("table.exec.resource.sort.memory", "128 mb");
    integer("table.exec.window-agg.buffer-size-limit", "100000");
    bool("table.exec.local-hash-agg.adaptive.enabled", "true");
    integer("table.exec.local-hash-agg.adaptive.sampling-threshold", "500000");
    decimal("table.exec.local-hash-agg.adaptive.distinct-value-rate-threshold", "0.5");
    integer("table.exec.async-lookup.buffer-capacity", "100");
    duration("table.exec.async-lookup.timeout", "3 min");
    enumeration("table.exec.async-lookup.output-mode", "ORDERED", "ORDERED", "ALLOW_UNORDERED");
    integer("table.exec.async-scalar.max-concurrent-operations", "10");
    duration("table.exec.async-scalar.timeout", "3 min");
    enumeration("table.exec.async-scalar.retry-strategy", "FIXED_DELAY", "NO_RETRY", "FIXED_DELAY");
    duration("table.exec.async-scalar.retry-delay", "100 ms");
    integer("table.exec.async-scalar.max-attempts", "3");
    integer("table.exec.async-table.max-concurrent-operations", "10");
    duration("table.exec.async-table.timeout", "3 min");
    bool("table.exec.mini-batch.enabled", "false");
    duration("table.exec.mini-batch.allow-latency", "0 ms");
    integer("table.exec.mini-batch.size", "-1");
    string("table.exec.disabled-operators", null);
    string("table.exec.shuffle-mode", null);
    enumeration("table.exec.legacy-cast-behaviour", "ENABLED", "ENABLED", "DISABLED");
    integer("table.exec.rank.topn-cache-size", "10000");
    bool("table.exec.simplify-operator-name-enabled", "true");
    bool("table.exec.deduplicate.insert-update-after-sensitive-enabled", "true");
    bool("table.exec.deduplicate.mini-batch.compact-changes-enabled", "false");
    duration("table.exec.interval-join.min-cleanup-interval", "0 ms");
    enumeration("table.exec.uid.generation", "PLAN_ONLY", "PLAN_ONLY", "ALWAYS", "DISABLED");
    string("table.exec.uid.format", "<id>_<transformation>");
    // OptimizerConfigOptions
    enumeration("table.optimizer.agg-phase-strategy", "AUTO", "AUTO", "TWO_PHASE", "ONE_PHASE");
    integer("table.optimizer.join.broadcast-threshold", "1048576");
    bool("table.optimizer.distinct-agg.split.enabled", "false");
    integer("table.optimizer.distinct-agg.split.bucket-num", "1024");
    bool("table.optimizer.reuse-sub-plan-enabled", "true");
    bool("table.optimizer.reuse-source-enabled", "true");
    bool("table.optimizer.reuse-sink-enabled", "false");
    bool("table.optimizer.source.report-statistics-enabled", "true");
    bool("table.optimizer.source.aggregate-pushdown-enabled", "true");
    bool("table.optimizer.source.predicate-pushdown-enabled", "true");
    bool("table.optimizer.join-reorder-enabled", "false");
    integer("table.optimizer.bushy-join-reorder-threshold", "12");
    bool("table.optimizer.multiple-input-enabled", "true");
    bool("table.optimizer.dynamic-filtering.enabled", "true");
    bool("table.optimizer.runtime-filter.enabled", "false");
    memory("table.optimizer.runtime-filter.max-build-data-size", "150 mb");
    memory("table.optimizer.runtime-filter.min-probe-data-size", "10 gb");
    decimal("table.optimizer.runtime-filter.min-filter-ratio", "0.5");
    enumeration(
        "table.optimizer.non-deterministic-update.strategy", "IGNORE", "TRY_RESOLVE", "IGNORE");
    bool("table.optimizer.sql2rel.project-merge.enabled", "false");
    bool("table.optimizer.union-all-as-breakpoint-enabled", "true");
    bool("table.optimizer.reuse-optimize-block-with-digest-enabled", "false");
    bool("table.optimizer.incremental-agg-enabled", "true");
    enumeration(
        "table.optimizer.adaptive-broadcast-join.strategy", "AUTO", "AUTO", "RUNTIME_ONLY", "NONE");
    enumeration(
        "table.optimizer.skewed-join-optimization.strategy", "AUTO", "AUTO", "FORCED", "NONE");
    decimal("table.optimizer.skewed-join-optimization.skewed-factor", "4.0");
    memory("table.optimizer.skewed-join-optimization.skewed-threshold", "256 mb");
    // The SQL client's keys
    enumeration("sql-client.execution.result-mode", "TABLE", "TABLE", "CHANGELOG", "TABLEAU");
    // The client's deprecated name of sql-client.execution.result-mode, which it still accepts
    enumeration("execution.result-mode", "TABLE", "TABLE", "CHANGELOG", "TABLEAU");
    integer("sql-client.execution.max-table-result.rows", "1000000");
    integer("sql-client.display.max-column-width", "30");
    bool("sql-client.display.print-time-cost", "true");
    bool("sql-client.display.show-line-numbers", "false");
    bool("sql-client.verbose", "false");
    // The runtime's keys that scripts set
    enumeration("execution.runtime-mode", "BATCH", "STREAMING", "BATCH", "AUTOMATIC");
    integer("parallelism.default", "1");
    string("pipeline.name", null);
    string("pipeline.jars", null);
    string("pipeline.classpaths", null);
    bool("pipeline.object-reuse", "false");
    bool("pipeline.operator-chaining.enabled", "true");
    integer("pipeline.max-parallelism", "-1");
    string("execution.target", null);
    bool("execution.attached", "false");
    duration("execution.buffer-timeout.interval", "100 ms");
    enumeration(
        "execution.batch-shuffle-mode",
        "ALL_EXCHANGES_BLOCKING",
        "ALL_EXCHANGES_PIPELINED",
        "ALL_EXCHANGES_BLOCKING",
        "ALL_EXCHANGES_HYBRID_FULL",
        "ALL_EXCHANGES_HYBRID_SELECTIVE");
    duration("execution.checkpointing.interval", null);
    enumeration("execution.checkpointing.mode", "EXACTLY_ONCE", "EXACTLY_ONCE", "AT_LEAST_ONCE");
    string("state.backend.type", "hashmap");
    string("restart-strategy.type", null);
  }

  /** The keys that take effect here; every other key is accepted and has no effect. */
  static final List<String> HONOURED =
      List.of("table.display.max-column-width", "sql-client.display.max-column-width");

  /** Flink's option {@code key}, or null when Flink has no such key. */
  static @Nullable Option option(String key) {
    return OPTIONS.get(key);
  }

  /** Every Flink key, in the order of Flink's option classes. */
  static Collection<String> keys() {
    return OPTIONS.keySet();
  }

  /** The known key nearest {@code key} by edit distance, or null when none is near. */
  static @Nullable String closest(String key, Collection<String> known) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String candidate : known) {
      int d = distance(key.toLowerCase(Locale.ROOT), candidate);
      if (d < bestDistance) {
        best = candidate;
        bestDistance = d;
      }
    }
    return best != null && bestDistance <= Math.max(3, key.length() / 3) ? best : null;
  }

  private static int distance(String a, String b) {
    int[] prev = new int[b.length() + 1];
    int[] cur = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      prev[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      cur[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
      }
      int[] t = prev;
      prev = cur;
      cur = t;
    }
    return prev[b.length()];
  }

  private static String normalizeBoolean(String key, String value) {
    String v = value.trim().toLowerCase(Locale.ROOT);
    if (!v.equals("true") && !v.equals("false")) {
      throw invalid(key, value, "allowed values: true, false");
    }
    return v;
  }

  private static String normalizeNumber(String key, String value, boolean fraction) {
    try {
      if (fraction) {
        Double.parseDouble(value.trim());
      } else {
        Long.parseLong(value.trim());
      }
      return value.trim();
    } catch (NumberFormatException e) {
      throw invalid(key, value, fraction ? "expected a number" : "expected a whole number");
    }
  }

  private static String matching(String key, String value, Pattern pattern, String expected) {
    if (!pattern.matcher(value).matches()) {
      throw invalid(key, value, "expected " + expected);
    }
    return value.trim();
  }

  private static String normalizeEnum(String key, String value, List<String> allowed) {
    for (String a : allowed) {
      if (a.equalsIgnoreCase(value.trim())) {
        return value.trim();
      }
    }
    throw invalid(key, value, "allowed values: " + String.join(", ", allowed));
  }

  private static ConfigException invalid(String key, String value, String expected) {
    return new ConfigException(
        "Invalid value '" + value.trim() + "' for '" + key + "'; " + expected);
  }

  /** The keys of {@code values} that are Flink's, sorted. */
  static List<String> setKeys(Collection<String> values) {
    List<String> out = new ArrayList<>();
    for (String k : values) {
      if (OPTIONS.containsKey(k)) {
        out.add(k);
      }
    }
    out.sort(null);
    return out;
  }
}

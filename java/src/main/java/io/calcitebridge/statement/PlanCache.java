package io.calcitebridge.statement;

import io.calcitebridge.catalog.Catalog;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The statements one environment planned, so that the same text planned again under the same
 * settings and catalog skips parsing, validation, optimization and translation.
 *
 * <p>A key holds everything a plan depends on besides its text: the backend the statement asked
 * for, every setting but the cache's own size (as the number {@link SessionConfig#settingsId} gives
 * them, not a copy of them), the backends of the process reading the results, and the catalog's
 * version, which changes with every table or view added, replaced or dropped. Any change to the
 * catalog also empties the cache, so no plan keeps a dropped table's data alive. A plan keeps no
 * data and no open source: each run opens its scans again.
 *
 * <p>At most {@code planner.plan-cache.size} entries are kept, the least recently used going first;
 * 0 turns the cache off. Safe for concurrent use.
 */
public final class PlanCache {
  /** What a cached value depends on. */
  public record Key(
      String purpose,
      String sql,
      String backend,
      long settingsId,
      Set<String> hostBackends,
      List<String> currentPath,
      long catalogVersion) {
    // Written out: a record's generated equals and hashCode link through an invokedynamic call
    // site whose first use (the first statement a process plans) cost a few milliseconds.
    @Override
    public boolean equals(@Nullable Object o) {
      return o instanceof Key k
          && settingsId == k.settingsId
          && catalogVersion == k.catalogVersion
          && Objects.equals(sql, k.sql)
          && Objects.equals(purpose, k.purpose)
          && Objects.equals(backend, k.backend)
          && Objects.equals(currentPath, k.currentPath)
          && Objects.equals(hostBackends, k.hostBackends);
    }

    @Override
    public int hashCode() {
      int h = Objects.hashCode(sql);
      h = 31 * h + Objects.hashCode(purpose);
      h = 31 * h + Objects.hashCode(backend);
      h = 31 * h + Long.hashCode(settingsId);
      h = 31 * h + Objects.hashCode(hostBackends);
      h = 31 * h + Objects.hashCode(currentPath);
      return 31 * h + Long.hashCode(catalogVersion);
    }
  }

  /**
   * The types of a statement's parameters for a plan kept across values, and the purpose they key
   * that plan with.
   */
  record Typed(List<org.apache.calcite.rel.type.RelDataType> types, String purpose) {}

  /** The most type signatures {@link #typed} keeps; past it they are all forgotten. */
  private static final int MAX_TYPED = 1024;

  private final Catalog catalog;
  private final java.util.concurrent.ConcurrentHashMap<String, Typed> typed =
      new java.util.concurrent.ConcurrentHashMap<>();
  private final SessionConfig config;
  private final Supplier<Set<String>> hostBackends;
  private final LinkedHashMap<Key, Object> entries = new LinkedHashMap<>(16, 0.75f, true);
  private final java.util.concurrent.atomic.AtomicLong hits =
      new java.util.concurrent.atomic.AtomicLong();

  /**
   * A cache of the statements planned against {@code catalog} under {@code config}, read by a
   * process that runs {@code hostBackends}.
   */
  PlanCache(Catalog catalog, SessionConfig config, Supplier<Set<String>> hostBackends) {
    this.catalog = catalog;
    this.config = config;
    this.hostBackends = hostBackends;
    catalog.onChange(this::clear);
  }

  /**
   * The key of {@code sql} planned for {@code purpose} on {@code backend} under the current
   * settings and catalog, or null when the cache is off.
   */
  @Nullable Key key(String purpose, String sql, String backend) {
    if (config.planCacheSize() == 0) {
      clear();
      return null;
    }
    // The catalog version is read first: a plan made while the catalog changes is then stored
    // under the older version and never found (see put).
    long version = catalog.version();
    // The same text names other tables in another current catalog or database.
    return new Key(
        purpose,
        sql,
        backend,
        config.settingsId(),
        hostBackends.get(),
        catalog.currentPath(),
        version);
  }

  /**
   * The types kept for values of type signature {@code signature} ({@link
   * Parameters#typeSignature}) on {@code backend}, or null.
   */
  @Nullable Typed typed(String backend, String signature) {
    return typed.get(typedKey(backend, signature));
  }

  /** Keeps {@code types} for values of type signature {@code signature} on {@code backend}. */
  void keepTyped(String backend, String signature, Typed types) {
    if (typed.size() >= MAX_TYPED) {
      typed.clear();
    }
    typed.put(typedKey(backend, signature), types);
  }

  private static String typedKey(String backend, String signature) {
    return backend + '\u0000' + signature;
  }

  /** The value stored under {@code key}, or null. */
  synchronized <T> @Nullable T get(Key key, Class<T> type) {
    Object value = entries.get(key);
    return type.isInstance(value) ? type.cast(value) : null;
  }

  /**
   * Stores {@code value} under {@code key}, unless the catalog changed since the key was made;
   * drops the least recently used entries beyond the cache's size.
   */
  synchronized void put(Key key, Object value) {
    if (key.catalogVersion() != catalog.version()) {
      return;
    }
    entries.put(key, value);
    int size = config.planCacheSize();
    var oldest = entries.keySet().iterator();
    while (entries.size() > size && oldest.hasNext()) {
      oldest.next();
      oldest.remove();
    }
  }

  /** Counts a query that ran a cached plan. */
  void hit() {
    hits.incrementAndGet();
  }

  /** How many queries ran a cached plan since the environment started. */
  public long hits() {
    return hits.get();
  }

  /** How many statements are cached. */
  public synchronized int size() {
    return entries.size();
  }

  /** Forgets every plan. */
  public synchronized void clear() {
    entries.clear();
  }
}

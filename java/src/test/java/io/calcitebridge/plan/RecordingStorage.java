package io.calcitebridge.plan;

import io.calcitebridge.catalog.ArrowStorage;
import io.calcitebridge.catalog.FilterableStorage;
import io.calcitebridge.catalog.TableStorage;
import io.calcitebridge.expr.Expression;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A table source for planner tests: it records every filter offer, every scan and the limit and
 * paths it is asked for, and answers offers with a configurable decision. Its rows are fixed; it
 * applies no filter itself (tests that run queries let it accept none or check rows by hand).
 */
class RecordingStorage implements TableStorage, FilterableStorage {
  /** Each call of {@link #applyFilters}: the filters offered, rendered. */
  final List<List<String>> offers = new ArrayList<>();

  /** Each scan: the filters it was given, rendered. */
  final List<List<String>> scans = new ArrayList<>();

  private final boolean nestedFilters;
  private final boolean pushDown;
  private final Function<List<Expression>, Decision> decide;
  final List<Object[]> rows = new ArrayList<>();

  RecordingStorage(
      boolean pushDown, boolean nestedFilters, Function<List<Expression>, Decision> decide) {
    this.pushDown = pushDown;
    this.nestedFilters = nestedFilters;
    this.decide = decide;
  }

  /** Accepts every filter offered. */
  static Decision acceptAll(List<Expression> offered) {
    return new Decision(range(0, offered.size()), List.of());
  }

  /** Accepts none of the filters offered. */
  static Decision acceptNone(List<Expression> offered) {
    return new Decision(List.of(), range(0, offered.size()));
  }

  static List<Integer> range(int from, int to) {
    List<Integer> out = new ArrayList<>();
    for (int i = from; i < to; i++) {
      out.add(i);
    }
    return out;
  }

  static List<String> render(List<Expression> filters) {
    return filters.stream().map(String::valueOf).toList();
  }

  @Override
  public boolean supportsFilterPushDown() {
    return pushDown;
  }

  @Override
  public boolean supportsNestedFilters() {
    return nestedFilters;
  }

  @Override
  public Decision applyFilters(List<Expression> filters) {
    offers.add(render(filters));
    return decide.apply(filters);
  }

  @Override
  public Enumerable<Object[]> scan() {
    return Linq4j.asEnumerable(rows);
  }

  @Override
  public Enumerable<Object[]> scan(List<Expression> filters) {
    scans.add(render(filters));
    return scan();
  }

  @Override
  public long insert(List<Object[]> newRows) {
    rows.addAll(newRows);
    return newRows.size();
  }

  /** As {@link RecordingStorage}, producing Arrow batches: limits and nested paths apply. */
  static class Arrow extends RecordingStorage implements ArrowStorage {
    private final boolean nestedProjection;

    /** Each {@link #scanPaths} call: its paths. */
    final List<List<List<Integer>>> pathScans = new ArrayList<>();

    /** Each scan's limit hint (null when none). */
    final List<@Nullable Integer> limits = new ArrayList<>();

    Arrow(
        boolean nestedFilters,
        boolean nestedProjection,
        Function<List<Expression>, Decision> decide) {
      super(true, nestedFilters, decide);
      this.nestedProjection = nestedProjection;
    }

    @Override
    public String sourceName() {
      return "recording";
    }

    @Override
    public boolean supportsNestedProjection() {
      return nestedProjection;
    }

    @Override
    public boolean supportsAggregatePushDown() {
      return false;
    }

    @Override
    public Enumerable<Object[]> scan(
        List<Expression> filters, int @Nullable [] projection, @Nullable Integer limit) {
      limits.add(limit);
      return scan(filters, projection);
    }

    @Override
    public Opened open(
        List<Expression> filters, int @Nullable [] projection, @Nullable Integer limit) {
      throw new UnsupportedOperationException("planner tests do not stream Arrow");
    }

    @Override
    public Opened openPaths(
        List<Expression> filters, List<List<Integer>> paths, @Nullable Integer limit) {
      throw new UnsupportedOperationException("planner tests do not stream Arrow");
    }

    @Override
    public Enumerable<Object[]> scanPaths(
        List<Expression> filters, List<List<Integer>> paths, @Nullable Integer limit) {
      pathScans.add(paths);
      limits.add(limit);
      scans.add(render(filters));
      List<Object[]> out = new ArrayList<>();
      for (Object[] row : rows) {
        Object[] o = new Object[paths.size()];
        for (int i = 0; i < o.length; i++) {
          Object v = row[paths.get(i).get(0)];
          for (int level = 1; level < paths.get(i).size() && v != null; level++) {
            v = ((Object[]) v)[paths.get(i).get(level)];
          }
          o[i] = v;
        }
        out.add(o);
      }
      return Linq4j.asEnumerable(out);
    }
  }
}

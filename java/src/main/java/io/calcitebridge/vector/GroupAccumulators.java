package io.calcitebridge.vector;

import io.calcitebridge.arrow.ValueReaders;
import io.calcitebridge.arrow.ValueReaders.ValueReader;
import java.util.Arrays;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.calcite.sql.type.SqlTypeName;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The state of one aggregate call, in arrays indexed by group id; {@link VectorAggregates} puts
 * every row in group 0 ({@link #addAll}), adding each batch's values in scan order.
 */
abstract class GroupAccumulators {
  final VectorAggregateCall call;

  /** Whether each group has seen a non-null value. */
  boolean[] any = new boolean[16];

  /** Group ids of rows that all belong to group 0, for {@link #addAll}. */
  private int[] zeros = new int[0];

  GroupAccumulators(VectorAggregateCall call) {
    this.call = call;
  }

  static GroupAccumulators of(VectorAggregateCall call) {
    switch (call.kind()) {
      case COUNT_STAR:
      case COUNT:
        return new Count(call);
      case SUM:
      case SUM0:
        if (call.type() == SqlTypeName.DECIMAL) {
          return new WideSum(call);
        }
        return AggregateTypes.isFloating(call.type())
            ? new FloatingSum(call)
            : new IntegerSum(call);
      case MIN:
      case MAX:
        return new IntegerMinMax(call);
      default:
        throw new IllegalArgumentException(call.toString());
    }
  }

  /** Makes room for {@code groups} groups. */
  void ensure(int groups) {
    if (groups > any.length) {
      int size = Math.max(groups, any.length * 2);
      any = Arrays.copyOf(any, size);
      grow(size);
    }
  }

  abstract void grow(int size);

  /**
   * Adds the {@code rows} values of {@code v} (null for {@code COUNT(*)}) to groups {@code ids}.
   */
  abstract void add(@Nullable FieldVector v, int rows, int[] ids);

  /** Adds the {@code rows} values of {@code v} (null for {@code COUNT(*)}) to group 0. */
  void addAll(@Nullable FieldVector v, int rows) {
    if (zeros.length < rows) {
      zeros = new int[rows];
    }
    add(v, rows, zeros);
  }

  abstract @Nullable Object result(int group);

  private static final class Count extends GroupAccumulators {
    private long[] counts = new long[16];

    Count(VectorAggregateCall call) {
      super(call);
    }

    @Override
    void grow(int size) {
      counts = Arrays.copyOf(counts, size);
    }

    @Override
    void add(@Nullable FieldVector v, int rows, int[] ids) {
      long[] c = counts;
      if (v == null || v.getNullCount() == 0) {
        for (int i = 0; i < rows; i++) {
          c[ids[i]]++;
        }
      } else {
        for (int i = 0; i < rows; i++) {
          if (!v.isNull(i)) {
            c[ids[i]]++;
          }
        }
      }
    }

    @Override
    void addAll(@Nullable FieldVector v, int rows) {
      counts[0] += v == null ? rows : rows - v.getNullCount();
    }

    @Override
    Object result(int group) {
      return counts[group];
    }
  }

  /**
   * An integer SUM, added with overflow checks and narrowed to the result type, which it must fit:
   * an overflow is an error, as in Calcite's engine and DuckDB (README, "Integer overflow").
   */
  private static final class IntegerSum extends GroupAccumulators {
    private long[] sums = new long[16];

    IntegerSum(VectorAggregateCall call) {
      super(call);
    }

    @Override
    void grow(int size) {
      sums = Arrays.copyOf(sums, size);
    }

    @Override
    void add(@Nullable FieldVector v, int rows, int[] ids) {
      if (v == null) {
        return;
      }
      long[] s = sums;
      boolean[] seen = any;
      if (v instanceof BigIntVector b) {
        for (int i = 0; i < rows; i++) {
          if (!b.isNull(i)) {
            s[ids[i]] = Math.addExact(s[ids[i]], b.get(i));
            seen[ids[i]] = true;
          }
        }
      } else if (v instanceof IntVector b) {
        for (int i = 0; i < rows; i++) {
          if (!b.isNull(i)) {
            s[ids[i]] = Math.addExact(s[ids[i]], b.get(i));
            seen[ids[i]] = true;
          }
        }
      } else {
        ValueReader r = ValueReaders.of(v);
        for (int i = 0; i < rows; i++) {
          Object o = r.get(i);
          if (o != null) {
            s[ids[i]] = Math.addExact(s[ids[i]], ((Number) o).longValue());
            seen[ids[i]] = true;
          }
        }
      }
    }

    @Override
    @Nullable Object result(int group) {
      if (!any[group]) {
        return call.kind() == VectorAggregateKind.SUM0
            ? AggregateTypes.narrow(0L, call.type())
            : null;
      }
      return AggregateTypes.narrow(sums[group], call.type());
    }
  }

  /**
   * An integer SUM into a DECIMAL without a scale (the sum of an integer {@code AVG}): added in a
   * {@code long} while it fits, and exactly from the first overflow on.
   */
  private static final class WideSum extends GroupAccumulators {
    private long[] sums = new long[16];
    private java.math.@Nullable BigDecimal[] overflowed = new java.math.BigDecimal[16];

    WideSum(VectorAggregateCall call) {
      super(call);
    }

    @Override
    void grow(int size) {
      sums = Arrays.copyOf(sums, size);
      overflowed = Arrays.copyOf(overflowed, size);
    }

    private void add(int group, long value) {
      long s = sums[group];
      long r = s + value;
      // Overflow when both operands have the sign the result does not have (Math.addExact's test).
      if (((s ^ r) & (value ^ r)) < 0) {
        java.math.BigDecimal o = overflowed[group];
        overflowed[group] =
            (o == null ? java.math.BigDecimal.ZERO : o)
                .add(java.math.BigDecimal.valueOf(s))
                .add(java.math.BigDecimal.valueOf(value));
        sums[group] = 0;
      } else {
        sums[group] = r;
      }
      any[group] = true;
    }

    @Override
    void add(@Nullable FieldVector v, int rows, int[] ids) {
      if (v == null) {
        return;
      }
      if (v instanceof BigIntVector b) {
        for (int i = 0; i < rows; i++) {
          if (!b.isNull(i)) {
            add(ids[i], b.get(i));
          }
        }
      } else if (v instanceof IntVector b) {
        for (int i = 0; i < rows; i++) {
          if (!b.isNull(i)) {
            add(ids[i], b.get(i));
          }
        }
      } else {
        ValueReader r = ValueReaders.of(v);
        for (int i = 0; i < rows; i++) {
          Object o = r.get(i);
          if (o != null) {
            add(ids[i], ((Number) o).longValue());
          }
        }
      }
    }

    @Override
    @Nullable Object result(int group) {
      if (!any[group]) {
        return call.kind() == VectorAggregateKind.SUM0 ? java.math.BigDecimal.ZERO : null;
      }
      java.math.BigDecimal sum = java.math.BigDecimal.valueOf(sums[group]);
      java.math.BigDecimal o = overflowed[group];
      return o == null ? sum : o.add(sum);
    }
  }

  /** A floating-point SUM, adding each group's values in scan order in the result type. */
  private static final class FloatingSum extends GroupAccumulators {
    private double[] sums = new double[16];
    private float[] floatSums = new float[16];
    private final boolean real;

    FloatingSum(VectorAggregateCall call) {
      super(call);
      this.real = call.type() == SqlTypeName.REAL;
    }

    @Override
    void grow(int size) {
      sums = Arrays.copyOf(sums, size);
      floatSums = Arrays.copyOf(floatSums, size);
    }

    @Override
    void add(@Nullable FieldVector v, int rows, int[] ids) {
      if (v == null) {
        return;
      }
      boolean[] seen = any;
      if (v instanceof Float8Vector b && !real) {
        double[] s = sums;
        for (int i = 0; i < rows; i++) {
          if (!b.isNull(i)) {
            s[ids[i]] += b.get(i);
            seen[ids[i]] = true;
          }
        }
      } else if (v instanceof Float4Vector b && real) {
        float[] s = floatSums;
        for (int i = 0; i < rows; i++) {
          if (!b.isNull(i)) {
            s[ids[i]] += b.get(i);
            seen[ids[i]] = true;
          }
        }
      } else {
        ValueReader r = ValueReaders.of(v);
        for (int i = 0; i < rows; i++) {
          Object o = r.get(i);
          if (o != null) {
            if (real) {
              floatSums[ids[i]] += ((Number) o).floatValue();
            } else {
              sums[ids[i]] += ((Number) o).doubleValue();
            }
            seen[ids[i]] = true;
          }
        }
      }
    }

    @Override
    @Nullable Object result(int group) {
      if (!any[group] && call.kind() == VectorAggregateKind.SUM) {
        return null;
      }
      return real ? (Object) floatSums[group] : (Object) sums[group];
    }
  }

  /** MIN or MAX of an integer column. */
  private static final class IntegerMinMax extends GroupAccumulators {
    private final boolean min;
    private long[] best = new long[16];

    IntegerMinMax(VectorAggregateCall call) {
      super(call);
      this.min = call.kind() == VectorAggregateKind.MIN;
    }

    @Override
    void grow(int size) {
      best = Arrays.copyOf(best, size);
    }

    @Override
    void add(@Nullable FieldVector v, int rows, int[] ids) {
      if (v == null) {
        return;
      }
      ValueReader r =
          v instanceof BigIntVector || v instanceof IntVector ? null : ValueReaders.of(v);
      for (int i = 0; i < rows; i++) {
        long value;
        if (r == null) {
          if (v.isNull(i)) {
            continue;
          }
          value = v instanceof BigIntVector b ? b.get(i) : (long) ((IntVector) v).get(i);
        } else {
          Object o = r.get(i);
          if (o == null) {
            continue;
          }
          value = ((Number) o).longValue();
        }
        int g = ids[i];
        if (!any[g]) {
          best[g] = value;
          any[g] = true;
        } else {
          best[g] = min ? Math.min(best[g], value) : Math.max(best[g], value);
        }
      }
    }

    @Override
    @Nullable Object result(int group) {
      return any[group] ? AggregateTypes.narrow(best[group], call.type()) : null;
    }
  }
}

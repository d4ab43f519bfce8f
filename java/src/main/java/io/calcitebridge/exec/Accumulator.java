package io.calcitebridge.exec;

import io.calcitebridge.exec.ValueReaders.ValueReader;
import io.calcitebridge.exec.VectorAggregates.Call;
import io.calcitebridge.exec.VectorAggregates.Kind;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.calcite.sql.type.SqlTypeName;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The state of one aggregate call without GROUP BY, over the batches of a scan (see {@link
 * VectorAggregates}).
 */
abstract class Accumulator {
  final Call call;

  Accumulator(Call call) {
    this.call = call;
  }

  static Accumulator of(Call call) {
    switch (call.kind()) {
      case COUNT_STAR:
      case COUNT:
        return new Count(call);
      case SUM:
      case SUM0:
        return VectorAggregates.isFloating(call.type())
            ? new FloatingSum(call)
            : new IntegerSum(call);
      case MIN:
      case MAX:
        return new IntegerMinMax(call);
      default:
        throw new IllegalArgumentException(call.toString());
    }
  }

  /** Adds the {@code rows} values of {@code v} (null for {@code COUNT(*)}). */
  abstract void add(@Nullable FieldVector v, int rows);

  abstract @Nullable Object result();

  private static final class Count extends Accumulator {
    private long count;

    Count(Call call) {
      super(call);
    }

    @Override
    void add(@Nullable FieldVector v, int rows) {
      count += v == null ? rows : rows - v.getNullCount();
    }

    @Override
    Object result() {
      return count;
    }
  }

  /**
   * An integer SUM: added up modulo 2^64, then narrowed to the result type, which is what adding in
   * the result type with wrap-around gives.
   */
  private static final class IntegerSum extends Accumulator {
    private long sum;
    private boolean any;

    IntegerSum(Call call) {
      super(call);
    }

    @Override
    void add(@Nullable FieldVector v, int rows) {
      if (v == null) {
        return;
      }
      boolean noNulls = v.getNullCount() == 0;
      long s = sum;
      if (v instanceof BigIntVector b) {
        for (int i = 0; i < rows; i++) {
          if (noNulls || !b.isNull(i)) {
            s += b.get(i);
          }
        }
      } else if (v instanceof IntVector b) {
        for (int i = 0; i < rows; i++) {
          if (noNulls || !b.isNull(i)) {
            s += b.get(i);
          }
        }
      } else if (v instanceof SmallIntVector b) {
        for (int i = 0; i < rows; i++) {
          if (noNulls || !b.isNull(i)) {
            s += b.get(i);
          }
        }
      } else if (v instanceof TinyIntVector b) {
        for (int i = 0; i < rows; i++) {
          if (noNulls || !b.isNull(i)) {
            s += b.get(i);
          }
        }
      } else {
        ValueReader r = ValueReaders.of(v);
        for (int i = 0; i < rows; i++) {
          Object o = r.get(i);
          if (o != null) {
            s += ((Number) o).longValue();
          }
        }
      }
      sum = s;
      any |= v.getNullCount() < rows;
    }

    @Override
    @Nullable Object result() {
      if (!any) {
        return call.kind() == Kind.SUM0 ? VectorAggregates.narrow(0L, call.type()) : null;
      }
      return VectorAggregates.narrow(sum, call.type());
    }
  }

  /** A floating-point SUM, adding the values in scan order in the result type. */
  private static final class FloatingSum extends Accumulator {
    private double sum;
    private float floatSum;
    private boolean any;

    FloatingSum(Call call) {
      super(call);
    }

    @Override
    void add(@Nullable FieldVector v, int rows) {
      if (v == null) {
        return;
      }
      boolean real = call.type() == SqlTypeName.REAL;
      if (v instanceof Float8Vector b && !real) {
        double s = sum;
        for (int i = 0; i < rows; i++) {
          if (!b.isNull(i)) {
            s += b.get(i);
          }
        }
        sum = s;
      } else if (v instanceof Float4Vector b && real) {
        float s = floatSum;
        for (int i = 0; i < rows; i++) {
          if (!b.isNull(i)) {
            s += b.get(i);
          }
        }
        floatSum = s;
      } else {
        ValueReader r = ValueReaders.of(v);
        for (int i = 0; i < rows; i++) {
          Object o = r.get(i);
          if (o != null) {
            if (real) {
              floatSum += ((Number) o).floatValue();
            } else {
              sum += ((Number) o).doubleValue();
            }
          }
        }
      }
      any |= v.getNullCount() < rows;
    }

    @Override
    @Nullable Object result() {
      boolean real = call.type() == SqlTypeName.REAL;
      if (!any && call.kind() == Kind.SUM) {
        return null;
      }
      return real ? (Object) floatSum : (Object) sum;
    }
  }

  /** MIN or MAX of an integer column. */
  private static final class IntegerMinMax extends Accumulator {
    private final boolean min;
    private long best;
    private boolean any;

    IntegerMinMax(Call call) {
      super(call);
      this.min = call.kind() == Kind.MIN;
      this.best = min ? Long.MAX_VALUE : Long.MIN_VALUE;
    }

    @Override
    void add(@Nullable FieldVector v, int rows) {
      if (v == null) {
        return;
      }
      long b = best;
      boolean found = any;
      if (v instanceof BigIntVector x) {
        for (int i = 0; i < rows; i++) {
          if (!x.isNull(i)) {
            long value = x.get(i);
            b = min ? Math.min(b, value) : Math.max(b, value);
            found = true;
          }
        }
      } else if (v instanceof IntVector x) {
        for (int i = 0; i < rows; i++) {
          if (!x.isNull(i)) {
            long value = x.get(i);
            b = min ? Math.min(b, value) : Math.max(b, value);
            found = true;
          }
        }
      } else {
        ValueReader r = ValueReaders.of(v);
        for (int i = 0; i < rows; i++) {
          Object o = r.get(i);
          if (o != null) {
            long value = ((Number) o).longValue();
            b = min ? Math.min(b, value) : Math.max(b, value);
            found = true;
          }
        }
      }
      best = b;
      any = found;
    }

    @Override
    @Nullable Object result() {
      return any ? VectorAggregates.narrow(best, call.type()) : null;
    }
  }
}

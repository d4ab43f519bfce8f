package io.calcitebridge.exec;

import io.calcitebridge.catalog.BridgeTable;
import io.calcitebridge.connector.SourceException;
import io.calcitebridge.connector.SourceStorage;
import io.calcitebridge.exec.ValueReaders.ValueReader;
import io.calcitebridge.expr.Expression;
import java.io.IOException;
import java.util.List;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.sql.type.SqlTypeName;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Aggregates without GROUP BY computed over a source's Arrow batches, column at a time: {@code
 * COUNT(*)} adds up batch lengths, {@code COUNT(x)} subtracts null counts, {@code SUM}, {@code MIN}
 * and {@code MAX} loop over the vectors' values. No row is built.
 *
 * <p>Results match Calcite's Enumerable engine over the same rows: an INTEGER or BIGINT SUM wraps
 * around on overflow (as Calcite's generated code does), floating-point sums add the values in scan
 * order, SUM and MIN/MAX of no value are NULL and COUNT of no row is 0.
 */
public final class VectorAggregates {
  private VectorAggregates() {}

  /** What an aggregate computes. */
  public enum Kind {
    COUNT_STAR,
    COUNT,
    SUM,
    SUM0,
    MIN,
    MAX
  }

  /**
   * One aggregate call: {@code arg} is a column of the scan (unused for {@code COUNT(*)}), {@code
   * type} the SQL type of the result.
   */
  public record Call(Kind kind, int arg, SqlTypeName type) {}

  /**
   * A scan of a source (the filters it accepted, the columns it reads as index paths or a
   * projection) and the aggregates to compute over its rows.
   */
  public record Plan(
      BridgeTable table,
      List<Expression> filters,
      int @Nullable [] projection,
      @Nullable List<List<Integer>> nested,
      List<Call> calls) {}

  /** Called by generated code: the single result row (its only value when {@code scalar}). */
  public static Enumerable<?> enumerable(Plan plan, boolean scalar) {
    Object[] row = compute(plan);
    return scalar ? Linq4j.singletonEnumerable(row[0]) : Linq4j.singletonEnumerable(row);
  }

  /** Reads the scan and returns one value a call, in Calcite's runtime representation. */
  public static Object[] compute(Plan plan) {
    SourceStorage storage = (SourceStorage) plan.table().storage();
    SourceStorage.Opened opened =
        plan.nested() != null
            ? storage.openPaths(plan.filters(), plan.nested(), null)
            : storage.open(plan.filters(), plan.projection(), null);
    Accumulator[] accs = new Accumulator[plan.calls().size()];
    for (int i = 0; i < accs.length; i++) {
      accs[i] = Accumulator.of(plan.calls().get(i));
    }
    try (ArrowReader reader = opened.reader()) {
      VectorSchemaRoot root = reader.getVectorSchemaRoot();
      while (load(reader, storage)) {
        if (Thread.currentThread().isInterrupted()) {
          throw new java.util.concurrent.CancellationException("The query was cancelled");
        }
        int rows = root.getRowCount();
        for (Accumulator acc : accs) {
          Call c = acc.call;
          acc.add(
              c.kind() == Kind.COUNT_STAR ? null : root.getVector(opened.columns()[c.arg()]), rows);
        }
      }
    } catch (IOException e) {
      throw failed(storage, e);
    }
    Object[] out = new Object[accs.length];
    for (int i = 0; i < accs.length; i++) {
      out[i] = accs[i].result();
    }
    return out;
  }

  private static boolean load(ArrowReader reader, SourceStorage storage) {
    try {
      return reader.loadNextBatch();
    } catch (SourceException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      throw failed(storage, e);
    }
  }

  private static SourceException failed(SourceStorage storage, Exception e) {
    return new SourceException(
        "Source '" + storage.source().name() + "' failed while it was read: " + e.getMessage(),
        false,
        "");
  }

  /** The state of one aggregate call. */
  private abstract static class Accumulator {
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
          return isFloating(call.type()) ? new FloatingSum(call) : new IntegerSum(call);
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
  }

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
        return call.kind() == Kind.SUM0 ? narrow(0L, call.type()) : null;
      }
      return narrow(sum, call.type());
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
      return any ? narrow(best, call.type()) : null;
    }
  }

  /** Whether aggregates of this result type sum as floating point. */
  public static boolean isFloating(SqlTypeName type) {
    return type == SqlTypeName.REAL || type == SqlTypeName.FLOAT || type == SqlTypeName.DOUBLE;
  }

  /** Whether SUM, MIN and MAX can be computed here for a column and a result of this type. */
  public static boolean isInteger(SqlTypeName type) {
    return type == SqlTypeName.TINYINT
        || type == SqlTypeName.SMALLINT
        || type == SqlTypeName.INTEGER
        || type == SqlTypeName.BIGINT;
  }

  private static Object narrow(long value, SqlTypeName type) {
    switch (type) {
      case TINYINT:
        return (byte) value;
      case SMALLINT:
        return (short) value;
      case INTEGER:
        return (int) value;
      default:
        return value;
    }
  }
}

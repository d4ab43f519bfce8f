package io.calcitebridge.vector;

import io.calcitebridge.catalog.ArrowStorage;
import io.calcitebridge.errors.Errors;
import io.calcitebridge.errors.SourceException;
import io.calcitebridge.expr.Expression;
import io.calcitebridge.plan.BridgeTable;
import java.io.IOException;
import java.util.List;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.sql.type.SqlTypeName;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Aggregates computed over a source's Arrow batches, column at a time: {@code COUNT(*)} adds up
 * batch lengths, {@code COUNT(x)} subtracts null counts, {@code SUM}, {@code MIN} and {@code MAX}
 * loop over the vectors' values. No row is built. With GROUP BY, {@link GroupedAggregates} computes
 * the same calls once a group.
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
   * projection) and the aggregates to compute over its rows. The first {@code keys.size()} columns
   * of the scan are the GROUP BY keys, of SQL types {@code keys}; none without GROUP BY.
   */
  public record Plan(
      BridgeTable table,
      List<Expression> filters,
      int @Nullable [] projection,
      @Nullable List<List<Integer>> nested,
      List<SqlTypeName> keys,
      List<Call> calls) {}

  /**
   * Called by generated code: the result rows, key values first then one value a call (each row's
   * only value when {@code scalar}).
   */
  public static Enumerable<?> enumerable(Plan plan, boolean scalar) {
    List<Object[]> rows = rows(plan);
    if (scalar) {
      List<Object> values = new java.util.ArrayList<>(rows.size());
      for (Object[] row : rows) {
        values.add(row[0]);
      }
      return Linq4j.asEnumerable(values);
    }
    return Linq4j.asEnumerable(rows);
  }

  /** The result rows: one without GROUP BY, one a group with it, in no particular order. */
  public static List<Object[]> rows(Plan plan) {
    return plan.keys().isEmpty()
        ? java.util.Collections.singletonList(compute(plan))
        : GroupedAggregates.compute(plan);
  }

  /**
   * Reads the scan and returns one value a call, in Calcite's runtime representation (without GROUP
   * BY).
   */
  public static Object[] compute(Plan plan) {
    ArrowStorage storage = (ArrowStorage) plan.table().storage();
    ArrowStorage.Opened opened =
        plan.nested() != null
            ? storage.openPaths(plan.filters(), plan.nested(), null)
            : storage.open(plan.filters(), plan.projection(), null);
    GroupAccumulators[] accs = new GroupAccumulators[plan.calls().size()];
    for (int i = 0; i < accs.length; i++) {
      accs[i] = GroupAccumulators.of(plan.calls().get(i));
      accs[i].ensure(1);
    }
    try (ArrowReader reader = opened.reader()) {
      VectorSchemaRoot root = reader.getVectorSchemaRoot();
      while (load(reader, storage)) {
        if (Thread.currentThread().isInterrupted()) {
          throw new java.util.concurrent.CancellationException("The query was cancelled");
        }
        int rows = root.getRowCount();
        for (GroupAccumulators acc : accs) {
          Call c = acc.call;
          acc.addAll(
              c.kind() == Kind.COUNT_STAR ? null : root.getVector(opened.columns()[c.arg()]), rows);
        }
      }
    } catch (IOException e) {
      throw failed(storage, e);
    }
    Object[] out = new Object[accs.length];
    for (int i = 0; i < accs.length; i++) {
      out[i] = accs[i].result(0);
    }
    return out;
  }

  static boolean load(ArrowReader reader, ArrowStorage storage) {
    try {
      return reader.loadNextBatch();
    } catch (SourceException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      throw failed(storage, e);
    }
  }

  static SourceException failed(ArrowStorage storage, Exception e) {
    return Errors.sourceReadFailure(storage.sourceName(), e);
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

  static Object narrow(long value, SqlTypeName type) {
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

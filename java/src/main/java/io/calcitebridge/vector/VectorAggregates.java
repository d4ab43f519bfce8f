package io.calcitebridge.vector;

import io.calcitebridge.catalog.ArrowStorage;
import java.io.IOException;
import java.util.List;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;

/**
 * Aggregates computed over a source's Arrow batches, column at a time: {@code COUNT(*)} adds up
 * batch lengths, {@code COUNT(x)} subtracts null counts, {@code SUM}, {@code MIN} and {@code MAX}
 * loop over the vectors' values. No row is built.
 *
 * <p>Results match Calcite's Enumerable engine over the same rows: an INTEGER or BIGINT SUM wraps
 * around on overflow (as Calcite's generated code does), floating-point sums add the values in scan
 * order, SUM and MIN/MAX of no value are NULL and COUNT of no row is 0.
 */
public final class VectorAggregates {
  private VectorAggregates() {}

  /**
   * Called by generated code: the result row, one value a call (its only value when {@code
   * scalar}).
   */
  public static Enumerable<?> enumerable(VectorAggregatePlan plan, boolean scalar) {
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

  /** The result rows: always one. */
  public static List<Object[]> rows(VectorAggregatePlan plan) {
    return java.util.Collections.singletonList(compute(plan));
  }

  /** Reads the scan and returns one value a call, in Calcite's runtime representation. */
  public static Object[] compute(VectorAggregatePlan plan) {
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
      while (ArrowBatches.load(reader, storage)) {
        java.util.concurrent.atomic.AtomicBoolean stop = io.calcitebridge.errors.Stop.current();
        if (Thread.currentThread().isInterrupted() || (stop != null && stop.get())) {
          throw io.calcitebridge.errors.Stop.stopped(stop);
        }
        int rows = root.getRowCount();
        for (GroupAccumulators acc : accs) {
          VectorAggregateCall c = acc.call;
          acc.addAll(
              c.kind() == VectorAggregateKind.COUNT_STAR
                  ? null
                  : root.getVector(opened.columns()[c.arg()]),
              rows);
        }
      }
    } catch (IOException e) {
      throw ArrowBatches.failed(storage, e);
    }
    Object[] out = new Object[accs.length];
    for (int i = 0; i < accs.length; i++) {
      out[i] = accs[i].result(0);
    }
    return out;
  }
}

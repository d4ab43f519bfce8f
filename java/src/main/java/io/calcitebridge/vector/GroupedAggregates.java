package io.calcitebridge.vector;

import io.calcitebridge.catalog.ArrowStorage;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;

/**
 * A hash aggregate over a source's Arrow batches: for each batch, {@link GroupIds} gives each row
 * the id of its key's group, then each call's {@link GroupAccumulators} adds the batch's values to
 * their groups. Produces one row a group, key values first then one value a call, in Calcite's
 * runtime representation; no group (and no row) for an empty input.
 */
final class GroupedAggregates {
  private GroupedAggregates() {}

  static List<Object[]> compute(VectorAggregatePlan plan) {
    ArrowStorage storage = (ArrowStorage) plan.table().storage();
    ArrowStorage.Opened opened =
        plan.nested() != null
            ? storage.openPaths(plan.filters(), plan.nested(), null)
            : storage.open(plan.filters(), plan.projection(), null);
    int width = plan.keys().size();
    GroupIds groups = GroupIds.of(plan.keys());
    GroupAccumulators[] accs = new GroupAccumulators[plan.calls().size()];
    for (int i = 0; i < accs.length; i++) {
      accs[i] = GroupAccumulators.of(plan.calls().get(i));
    }
    try (ArrowReader reader = opened.reader()) {
      VectorSchemaRoot root = reader.getVectorSchemaRoot();
      FieldVector[] keys = new FieldVector[width];
      int[] ids = new int[0];
      while (ArrowBatches.load(reader, storage)) {
        if (Thread.currentThread().isInterrupted()) {
          throw new CancellationException("The query was cancelled");
        }
        int rows = root.getRowCount();
        if (ids.length < rows) {
          ids = new int[rows];
        }
        for (int k = 0; k < width; k++) {
          keys[k] = root.getVector(opened.columns()[k]);
        }
        groups.assign(keys, rows, ids);
        for (GroupAccumulators acc : accs) {
          VectorAggregateCall c = acc.call;
          acc.ensure(groups.size());
          acc.add(
              c.kind() == VectorAggregateKind.COUNT_STAR
                  ? null
                  : root.getVector(opened.columns()[c.arg()]),
              rows,
              ids);
        }
      }
    } catch (IOException e) {
      throw ArrowBatches.failed(storage, e);
    }
    List<Object[]> keyValues = groups.keys();
    List<Object[]> out = new ArrayList<>(keyValues.size());
    for (int g = 0; g < keyValues.size(); g++) {
      Object[] row = new Object[width + accs.length];
      System.arraycopy(keyValues.get(g), 0, row, 0, width);
      for (int i = 0; i < accs.length; i++) {
        row[width + i] = accs[i].result(g);
      }
      out.add(row);
    }
    return out;
  }
}

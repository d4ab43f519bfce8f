package io.calcitebridge.statement;

import io.calcitebridge.arrow.ArrowMemory;
import io.calcitebridge.arrow.DirectReader;
import io.calcitebridge.arrow.GuardedReader;
import io.calcitebridge.arrow.RowsToArrow;
import io.calcitebridge.catalog.ArrowStorage;
import io.calcitebridge.errors.Errors;
import io.calcitebridge.pushdown.BridgeTableScan;
import io.calcitebridge.pushdown.SelectOnly;
import io.calcitebridge.vector.ArrowAggregate;
import io.calcitebridge.vector.VectorAggregates;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.calcite.adapter.enumerable.EnumerableCalc;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * When a source absorbs the whole plan (a scan, at most with a projection of its columns on top),
 * the source's own Arrow stream goes back to Python and no row passes through the JVM. When the
 * plan is an aggregate over such a scan ({@link ArrowAggregate}), its rows are computed from the
 * source's batches and returned without generating code for the plan.
 */
final class FastPath {
  private FastPath() {}

  /**
   * Whether {@code plan} is an aggregate computed from a source's batches, at most reordered, that
   * reads no column of the source ({@code COUNT(*)}, which the source may answer from its own row
   * counts). Aggregates that read columns measured faster on DuckDB.
   */
  static boolean aggregatesOverArrow(RelNode plan) {
    RelNode rel = plan;
    if (rel instanceof EnumerableCalc calc) {
      if (SelectOnly.columns(calc.getProgram()) == null) {
        return false;
      }
      rel = calc.getInput();
    }
    return rel instanceof ArrowAggregate agg && agg.scan().getRowType().getFieldCount() == 0;
  }

  /** The result as the source's stream, or null when the plan needs the JVM's engine. */
  static @Nullable ArrowReader direct(RelNode plan, RelDataType rowType) {
    RelNode rel = plan;
    int[] map = null;
    if (rel instanceof EnumerableCalc calc) {
      map = SelectOnly.columns(calc.getProgram());
      if (map == null) {
        return null;
      }
      rel = calc.getInput();
    }
    if (rel instanceof ArrowAggregate agg) {
      List<Object[]> rows = VectorAggregates.rows(agg.plan());
      if (map != null) {
        List<Object[]> picked = new ArrayList<>(rows.size());
        for (Object[] row : rows) {
          Object[] out = new Object[map.length];
          for (int i = 0; i < map.length; i++) {
            out[i] = row[map[i]];
          }
          picked.add(out);
        }
        rows = picked;
      }
      return new RowsToArrow(
          ArrowMemory.allocator(), rowType, Linq4j.asEnumerable(rows).enumerator());
    }
    if (!(rel instanceof BridgeTableScan scan)) {
      return null;
    }
    return direct(scan, map, rowType);
  }

  /**
   * The rows of {@code scan} with its columns {@code map} (null: all) picked, as the source's
   * stream, or null when the scan is not a source's or its types differ from {@code rowType}'s.
   */
  static @Nullable ArrowReader direct(
      BridgeTableScan scan, int @Nullable [] map, RelDataType rowType) {
    if (!(scan.bridgeTable().storage() instanceof ArrowStorage storage)) {
      return null;
    }
    if (map == null) {
      map = identity(scan.getRowType().getFieldCount());
    }
    ArrowStorage.Opened opened =
        scan.nested() != null
            ? storage.openPaths(scan.filters(), scan.nested(), scan.limit())
            : storage.open(scan.filters(), scan.projection(), scan.limit());
    try {
      int[] columns = new int[map.length];
      for (int i = 0; i < map.length; i++) {
        columns[i] = opened.columns()[map[i]];
      }
      List<Field> fields = opened.reader().getVectorSchemaRoot().getSchema().getFields();
      List<Field> expected = io.calcitebridge.types.ArrowTypes.toSchema(rowType).getFields();
      for (int i = 0; i < columns.length; i++) {
        if (!sameType(fields.get(columns[i]), expected.get(i))) {
          opened.reader().close();
          return null; // the source's types differ from the table's: convert in the JVM
        }
      }
      return new GuardedReader(
          ArrowMemory.allocator(),
          new DirectReader(
              ArrowMemory.allocator(), opened.reader(), columns, rowType.getFieldNames()),
          t -> Errors.sourceReadFailure(storage.sourceName(), t));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * The rows of {@code scan} as Arrow, with the scan's column names: the source's own batches when
   * their types are the table's, otherwise the scan's rows converted.
   */
  static ArrowReader scanReader(BridgeTableScan scan) {
    RelDataType rowType = scan.getRowType();
    ArrowReader direct = direct(scan, rowType);
    if (direct != null) {
      return direct;
    }
    Enumerable<?> rows =
        BridgeTableScan.rows(
            scan.bridgeTable(),
            scan.filters(),
            scan.projection(),
            scan.nested(),
            scan.limit(),
            null,
            false);
    @SuppressWarnings("unchecked")
    Enumerable<Object[]> arrays = (Enumerable<Object[]>) rows;
    return new RowsToArrow(ArrowMemory.allocator(), rowType, arrays.enumerator());
  }

  private static int[] identity(int n) {
    int[] map = new int[n];
    for (int i = 0; i < n; i++) {
      map[i] = i;
    }
    return map;
  }

  private static boolean sameType(Field actual, Field expected) {
    if (!actual.getType().equals(expected.getType())
        || actual.getChildren().size() != expected.getChildren().size()) {
      return false;
    }
    for (int i = 0; i < actual.getChildren().size(); i++) {
      if (!sameType(actual.getChildren().get(i), expected.getChildren().get(i))) {
        return false;
      }
    }
    return true;
  }
}

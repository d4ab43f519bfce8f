package io.calcitebridge.udf;

import io.calcitebridge.arrow.RowsToArrow;
import io.calcitebridge.functions.UserFunction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;

/** The runtime of {@code PythonBatch}: reads its input a batch at a time and adds the results. */
public final class PythonBatches {
  /** Rows a batch. */
  static final int BATCH_ROWS = 8192;

  /** What a {@code PythonBatch} computes: each call's function, operand columns and types. */
  public record Spec(
      List<UserFunction> functions,
      List<int[]> operands,
      List<org.apache.calcite.rel.type.RelDataType> types) {}

  private PythonBatches() {}

  /**
   * The rows of {@code input} (each an {@code Object[]}, a {@code List}, or when {@code scalar} the
   * value of its one column), each with the results of {@code spec}'s calls after its columns.
   */
  public static Enumerable<Object[]> apply(Enumerable<?> input, Spec spec, boolean scalar) {
    return new AbstractEnumerable<Object[]>() {
      @Override
      public Enumerator<Object[]> enumerator() {
        return new Batches(input.enumerator(), spec, scalar);
      }
    };
  }

  private static final class Batches implements Enumerator<Object[]> {
    private final Enumerator<?> input;
    private final Spec spec;
    private final boolean scalar;
    private List<Object[]> batch = List.of();
    private int next;
    private boolean done;

    Batches(Enumerator<?> input, Spec spec, boolean scalar) {
      this.input = input;
      this.spec = spec;
      this.scalar = scalar;
    }

    @Override
    public Object[] current() {
      return batch.get(next - 1);
    }

    @Override
    public boolean moveNext() {
      if (next < batch.size()) {
        next++;
        return true;
      }
      if (done) {
        return false;
      }
      List<Object[]> rows = new ArrayList<>();
      while (rows.size() < BATCH_ROWS) {
        if (!input.moveNext()) {
          done = true;
          break;
        }
        Object row = input.current();
        rows.add(scalar ? new Object[] {row} : RowsToArrow.asRow(row));
      }
      if (rows.isEmpty()) {
        return false;
      }
      batch = compute(rows);
      next = 1;
      return true;
    }

    private List<Object[]> compute(List<Object[]> rows) {
      int width = rows.get(0).length;
      int calls = spec.functions().size();
      List<Object[]> out = new ArrayList<>(rows.size());
      for (Object[] row : rows) {
        out.add(Arrays.copyOf(row, width + calls));
      }
      for (int c = 0; c < calls; c++) {
        int[] refs = spec.operands().get(c);
        List<Object[]> args = new ArrayList<>(rows.size());
        for (Object[] row : rows) {
          Object[] a = new Object[refs.length];
          for (int i = 0; i < refs.length; i++) {
            a[i] = row[refs[i]];
          }
          args.add(a);
        }
        Object[] results = spec.functions().get(c).apply(spec.types().get(c), args);
        for (int r = 0; r < results.length; r++) {
          out.get(r)[width + c] = results[r];
        }
      }
      return out;
    }

    @Override
    public void reset() {
      input.reset();
      batch = List.of();
      next = 0;
      done = false;
    }

    @Override
    public void close() {
      input.close();
    }
  }
}

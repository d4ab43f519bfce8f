package io.calcitebridge.enumerable;

import java.util.Comparator;
import java.util.List;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.linq4j.function.Function1;
import org.apache.calcite.linq4j.function.Functions;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * What the code generated for sorts ({@link SortRewrite}) calls at run time.
 *
 * <p>Calcite's comparator for a single sort key ({@code Functions.nullsComparator}) compares any
 * two numbers by converting both to {@code BigDecimal}; for a {@code DOUBLE} that is the exact
 * binary expansion ({@code new BigDecimal(double)}), some microseconds a comparison, which made
 * ORDER BY over a million rows take minutes. {@link #nullsComparator} compares two values of the
 * same class with their own {@code compareTo} and hands every other pair to Calcite's comparator,
 * so the order is Calcite's.
 */
public final class SortRuntime {
  private SortRuntime() {}

  /**
   * As Calcite's {@code Functions.nullsComparator(nullsFirst, descending)}: nulls first or last
   * whatever the direction, other values in ascending or descending order.
   */
  public static Comparator<@Nullable Object> nullsComparator(
      boolean nullsFirst, boolean descending) {
    return new NullsComparator(nullsFirst, descending);
  }

  /**
   * The rows of {@code source} ordered by their keys, rows with equal keys in input order (as
   * Calcite's {@code orderBy}, which files them into a tree map of lists); {@code comparator} null
   * means the keys' natural order. The source is read again at each enumeration.
   */
  public static <T, K> Enumerable<T> orderBy(
      Enumerable<T> source, Function1<T, K> keySelector, @Nullable Comparator<K> comparator) {
    return new AbstractEnumerable<T>() {
      @Override
      public Enumerator<T> enumerator() {
        List<T> rows = source.toList();
        @SuppressWarnings("unchecked")
        Comparator<K> keys =
            comparator != null
                ? comparator
                : (Comparator<K>) (Comparator<?>) Comparator.naturalOrder();
        // List.sort is a merge sort: stable, as Calcite's order is.
        rows.sort((a, b) -> keys.compare(keySelector.apply(a), keySelector.apply(b)));
        return Linq4j.enumerator(rows);
      }
    };
  }

  /** Nulls placed apart; two values of one class by their {@code compareTo}; others Calcite's. */
  private static final class NullsComparator implements Comparator<@Nullable Object> {
    /** Calcite's ascending comparator, for the pairs this one does not order itself. */
    private static final Comparator<Object> CALCITE = fallback();

    private final boolean nullsFirst;
    private final boolean descending;

    NullsComparator(boolean nullsFirst, boolean descending) {
      this.nullsFirst = nullsFirst;
      this.descending = descending;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Comparator<Object> fallback() {
      return (Comparator) Functions.nullsComparator(false, false);
    }

    @Override
    public int compare(@Nullable Object a, @Nullable Object b) {
      if (a == b) {
        return 0;
      }
      if (a == null) {
        return nullsFirst ? -1 : 1;
      }
      if (b == null) {
        return nullsFirst ? 1 : -1;
      }
      int c = Integer.signum(compareValues(a, b));
      return descending ? -c : c;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static int compareValues(Object a, Object b) {
      if (a instanceof Double x && b instanceof Double y) {
        return compareDoubles(x, y);
      }
      if (a instanceof Float x && b instanceof Float y) {
        return compareDoubles(x, y);
      }
      // Calcite compares lists item by item, whatever their class; the rest by compareTo.
      if (a.getClass() == b.getClass() && a instanceof Comparable && !(a instanceof List)) {
        return ((Comparable) a).compareTo(b);
      }
      return CALCITE.compare(a, b);
    }

    /**
     * By value, as the exact decimal expansions compare: -0.0 equals 0.0 (they keep their input
     * order). NaN, which Calcite's comparator cannot convert, sorts above every other value.
     */
    private static int compareDoubles(double x, double y) {
      return x == y ? 0 : Double.compare(x, y);
    }
  }
}

package io.calcitebridge.enumerable;

import io.calcitebridge.errors.Stop;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.EnumerableDefaults;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.JoinType;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.linq4j.function.Function1;
import org.apache.calcite.linq4j.function.Function2;
import org.apache.calcite.linq4j.function.Predicate2;
import org.checkerframework.checker.nullness.qual.Nullable;

/** Run-time helpers the code generated for joins calls ({@link JoinRewrite}). Public for it. */
public final class JoinRuntime {
  private JoinRuntime() {}

  /** Rows of both sides compared between two looks at the statement's cancel flag. */
  private static final int CHECK_EVERY = 1 << 12;

  /**
   * Calcite's {@code EnumerableDefaults.nestedLoopJoin}, except that it stops once the statement is
   * cancelled (its timeout, Ctrl-C), and that a RIGHT or FULL join keeps each unmatched right row,
   * duplicates included.
   *
   * <p>The join loops over its inner rows, kept in a list ({@link #once}), for each outer row: no
   * scan, which would stop the statement, is read meanwhile. A COUNT over a cross join of four
   * 2,000-row VALUES went on for hours after its client had its timeout. The condition now looks at
   * the cancel flag every {@value #CHECK_EVERY} pairs.
   *
   * <p>For a RIGHT or FULL join, Calcite tracks the unmatched rows in an identity set, and a right
   * input of one column has rows that are the same object when their values are equal (a boxed
   * small integer, an interned string): {@code l(4) RIGHT JOIN r(5), (5) ON FALSE} gave one row,
   * not two. Here each right row is tracked by its position.
   */
  public static <L, R, T> Enumerable<T> nestedLoopJoin(
      Enumerable<L> outer,
      Enumerable<R> inner,
      Predicate2<L, R> predicate,
      Function2<? super @Nullable L, ? super @Nullable R, T> resultSelector,
      JoinType joinType,
      @Nullable DataContext root) {
    final AtomicBoolean cancel = root == null ? null : DataContext.Variable.CANCEL_FLAG.get(root);
    final Predicate2<L, R> condition = cancel == null ? predicate : cancellable(predicate, cancel);
    if (!joinType.generatesNullsOnLeft()) {
      return EnumerableDefaults.nestedLoopJoin(
          outer, once(inner), condition, resultSelector, joinType);
    }
    final boolean nullsOnRight = joinType.generatesNullsOnRight();
    final List<T> result = new ArrayList<>();
    final List<R> rights = inner.toList();
    final boolean[] matched = new boolean[rights.size()];
    try (Enumerator<L> lefts = outer.enumerator()) {
      while (lefts.moveNext()) {
        final L left = lefts.current();
        boolean any = false;
        for (int i = 0; i < matched.length; i++) {
          final R right = rights.get(i);
          if (condition.apply(left, right)) {
            any = true;
            matched[i] = true;
            result.add(resultSelector.apply(left, right));
          }
        }
        if (nullsOnRight && !any) {
          result.add(resultSelector.apply(left, null));
        }
      }
    }
    for (int i = 0; i < matched.length; i++) {
      if (!matched[i]) {
        result.add(resultSelector.apply(null, rights.get(i)));
      }
    }
    return Linq4j.asEnumerable(result);
  }

  /**
   * {@code inner}, computed once, when first enumerated: Calcite's join enumerates its inner input
   * again for each outer row, which ran the whole inner subtree again each time (a Python source's
   * scan crossed into Python 3,001 times for a cross join of two 3,000-row tables, and an aggregate
   * under it was computed as often), and gave a non-deterministic function of the inner side
   * ({@code RAND()}) another value for each outer row.
   */
  private static <R> Enumerable<R> once(Enumerable<R> inner) {
    return new AbstractEnumerable<>() {
      private @Nullable List<R> rows;

      @Override
      public Enumerator<R> enumerator() {
        List<R> kept = rows;
        if (kept == null) {
          kept = inner.toList();
          rows = kept;
        }
        return Linq4j.enumerator(kept);
      }
    };
  }

  /** {@code predicate}, which throws the statement's error once {@code cancel} is set. */
  private static <L, R> Predicate2<L, R> cancellable(
      Predicate2<L, R> predicate, AtomicBoolean cancel) {
    return new Predicate2<>() {
      private int calls;

      @Override
      public boolean apply(L left, R right) {
        if ((++calls & (CHECK_EVERY - 1)) == 0 && cancel.get()) {
          throw Stop.stopped(cancel);
        }
        return predicate.apply(left, right);
      }
    };
  }

  /**
   * {@code keys}, a hash join's key selector, except that a key holding a DOUBLE or FLOAT NaN (the
   * key itself, or a value of a key of several columns) is a new object, equal to no other key: a
   * NaN matches nothing, as {@code NaN = NaN} is FALSE. NULL keys stay as they are.
   */
  public static <T> Function1<T, @Nullable Object> nanKeys(Function1<T, ?> keys) {
    return row -> {
      Object key = keys.apply(row);
      return hasNaN(key) ? new Object() : key;
    };
  }

  private static boolean hasNaN(@Nullable Object key) {
    if (key instanceof List<?> values) {
      for (Object value : values) {
        if (isNaN(value)) {
          return true;
        }
      }
      return false;
    }
    return isNaN(key);
  }

  private static boolean isNaN(@Nullable Object value) {
    return value instanceof Double d && d.isNaN() || value instanceof Float f && f.isNaN();
  }

  /** Whether a join condition's value is TRUE (FALSE for NULL). */
  public static boolean isTrue(@Nullable Object value) {
    return Boolean.TRUE.equals(value);
  }
}

package io.calcitebridge.plan;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.EnumerableDefaults;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.JoinType;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.linq4j.function.Function2;
import org.apache.calcite.linq4j.function.Predicate2;
import org.checkerframework.checker.nullness.qual.Nullable;

/** Run-time helpers the code generated for joins calls ({@link JoinRewrite}). Public for it. */
public final class JoinRuntime {
  private JoinRuntime() {}

  /**
   * Calcite's {@code EnumerableDefaults.nestedLoopJoin}, except that a RIGHT or FULL join keeps
   * each unmatched right row, duplicates included. Calcite tracks the unmatched rows in an identity
   * set, and a right input of one column has rows that are the same object when their values are
   * equal (a boxed small integer, an interned string): {@code l(4) RIGHT JOIN r(5), (5) ON FALSE}
   * gave one row, not two. Here each right row is tracked by its position.
   */
  public static <L, R, T> Enumerable<T> nestedLoopJoin(
      Enumerable<L> outer,
      Enumerable<R> inner,
      Predicate2<L, R> predicate,
      Function2<? super @Nullable L, ? super @Nullable R, T> resultSelector,
      JoinType joinType) {
    if (!joinType.generatesNullsOnLeft()) {
      return EnumerableDefaults.nestedLoopJoin(outer, inner, predicate, resultSelector, joinType);
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
          if (predicate.apply(left, right)) {
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

  /** Whether a join condition's value is TRUE (FALSE for NULL). */
  public static boolean isTrue(@Nullable Object value) {
    return Boolean.TRUE.equals(value);
  }
}

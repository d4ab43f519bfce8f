package io.calcitebridge.enumerable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.google.common.collect.ImmutableList;
import io.calcitebridge.types.BridgeTypeFactory;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.apache.calcite.adapter.enumerable.EnumerableLimitSort;
import org.apache.calcite.adapter.enumerable.EnumerableSort;
import org.apache.calcite.adapter.enumerable.EnumerableValues;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.linq4j.function.Functions;
import org.apache.calcite.plan.ConventionTraitDef;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.volcano.VolcanoPlanner;
import org.apache.calcite.rel.RelCollationTraitDef;
import org.apache.calcite.rel.RelCollations;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.Test;

/** The sorts' comparator orders as Calcite's does; the rewrite reaches every sort of a plan. */
class SortRuntimeTest {
  private static final List<Object> VALUES =
      Arrays.asList(
          null,
          1,
          2,
          -3,
          1L,
          2L,
          Long.MAX_VALUE,
          Long.MIN_VALUE,
          0.5,
          2.0,
          -1e300,
          Double.MAX_VALUE,
          0.1f,
          new BigDecimal("2.00"),
          new BigDecimal("0.5"),
          "a",
          "ab",
          "B",
          true,
          false,
          Arrays.asList(1, 2),
          Arrays.asList(1L, 3L));

  @Test
  void ordersEveryPairAsCalcitesComparator() {
    for (boolean nullsFirst : new boolean[] {true, false}) {
      for (boolean descending : new boolean[] {true, false}) {
        Comparator<Object> calcite = calcite(nullsFirst, descending);
        Comparator<Object> ours = SortRuntime.nullsComparator(nullsFirst, descending);
        for (Object a : VALUES) {
          for (Object b : VALUES) {
            if (a instanceof Boolean != b instanceof Boolean) {
              continue; // Calcite's answer for a Boolean against another class is by class name
            }
            assertEquals(
                Integer.signum(calcite.compare(a, b)),
                Integer.signum(ours.compare(a, b)),
                () -> a + " vs " + b + " nullsFirst=" + nullsFirst + " desc=" + descending);
          }
        }
      }
    }
  }

  @Test
  void doublesCompareByValue() {
    Comparator<Object> asc = SortRuntime.nullsComparator(false, false);
    assertEquals(0, asc.compare(-0.0, 0.0));
    assertEquals(0, asc.compare(Double.NaN, Double.NaN));
    // Calcite's comparator throws on both: they have no decimal expansion.
    assertEquals(1, asc.compare(Double.NaN, Double.POSITIVE_INFINITY));
    assertEquals(-1, asc.compare(Double.NEGATIVE_INFINITY, -Double.MAX_VALUE));
    assertEquals(-1, asc.compare(Double.NaN, null));
    assertEquals(-1, SortRuntime.nullsComparator(false, true).compare(Double.NaN, 1.0));
  }

  @Test
  void fullSortKeepsInputOrderAmongEqualKeys() {
    List<Object[]> rows = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      rows.add(new Object[] {i, i % 7 == 0 ? null : (double) (i % 5)});
    }
    Comparator<Object> cmp = SortRuntime.nullsComparator(true, true);
    List<Object[]> out =
        SortRuntime.<Object[], Object>orderBy(Linq4j.asEnumerable(rows), r -> r[1], cmp).toList();
    assertEquals(rows.size(), out.size());
    for (int i = 1; i < out.size(); i++) {
      Object[] p = out.get(i - 1);
      Object[] q = out.get(i);
      int c = cmp.compare(p[1], q[1]);
      assertEquals(true, c < 0 || (c == 0 && (int) p[0] < (int) q[0]), i + "");
    }
  }

  @Test
  void rewriteReplacesEverySort() {
    VolcanoPlanner planner = new VolcanoPlanner();
    planner.addRelTraitDef(ConventionTraitDef.INSTANCE);
    planner.addRelTraitDef(RelCollationTraitDef.INSTANCE);
    RelOptCluster cluster =
        RelOptCluster.create(planner, new RexBuilder(BridgeTypeFactory.INSTANCE));
    RelDataType type =
        BridgeTypeFactory.INSTANCE
            .builder()
            .add("x", BridgeTypeFactory.INSTANCE.createSqlType(SqlTypeName.DOUBLE))
            .build();
    RelNode values = EnumerableValues.create(cluster, type, ImmutableList.of());
    var collation =
        RelCollations.of(
            new RelFieldCollation(
                0, RelFieldCollation.Direction.DESCENDING, RelFieldCollation.NullDirection.LAST));
    RelNode sort = EnumerableSort.create(values, collation, null, null);
    RelNode top =
        EnumerableLimitSort.create(
            sort, collation, null, cluster.getRexBuilder().makeExactLiteral(BigDecimal.ONE));
    RelNode out = SortRewrite.apply(top);
    assertInstanceOf(SortRewrite.FastLimitSort.class, out);
    assertInstanceOf(SortRewrite.FastSort.class, out.getInput(0));
    assertSame(values, out.getInput(0).getInput(0));
    assertEquals("EnumerableLimitSort", out.getRelTypeName());
    assertEquals("EnumerableSort", out.getInput(0).getRelTypeName());
    assertSame(out, SortRewrite.apply(out));
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Comparator<Object> calcite(boolean nullsFirst, boolean descending) {
    return (Comparator) Functions.nullsComparator(nullsFirst, descending);
  }
}

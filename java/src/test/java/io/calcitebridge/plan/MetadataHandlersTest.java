package io.calcitebridge.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.metadata.JaninoRelMetadataProvider;
import org.apache.calcite.rel.metadata.MetadataHandler;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.metadata.RelMetadataQueryBase;
import org.junit.jupiter.api.Test;

/**
 * {@link MetadataHandlers}: a plan's metadata query starts with Calcite's generated handlers (no
 * stand-in that throws on first use), answers as Calcite's own query does, and is shared safely by
 * threads.
 */
class MetadataHandlersTest {
  private static final String JOIN =
      "SELECT t.a, u.c, t.b FROM t JOIN u ON t.a = u.a WHERE t.a > 1 AND u.c < 10";

  private static PlanningSession session() {
    PlanningSession session = new PlanningSession();
    session.exec("CREATE TABLE t (a INT, b STRING)");
    session.exec("CREATE TABLE u (a INT, c INT)");
    session.exec("INSERT INTO t VALUES (1, 'x'), (2, 'y'), (3, 'z')");
    session.exec("INSERT INTO u VALUES (2, 5), (3, 20)");
    return session;
  }

  private static List<Object> handlers(RelMetadataQuery mq) throws IllegalAccessException {
    List<Object> found = new ArrayList<>();
    for (Field f : RelMetadataQuery.class.getDeclaredFields()) {
      if (MetadataHandler.class.isAssignableFrom(f.getType())) {
        f.setAccessible(true);
        found.add(f.get(mq));
      }
    }
    return found;
  }

  @Test
  void aPlansQueryHoldsTheGeneratedHandlersFromTheStart() throws Exception {
    RelNode plan = session().optimized(JOIN);
    List<Object> handlers = handlers(plan.getCluster().getMetadataQuery());
    assertTrue(handlers.size() > 20, handlers.toString());
    for (Object h : handlers) {
      assertFalse(Proxy.isProxyClass(h.getClass()), h.getClass().getName());
    }
    // the same generated handlers in every query of the JVM
    List<Object> again = handlers(MetadataHandlers.query());
    for (int i = 0; i < handlers.size(); i++) {
      assertSame(handlers.get(i), again.get(i));
    }
  }

  @Test
  void answersAsCalcitesOwnQuery() {
    RelNode plan = session().optimized(JOIN);
    RelMetadataQuery ours = MetadataHandlers.query();
    RelMetadataQuery calcites = RelMetadataQuery.instance();
    for (RelNode rel = plan; ; rel = rel.getInput(0)) {
      assertEquals(calcites.getRowCount(rel), ours.getRowCount(rel), rel.toString());
      assertEquals(calcites.getUniqueKeys(rel), ours.getUniqueKeys(rel), rel.toString());
      assertEquals(
          calcites.getPulledUpPredicates(rel).pulledUpPredicates.toString(),
          ours.getPulledUpPredicates(rel).pulledUpPredicates.toString(),
          rel.toString());
      assertEquals(
          String.valueOf(calcites.getCumulativeCost(rel)),
          String.valueOf(ours.getCumulativeCost(rel)),
          rel.toString());
      assertEquals(
          String.valueOf(calcites.getNonCumulativeCost(rel)),
          String.valueOf(ours.getNonCumulativeCost(rel)),
          rel.toString());
      assertEquals(
          calcites.getPercentageOriginalRows(rel),
          ours.getPercentageOriginalRows(rel),
          rel.toString());
      if (rel.getInputs().isEmpty()) {
        break;
      }
    }
  }

  @Test
  void aThreadWithoutAProviderGetsCalcitesDefault() throws Exception {
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      RelMetadataQuery mq =
          pool.submit(
                  () -> {
                    assertEquals(null, RelMetadataQueryBase.THREAD_PROVIDERS.get());
                    return MetadataHandlers.query();
                  })
              .get();
      assertNotNull(mq);
    } finally {
      pool.shutdown();
    }
  }

  @Test
  void threadsPlanTheSameJoinAlike() throws Exception {
    String expected = session().plan(JOIN);
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<String>> plans = new ArrayList<>();
      for (int i = 0; i < 16; i++) {
        plans.add(
            pool.submit(
                () -> {
                  RelMetadataQueryBase.THREAD_PROVIDERS.set(
                      JaninoRelMetadataProvider.of(
                          org.apache.calcite.rel.metadata.DefaultRelMetadataProvider.INSTANCE));
                  return session().plan(JOIN);
                }));
      }
      for (Future<String> p : plans) {
        assertEquals(expected, p.get());
      }
    } finally {
      pool.shutdown();
    }
  }
}

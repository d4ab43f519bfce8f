package io.calcitebridge.statement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Set;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.Test;

class PlanCacheTest {
  private final SessionState state = new SessionState();
  private final PlanCache cache = state.planCache();

  private static AbstractTable table() {
    return new AbstractTable() {
      @Override
      public RelDataType getRowType(RelDataTypeFactory f) {
        return f.builder().add("a", SqlTypeName.INTEGER).build();
      }
    };
  }

  private PlanCache.Key key(String sql) {
    PlanCache.Key key = cache.key("query", sql, "auto");
    assertNotNull(key);
    return key;
  }

  @Test
  void theKeyHoldsEverySettingTheBackendsAndTheCatalogVersion() {
    PlanCache.Key first = key("SELECT 1");
    assertEquals(first, key("SELECT 1"));
    assertNotEquals(first, key("select 1"));
    assertNotEquals(first, cache.key("query", "SELECT 1", "duckdb"));
    assertNotEquals(first, cache.key("explain text", "SELECT 1", "auto"));
    for (String[] change :
        new String[][] {
          {SessionConfig.LOCAL_TIME_ZONE, "Asia/Tokyo"},
          {SessionConfig.EXPANSION_STRATEGY, "EXCLUDE_COMPUTED_COLUMNS"},
          {SessionConfig.EXECUTION_BACKEND, "duckdb"},
        }) {
      state.config().set(change[0], change[1]);
      assertNotEquals(first, key("SELECT 1"), change[0]);
      state.config().reset(change[0]);
      assertEquals(first, key("SELECT 1"), change[0]);
    }
    state.config().set(SessionConfig.PLAN_CACHE_SIZE, "7");
    assertEquals(first, key("SELECT 1"), "the cache's own size is not part of the key");
    state.setHostBackends(Set.of("duckdb"));
    assertNotEquals(first, key("SELECT 1"));
    state.setHostBackends(Set.of());
    state.catalog().addTable("t", table(), false);
    assertNotEquals(first, key("SELECT 1"));
  }

  @Test
  void everyCatalogChangeEmptiesTheCache() {
    cache.put(key("a"), "plan a");
    state.catalog().addTable("t", table(), false);
    assertEquals(0, cache.size());
    PlanCache.Key b = key("b");
    cache.put(b, "plan b");
    assertEquals("plan b", cache.get(b, String.class));
    state.catalog().drop("t", false, false);
    assertEquals(0, cache.size());
    assertNull(cache.get(b, String.class));
  }

  @Test
  void aPlanMadeWhileTheCatalogChangedIsNotKept() {
    PlanCache.Key before = key("SELECT * FROM t");
    state.catalog().addTable("t", table(), false);
    cache.put(before, "a plan of the old catalog");
    assertEquals(0, cache.size());
    assertNull(cache.get(key("SELECT * FROM t"), String.class));
  }

  @Test
  void theLeastRecentlyUsedGoesFirst() {
    state.config().set(SessionConfig.PLAN_CACHE_SIZE, "2");
    cache.put(key("a"), "A");
    cache.put(key("b"), "B");
    assertEquals("A", cache.get(key("a"), String.class));
    cache.put(key("c"), "C");
    assertEquals(2, cache.size());
    assertNull(cache.get(key("b"), String.class));
    assertEquals("A", cache.get(key("a"), String.class));
    assertEquals("C", cache.get(key("c"), String.class));
    assertNull(cache.get(key("c"), Integer.class), "a value of another kind is a miss");
  }

  @Test
  void sizeZeroTurnsTheCacheOffAndEmptiesIt() {
    cache.put(key("a"), "A");
    state.config().set(SessionConfig.PLAN_CACHE_SIZE, "0");
    assertNull(cache.key("query", "a", "auto"));
    assertEquals(0, cache.size());
  }
}

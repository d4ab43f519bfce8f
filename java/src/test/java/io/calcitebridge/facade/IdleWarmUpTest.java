package io.calcitebridge.facade;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The JIT's warm-up in idle time: when it runs a step, what it runs, and how it ends. */
class IdleWarmUpTest {
  private static final long MS = 1_000_000L;

  /** A clock and CPU counters the test moves by hand. */
  private static final class Counters {
    final AtomicLong now = new AtomicLong();
    final AtomicLong process = new AtomicLong();
    final AtomicLong own = new AtomicLong();
    final AtomicLong compilation = new AtomicLong();
    double others;

    IdleWarmUp.Window window() {
      return new IdleWarmUp.Window(
          now::get, process::get, own::get, compilation::get, () -> others);
    }

    /** {@code millis} pass, the rest of the process using {@code restMillis} of CPU in them. */
    void pass(long millis, long restMillis) {
      now.addAndGet(millis * MS);
      process.addAndGet(restMillis * MS);
    }
  }

  @Test
  void aWindowIsJudgedOnlyOnceItIsWhole() {
    Counters c = new Counters();
    IdleWarmUp.Window w = c.window();
    c.pass(50, 0);
    assertFalse(w.idle(), "no whole window has passed yet");
    c.pass(50, 0);
    assertTrue(w.idle());
    c.pass(30, 30); // busy, but the next window is not whole yet: the last judgement holds
    assertTrue(w.idle());
    c.pass(70, 70);
    assertFalse(w.idle(), "the rest of the process used a whole core");
  }

  @Test
  void itsOwnCpuAndTheJitsCompilationDoNotCount() {
    Counters c = new Counters();
    IdleWarmUp.Window w = c.window();
    c.pass(100, 90);
    c.own.addAndGet(60 * MS);
    c.compilation.addAndGet(25 * MS);
    assertTrue(w.idle(), "5 ms of 100 used by the rest of the process");
    c.pass(100, 90);
    c.own.addAndGet(40 * MS);
    assertFalse(w.idle(), "50 ms of 100 used by the rest of the process");
  }

  @Test
  void otherProcessesOnTheMachineMakeItBusy() {
    Counters c = new Counters();
    IdleWarmUp.Window w = c.window();
    c.others = 0.9;
    c.pass(100, 0);
    assertFalse(w.idle());
    c.others = 0.1;
    c.pass(100, 0);
    assertTrue(w.idle());
  }

  /** Steps that record what they were given, failing when {@code failing}. */
  private static final class Recorded implements IdleWarmUp.Steps {
    final List<String> ddl = new ArrayList<>();
    final List<String> steps = new ArrayList<>();
    boolean failing;

    @Override
    public void prepare(String sql, AtomicBoolean stop) {
      ddl.add(sql);
    }

    @Override
    public void validate(String sql, AtomicBoolean stop) {
      steps.add("validate " + sql);
      if (failing) {
        throw new IllegalStateException("cannot plan");
      }
    }

    @Override
    public String explain(String sql, AtomicBoolean stop) {
      steps.add("explain " + sql);
      if (failing) {
        throw new IllegalStateException("cannot plan");
      }
      return "";
    }
  }

  @Test
  void itRunsItsBudgetOfStatementsEachWithAConstantOfItsOwnThenEnds() {
    IdleWarmUp warmUp = new IdleWarmUp(40, () -> true);
    Recorded r = new Recorded();
    warmUp.run((IdleWarmUp.Steps) r);
    assertEquals(IdleWarmUp.TABLES, r.ddl);
    assertEquals(40, r.steps.size());
    assertEquals("done 40/40", warmUp.describe());
    assertEquals(40, new HashSet<>(r.steps).size(), "every statement's text is new");
    for (int i = 0; i < r.steps.size(); i++) {
      String step = r.steps.get(i);
      assertTrue(step.startsWith(i % 2 == 0 ? "validate " : "explain "), step);
      assertFalse(step.contains("{n}"), step);
    }
    // Every shape is run, each validated and explained
    for (String shape : IdleWarmUp.SHAPES) {
      String head = shape.substring(0, shape.indexOf("{n}"));
      assertTrue(r.steps.stream().anyMatch(s -> s.startsWith("validate " + head)), shape);
      assertTrue(r.steps.stream().anyMatch(s -> s.startsWith("explain " + head)), shape);
    }
  }

  @Test
  void aStatementThatFailsStillCountsAndTheRestRun() {
    IdleWarmUp warmUp = new IdleWarmUp(6, () -> true);
    Recorded r = new Recorded();
    r.failing = true;
    warmUp.run((IdleWarmUp.Steps) r);
    assertEquals(6, r.steps.size());
    assertEquals("done 6/6", warmUp.describe());
  }

  @Test
  void itWaitsWhileTheGateIsClosedAndStopsWhenAsked() throws Exception {
    AtomicBoolean open = new AtomicBoolean();
    IdleWarmUp warmUp = new IdleWarmUp(1_000_000, open::get);
    Recorded r = new Recorded();
    CountDownLatch ended = new CountDownLatch(1);
    warmUp.startThread(
        () -> {
          warmUp.run((IdleWarmUp.Steps) r);
          ended.countDown();
        });
    Thread.sleep(300);
    assertEquals(0, warmUp.ran());
    assertEquals("waiting 0/1000000", warmUp.describe());
    open.set(true);
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (warmUp.ran() < 10 && System.nanoTime() < until) {
      Thread.sleep(5);
    }
    assertTrue(warmUp.ran() >= 10, warmUp.describe());
    open.set(false);
    warmUp.stopNow();
    assertTrue(ended.await(10, TimeUnit.SECONDS), warmUp.describe());
    assertTrue(warmUp.describe().startsWith("stopped "), warmUp.describe());
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "duckdb"})
  void everyShapeValidatesAndExplainsInItsOwnSession(String hostBackends) {
    IdleWarmUp.Steps steps = BridgeSession.warmUpSteps(hostBackends);
    AtomicBoolean stop = new AtomicBoolean();
    for (String ddl : IdleWarmUp.TABLES) {
      steps.prepare(ddl, stop);
    }
    for (String shape : IdleWarmUp.SHAPES) {
      String sql = shape.replace("{n}", "7");
      steps.validate(sql, stop);
      String plan = steps.explain(sql, stop);
      if (shape.contains("person.age")) { // the source takes the nested filter into its scan
        assertTrue(plan.contains("filter=[") && plan.contains("person.age"), plan);
      }
    }
  }

  @Test
  void aSessionsPlansAndTypesAreTheSameWhileTheWarmUpPlansBesideIt() throws Exception {
    // It plans on its own thread while a user's statement may start: shared caches (function
    // tables, metadata handlers, the operator table) must give the user's statements what they
    // give without it.
    BridgeSession user = new BridgeSession();
    Pending<StatementResult> made =
        user.execute(
            "CREATE TABLE t (id BIGINT, name STRING, r ROW<a INT, b STRING>, d DECIMAL(10, 2),"
                + " ts TIMESTAMP(3)) WITH ('connector' = 'memory')");
    made.result().close();
    List<String> queries =
        List.of(
            "SELECT id, r.a FROM t WHERE r.b = 'x' AND id > 3",
            "SELECT name, COUNT(*), SUM(d) FROM t GROUP BY name HAVING COUNT(*) > 1",
            "SELECT id, UPPER(name), CAST(d AS INT), DATE_FORMAT(ts, 'yyyy') FROM t",
            "SELECT id, RANK() OVER (PARTITION BY name ORDER BY d) FROM t",
            "SELECT a.id FROM t a JOIN t b ON a.id = b.id WHERE b.r.a < 5");
    List<String> alone = new ArrayList<>();
    for (String q : queries) {
      alone.add(user.explain(q, "text").result());
      alone.add(user.explain(q, "json").result());
    }
    IdleWarmUp warmUp = new IdleWarmUp(1_000_000, () -> true);
    CountDownLatch ended = new CountDownLatch(1);
    warmUp.startThread(
        () -> {
          warmUp.run(() -> BridgeSession.warmUpSteps(""));
          ended.countDown();
        });
    try {
      for (int round = 0; round < 30; round++) {
        List<String> beside = new ArrayList<>();
        for (String q : queries) {
          beside.add(user.explain(q, "text").result());
          beside.add(user.explain(q, "json").result());
        }
        assertEquals(alone, beside, "round " + round + ", " + warmUp.describe());
      }
      assertTrue(warmUp.ran() > 0, "it planned beside the session: " + warmUp.describe());
    } finally {
      warmUp.stopNow();
      assertTrue(ended.await(30, TimeUnit.SECONDS), warmUp.describe());
    }
  }

  @Test
  void itsTablesAreInASessionOfItsOwn() {
    BridgeSession user = new BridgeSession();
    IdleWarmUp.Steps steps = BridgeSession.warmUpSteps("");
    for (String ddl : IdleWarmUp.TABLES) {
      steps.prepare(ddl, new AtomicBoolean());
    }
    assertEquals(List.of(), List.of(user.tableNames()));
    assertEquals(List.of(), List.of(new BridgeSession().tableNames()));
  }

  @Test
  void aRunningStatementMakesTheProcessBusy() throws Exception {
    CountDownLatch running = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Pending<Integer> statement =
        Workers.submit(
            () -> {
              running.countDown();
              release.await();
              return 1;
            });
    assertTrue(running.await(10, TimeUnit.SECONDS));
    IdleWarmUp.IdleMachine gate = new IdleWarmUp.IdleMachine();
    java.util.concurrent.atomic.AtomicInteger made =
        new java.util.concurrent.atomic.AtomicInteger();
    IdleWarmUp.Lazy lazy =
        new IdleWarmUp.Lazy(
            () -> {
              made.incrementAndGet();
              return () -> true;
            });
    assertTrue(Workers.busy());
    assertFalse(gate.idle());
    assertFalse(lazy.idle());
    assertEquals(0, made.get(), "the lazy gate is made only once the process is quiet");
    release.countDown();
    assertEquals(1, statement.result());
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (Workers.busy() && System.nanoTime() < until) {
      Thread.sleep(1);
    }
    assertFalse(Workers.busy());
    assertFalse(gate.idle(), "a statement ended less than " + IdleWarmUp.QUIET_MILLIS + " ms ago");
    assertTrue(Workers.quietNanos() < TimeUnit.SECONDS.toNanos(10));
    Thread.sleep(IdleWarmUp.QUIET_MILLIS + 50);
    if (!Workers.busy()) { // no other test's statement runs now
      assertTrue(lazy.idle());
      assertEquals(1, made.get());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "on", " ON "})
  void theSettingOnOrUnsetMeansTheDefault(String value) {
    assertEquals(-1, IdleWarmUp.statementsFrom(value));
    assertEquals(-1, IdleWarmUp.statementsFrom(null));
  }

  @Test
  void theSettingTakesOffOrANumber() {
    assertEquals(0, IdleWarmUp.statementsFrom("off"));
    assertEquals(0, IdleWarmUp.statementsFrom("0"));
    assertEquals(250, IdleWarmUp.statementsFrom("250"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"-1", "+5", "many", "1.5", "yes", "\u0665", "99999999999"})
  void anyOtherSettingIsRefusedNamingIt(String value) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> IdleWarmUp.statementsFrom(value));
    assertTrue(e.getMessage().contains(IdleWarmUp.SETTING), e.getMessage());
    assertTrue(e.getMessage().contains("'on', 'off' or a number"), e.getMessage());
  }
}

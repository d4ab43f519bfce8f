package io.calcitebridge.facade;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Plans statements of its own while the process and the machine are idle, so that the JIT compiles
 * the planner before the user's statements need it.
 *
 * <p>A new JVM interprets the planner's code until each method has been called often enough to be
 * compiled: the tenth statement of a session plans three to four times slower than the
 * three-thousandth, and a session in a notebook or a shell, with a statement every few seconds,
 * stays in that state for its first hundreds of statements. The time between its statements is
 * idle. This thread fills it: it validates and explains statements of several shapes (joins,
 * aggregates, nested fields, windows, sub-queries, functions) over tables of its own session, and a
 * registered source that takes nested filters ({@link WarmUpSource}), one at a time, each with a
 * constant of its own so that each is planned, until it has run its budget of statements; then it
 * ends. A statement of the user never waits for it: it runs a step only when
 *
 * <ul>
 *   <li>no statement runs or waits for a worker, and none began or ended in the last {@link
 *       #QUIET_MILLIS} milliseconds;
 *   <li>the rest of this process (the host's threads, DuckDB's) used less than a {@link
 *       #BUSY_CORES} of a core over the last {@link #WINDOW_MILLIS} milliseconds, leaving out this
 *       thread and the JIT's compilation;
 *   <li>other processes used less than {@link #BUSY_CORES} of a core over that window: a machine
 *       that builds or tests leaves it waiting.
 * </ul>
 *
 * A step takes a few milliseconds once the first are behind it. A process that exits stops it
 * ({@link #stop}); so does the host's setting ({@code CALCITE_BRIDGE_IDLE_WARM_UP=off}, {@link
 * #statementsFrom}). It never starts while phase times are recorded ({@code
 * -Dcalcitebridge.phase-times}): they are global, and its statements would count in them.
 */
public final class IdleWarmUp {
  /** The statements (validates and explains) it runs by default: 7–10 CPU-s, JIT included. */
  public static final int DEFAULT_STATEMENTS = 1_000;

  /** How long after the last statement of the process a step may run. */
  static final long QUIET_MILLIS = 200;

  /** The window over which the process's and the machine's CPU use is measured. */
  static final long WINDOW_MILLIS = 100;

  /** Above this many cores in use by others, the process or the machine is busy. */
  static final double BUSY_CORES = 0.3;

  private static final Object LOCK = new Object();
  private static @Nullable IdleWarmUp current;

  /** The shapes its statements take; {@code {n}} is a constant of each statement's own. */
  static final List<String> SHAPES =
      List.of(
          "SELECT s.id, r.manager, s.amount FROM sales s JOIN regions r ON s.region = r.region "
              + "WHERE s.buyer.age < 30 AND r.tier > -{n}",
          "SELECT id, person.name AS name FROM people WHERE person.age < 30 AND id < {n}",
          "SELECT p.id, p.person.name, s.amount FROM people p JOIN sales s ON p.id = s.id "
              + "WHERE p.person.age BETWEEN 18 AND 65 AND s.qty > -{n}",
          "SELECT region, COUNT(*) AS c, SUM(amount), AVG(qty) FROM sales WHERE id <> {n} "
              + "GROUP BY region HAVING COUNT(*) > 0 ORDER BY c DESC LIMIT 10",
          "SELECT id, UPPER(region), CAST(qty AS STRING) || '-' || buyer.city, "
              + "CASE WHEN amount > {n} THEN 'big' ELSE 'small' END AS size, "
              + "COALESCE(attrs['k'], 'none') FROM sales "
              + "WHERE sold > TIMESTAMP '2020-01-01 00:00:00' AND id > -{n}",
          "SELECT id, ROW_NUMBER() OVER (PARTITION BY region ORDER BY amount) AS rn, "
              + "SUM(qty) OVER (PARTITION BY region) AS q FROM sales WHERE id >= -{n}",
          "SELECT region FROM sales WHERE id IN (SELECT id FROM big WHERE qty > {n}) "
              + "UNION ALL SELECT region FROM regions WHERE tier = {n}",
          "SELECT s.id, r.manager FROM sales s LEFT JOIN regions r ON s.region = r.region "
              + "AND r.manager LIKE 'k%' WHERE s.id > -{n}",
          "SELECT EXTRACT(YEAR FROM sold), DATE_FORMAT(sold, 'yyyy-MM'), CARDINALITY(tags), "
              + "tags[1] FROM sales WHERE qty BETWEEN 0 AND {n} + 9");

  /** The tables its statements read, in a session of its own. */
  static final List<String> TABLES =
      List.of(
          "CREATE TABLE sales (id BIGINT, region STRING, amount DECIMAL(10, 2), qty INT, "
              + "sold TIMESTAMP(3), tags ARRAY<STRING>, attrs MAP<STRING, STRING>, "
              + "buyer ROW<name STRING, city STRING, age INT>) WITH ('connector' = 'memory')",
          "CREATE TABLE regions (region STRING, manager STRING, tier INT) "
              + "WITH ('connector' = 'memory')",
          "CREATE VIEW big AS SELECT * FROM sales WHERE amount > 10");

  /** Whether a step may run now; waits (a poll) otherwise. */
  interface Gate {
    boolean idle();
  }

  private final int statements;
  private final Gate gate;
  private final AtomicBoolean stopped = new AtomicBoolean();
  private final AtomicInteger ran = new AtomicInteger();
  private volatile String state = "waiting";

  IdleWarmUp(int statements, Gate gate) {
    this.statements = statements;
    this.gate = gate;
  }

  /**
   * Starts it, once per process, to run {@code statements} statements through the steps {@code
   * steps} makes on its thread; nothing when {@code statements} is not positive or phase times are
   * recorded. Whether it started. (A JVM that cannot measure CPU use, without {@code
   * java.management}, cannot tell idle from busy: its warm-up fails on its first step.)
   */
  static boolean start(Supplier<Steps> steps, int statements) {
    if (statements <= 0 || io.calcitebridge.plan.PhaseTimes.ON) {
      return false;
    }
    // The gate is made on the warm-up's thread: the JVM's management classes load there.
    IdleWarmUp warmUp = new IdleWarmUp(statements, new Lazy(IdleMachine::new));
    synchronized (LOCK) {
      if (current != null) {
        return false;
      }
      current = warmUp;
    }
    warmUp.startThread(() -> warmUp.run(steps));
    return true;
  }

  /** The name of the host's setting of it, an environment variable. */
  public static final String SETTING = "CALCITE_BRIDGE_IDLE_WARM_UP";

  /**
   * The statements the setting {@code value} asks for, as {@link BridgeSession#warmUp(String, int)}
   * takes them: unset, empty or {@code on}, -1 (the default); {@code off}, 0; a number, that many.
   *
   * @throws IllegalArgumentException for any other value
   */
  public static int statementsFrom(@Nullable String value) {
    String v = value == null ? "" : value.strip().toLowerCase(Locale.ROOT);
    if (v.isEmpty() || v.equals("on")) {
      return -1;
    }
    if (v.equals("off")) {
      return 0;
    }
    if (v.matches("[0-9]{1,9}")) { // as the Python side reads it: ASCII digits, no sign
      return Integer.parseInt(v);
    }
    throw new IllegalArgumentException(
        SETTING + " is '" + v + "'; it takes 'on', 'off' or a number of statements");
  }

  /** Stops it after the step at hand, if it runs. */
  static void stop() {
    IdleWarmUp warmUp;
    synchronized (LOCK) {
      warmUp = current;
    }
    if (warmUp != null) {
      warmUp.stopNow();
    }
  }

  /** Stops this one after the step at hand. */
  void stopNow() {
    stopped.set(true);
  }

  /**
   * What it does: {@code off} when it was not started, else its state ({@code waiting}, {@code
   * running}, {@code done}, {@code stopped} or {@code failed: ...}) and the statements run of its
   * budget, as {@code running 120/1000}.
   */
  static String status() {
    IdleWarmUp warmUp;
    synchronized (LOCK) {
      warmUp = current;
    }
    return warmUp == null ? "off" : warmUp.describe();
  }

  String describe() {
    return state + " " + ran.get() + "/" + statements;
  }

  int ran() {
    return ran.get();
  }

  void startThread(Runnable body) {
    Thread thread = new Thread(null, body, "calcite-bridge-idle-warm-up", Workers.STACK_BYTES);
    thread.setDaemon(true);
    thread.setPriority(Thread.MIN_PRIORITY);
    thread.setContextClassLoader(IdleWarmUp.class.getClassLoader());
    thread.start();
  }

  /** The statements of the warm-up, in a session of their own; each stops when it is stopped. */
  interface Steps {
    /** Runs a statement that makes a table or a view. */
    void prepare(String ddl, AtomicBoolean stop);

    void validate(String sql, AtomicBoolean stop);

    /** Explains {@code sql}; its plan. */
    String explain(String sql, AtomicBoolean stop);
  }

  /**
   * Runs its statements through the steps {@code steps} makes, on this thread, once the process is
   * first idle: its session and tables would share the cores with a first statement.
   */
  void run(Supplier<Steps> steps) {
    Steps made;
    try {
      if (!awaitIdle()) {
        state = "stopped";
        return;
      }
      made = steps.get();
    } catch (InterruptedException e) {
      state = "stopped";
      return;
    } catch (RuntimeException | Error e) {
      state = "failed: " + e;
      return;
    }
    run(made);
  }

  /** Runs its statements through {@code steps}, each when the gate says idle. */
  void run(Steps steps) {
    try {
      for (String ddl : TABLES) {
        steps.prepare(ddl, stopped);
      }
      while (ran.get() < statements) {
        if (!awaitIdle()) {
          state = "stopped";
          return;
        }
        state = "running";
        int i = ran.get();
        String sql = SHAPES.get((i / 2) % SHAPES.size()).replace("{n}", Integer.toString(i));
        try {
          if (i % 2 == 0) {
            steps.validate(sql, stopped);
          } else {
            steps.explain(sql, stopped);
          }
        } catch (RuntimeException e) {
          if (stopped.get()) {
            state = "stopped";
            return;
          }
          // A shape the session cannot plan (a function or backend missing) is still a step.
        }
        ran.incrementAndGet();
      }
      state = "done";
    } catch (InterruptedException e) {
      state = "stopped";
    } catch (RuntimeException | Error e) {
      state = "failed: " + e;
    }
  }

  /** Waits until the gate says idle; false when stopped first. */
  private boolean awaitIdle() throws InterruptedException {
    while (!stopped.get()) {
      if (gate.idle()) {
        return !stopped.get();
      }
      state = "waiting";
      Thread.sleep(WINDOW_MILLIS / 2);
    }
    return false;
  }

  /** Whether no statement runs, waits, or began or ended in the last {@link #QUIET_MILLIS}. */
  static boolean quiet() {
    return !Workers.busy() && Workers.quietNanos() >= TimeUnit.MILLISECONDS.toNanos(QUIET_MILLIS);
  }

  /**
   * A gate made on the asking thread once the process is first {@link #quiet}: not while the JVM
   * starts and its first statements run.
   */
  static final class Lazy implements Gate {
    private final Supplier<Gate> make;
    private @Nullable Gate made;

    Lazy(Supplier<Gate> make) {
      this.make = make;
    }

    @Override
    public boolean idle() {
      Gate g = made;
      if (g == null) {
        if (!quiet()) {
          return false;
        }
        g = make.get();
        made = g;
      }
      return g.idle();
    }
  }

  /**
   * Idle as the class comment says: no statement of the process for {@link #QUIET_MILLIS}, and
   * little CPU used by the rest of the process and by other processes over the last window.
   */
  static final class IdleMachine implements Gate {
    private final com.sun.management.OperatingSystemMXBean os;
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final @Nullable CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
    private final int cores = Runtime.getRuntime().availableProcessors();
    private final Window window;

    IdleMachine() {
      os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
      if (!threads.isCurrentThreadCpuTimeSupported()) {
        throw new UnsupportedOperationException("no thread CPU time");
      }
      window =
          new Window(
              System::nanoTime,
              os::getProcessCpuTime,
              threads::getCurrentThreadCpuTime,
              this::compilationNanos,
              this::othersCores);
    }

    private long compilationNanos() {
      return jit != null && jit.isCompilationTimeMonitoringSupported()
          ? TimeUnit.MILLISECONDS.toNanos(jit.getTotalCompilationTime())
          : 0;
    }

    /** The cores other processes used since the last call, or 0 when unknown. */
    private double othersCores() {
      double machine = os.getCpuLoad();
      double process = os.getProcessCpuLoad();
      if (machine < 0 || process < 0) {
        return 0;
      }
      return Math.max(0, machine - process) * cores;
    }

    @Override
    public boolean idle() {
      return quiet() && window.idle();
    }
  }

  /**
   * The CPU use of the rest of the process and of other processes, judged once per window: between
   * judgements the last one holds, so a step costs no measurement.
   */
  static final class Window {
    private final LongSupplier clock;
    private final LongSupplier processCpu;
    private final LongSupplier ownCpu;
    private final LongSupplier compilation;
    private final java.util.function.DoubleSupplier othersCores;
    private long since;
    private long processAt;
    private long ownAt;
    private long compilationAt;
    private boolean judged;
    private boolean idle;

    Window(
        LongSupplier clock,
        LongSupplier processCpu,
        LongSupplier ownCpu,
        LongSupplier compilation,
        java.util.function.DoubleSupplier othersCores) {
      this.clock = clock;
      this.processCpu = processCpu;
      this.ownCpu = ownCpu;
      this.compilation = compilation;
      this.othersCores = othersCores;
      restart(clock.getAsLong());
      othersCores.getAsDouble(); // the loads are measured from their first reading
    }

    private void restart(long now) {
      since = now;
      processAt = processCpu.getAsLong();
      ownAt = ownCpu.getAsLong();
      compilationAt = compilation.getAsLong();
    }

    /** Whether the last full window was idle; false until one has passed. */
    boolean idle() {
      long now = clock.getAsLong();
      long wall = now - since;
      if (wall < TimeUnit.MILLISECONDS.toNanos(WINDOW_MILLIS)) {
        return judged && idle;
      }
      long rest =
          (processCpu.getAsLong() - processAt)
              - (ownCpu.getAsLong() - ownAt)
              - (compilation.getAsLong() - compilationAt);
      double restCores = (double) rest / wall;
      idle = restCores < BUSY_CORES && othersCores.getAsDouble() < BUSY_CORES;
      judged = true;
      restart(now);
      return idle;
    }
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT, "IdleWarmUp[%s]", describe());
  }
}

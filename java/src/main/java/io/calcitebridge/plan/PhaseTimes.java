package io.calcitebridge.plan;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Where the time of a statement goes, phase by phase (parse, validate, conversion, each heuristic
 * pass, the translation, the rendering): a profiling aid, on only when the JVM runs with {@code
 * -Dcalcitebridge.phase-times=wall} (elapsed time) or {@code =cpu} (the thread's CPU time, which a
 * loaded machine inflates less). Off, {@link #start} and {@link #end} do nothing, and the JIT drops
 * them. A phase's name may hold a {@code /}: the part before it names the phase it is part of, and
 * the report indents it below that one.
 */
public final class PhaseTimes {
  private static final String MODE = System.getProperty("calcitebridge.phase-times", "");

  /** Whether phases are timed. */
  public static final boolean ON = MODE.equals("wall") || MODE.equals("cpu");

  private static final boolean CPU = MODE.equals("cpu");

  /**
   * The thread bean, looked up only when CPU time is measured: the class is loaded with the first
   * statement's parse, and {@code ManagementFactory}'s start (its platform beans) cost a new
   * process's first statement about 10 ms of CPU for a clock it did not read.
   */
  private static final class Cpu {
    static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
  }

  /** Each phase's times, in the order first met. */
  private static final Map<String, long[]> TIMES = new LinkedHashMap<>();

  private static final Map<String, Integer> COUNTS = new LinkedHashMap<>();

  private PhaseTimes() {}

  /** The time now, to give to {@link #end}; 0 when off. */
  public static long start() {
    if (!ON) {
      return 0L;
    }
    return CPU ? Cpu.THREADS.getCurrentThreadCpuTime() : System.nanoTime();
  }

  /** Adds the time since {@code started} (from {@link #start}) to {@code phase}. */
  public static void end(String phase, long started) {
    if (ON) {
      add(phase, start() - started);
    }
  }

  /** The elapsed-time clock now, in either mode, to give to {@link #endElapsed}; 0 when off. */
  public static long startElapsed() {
    return ON ? System.nanoTime() : 0L;
  }

  /**
   * Adds the elapsed time since {@code started} (from {@link #startElapsed}, on any thread) to
   * {@code phase}.
   */
  public static void endElapsed(String phase, long started) {
    if (ON) {
      add(phase, System.nanoTime() - started);
    }
  }

  /** When the last statement left its worker, on the elapsed-time clock; 0 when off. */
  private static volatile long workerEnded;

  /**
   * Notes that a statement leaves its worker now: the host reads it ({@link #workerEnded}) as it
   * sees the statement end, to measure the hand-back (the JVM's elapsed-time clock is the host's
   * monotonic clock on Linux).
   */
  public static void leaveWorker() {
    if (ON) {
      workerEnded = System.nanoTime();
    }
  }

  /** When the last statement left its worker ({@link #leaveWorker}); 0 when off. */
  public static long workerEnded() {
    return workerEnded;
  }

  private static void add(String phase, long took) {
    synchronized (TIMES) {
      long[] times = TIMES.get(phase);
      int n = COUNTS.getOrDefault(phase, 0);
      if (times == null || n == times.length) {
        times = times == null ? new long[64] : Arrays.copyOf(times, n * 2);
        TIMES.put(phase, times);
      }
      times[n] = took;
      COUNTS.put(phase, n + 1);
    }
  }

  /** Forgets every time so far. */
  public static void reset() {
    synchronized (TIMES) {
      TIMES.clear();
      COUNTS.clear();
    }
  }

  /**
   * One line a phase, in the order they were first met: the median and the mean of its times in
   * microseconds, and how many times it ran a statement (of {@code statements}).
   */
  public static String report(int statements) {
    StringBuilder out =
        new StringBuilder(
            String.format(
                Locale.ROOT, "%s times, microseconds: median  mean  (runs a statement)%n", MODE));
    synchronized (TIMES) {
      for (Map.Entry<String, long[]> e : TIMES.entrySet()) {
        String phase = e.getKey();
        int n = COUNTS.get(phase);
        long[] times = Arrays.copyOf(e.getValue(), n);
        Arrays.sort(times);
        double mean = Arrays.stream(times).sum() / 1e3 / n;
        int depth = (int) phase.chars().filter(c -> c == '/').count();
        out.append(
            String.format(
                Locale.ROOT,
                "%8.1f %8.1f  %s%s  (x%.2f)%n",
                times[n / 2] / 1e3,
                mean,
                "  ".repeat(depth),
                phase.substring(phase.lastIndexOf('/') + 1),
                n / (double) statements));
      }
    }
    return out.toString();
  }
}

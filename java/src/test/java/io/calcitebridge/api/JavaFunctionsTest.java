package io.calcitebridge.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Java functions through the Java API: {@code createFunction} of a class or an instance. */
class JavaFunctionsTest {
  private BridgeEnvironment env;

  /** Flink's shape: public eval overloads, boxed types for NULL. */
  public static class Plus {
    public Long eval(Long x) {
      return x == null ? null : x + 1;
    }

    public String eval(String s) {
      return s == null ? null : s + "+";
    }

    public Long eval(Long x, Long y) {
      return x == null || y == null ? null : x + y;
    }
  }

  /** Static methods need no instance; a primitive parameter makes a NULL argument NULL. */
  public static class Statics {
    public static double eval(double x) {
      return x * 2;
    }
  }

  /** Other types: DECIMAL, DATE, BOOLEAN. */
  public static class Types {
    public BigDecimal eval(BigDecimal d, LocalDate day, Boolean flag) {
      if (d == null || day == null || flag == null) {
        return null;
      }
      return flag ? d.add(BigDecimal.valueOf(day.getDayOfMonth())) : d;
    }
  }

  /** Throws from eval. */
  public static class Boom {
    public Integer eval(Integer x) {
      if (x != null && x > 100) {
        throw new IllegalArgumentException("too big: " + x);
      }
      return x;
    }
  }

  /** No eval. */
  public static class NoEval {
    public Integer apply(Integer x) {
      return x;
    }
  }

  /** An instance with state the caller keeps. */
  public static final class Counter {
    final AtomicInteger calls = new AtomicInteger();

    public Integer eval(Integer x) {
      calls.incrementAndGet();
      return x == null ? null : x * 10;
    }
  }

  /** A table function: eval returns rows, records of the columns. */
  public static class Split {
    /** A row. */
    public record Word(String word, Integer length) {}

    public List<Word> eval(String s) {
      List<Word> out = new java.util.ArrayList<>();
      if (s != null) {
        for (String w : s.split(" ")) {
          out.add(new Word(w, w.length()));
        }
      }
      return out;
    }
  }

  /** A table function of one column: an array of values. */
  public static class Range {
    public static Integer[] eval(Integer n) {
      Integer[] out = new Integer[n == null ? 0 : n];
      for (int i = 0; i < out.length; i++) {
        out[i] = i;
      }
      return out;
    }
  }

  /** Flink's aggregate shape: a weighted average. */
  public static class WeightedAvg {
    public double[] createAccumulator() {
      return new double[2];
    }

    public void accumulate(double[] acc, Double value, Integer weight) {
      if (value != null && weight != null) {
        acc[0] += value * weight;
        acc[1] += weight;
      }
    }

    public Double getValue(double[] acc) {
      return acc[1] == 0 ? null : acc[0] / acc[1];
    }
  }

  @BeforeEach
  void setUp() {
    env = BridgeEnvironment.create();
    run("CREATE TABLE t (x BIGINT, s STRING) WITH ('connector' = 'memory')");
    run("INSERT INTO t VALUES (1, 'a'), (2, NULL), (NULL, 'c')");
  }

  @AfterEach
  void tearDown() {
    env.close();
  }

  private void run(String sql) {
    Users.rows(env.execute(sql));
  }

  private List<String> rows(String sql) {
    return Users.rows(env.sql(sql));
  }

  @Test
  void aClassIsCalledByItsEvalOverloads() {
    env.createFunction("plus", Plus.class);
    assertEquals(
        List.of("[2, a+, 11]", "[3, null, 12]", "[null, c+, null]"),
        rows("SELECT plus(x), plus(s), plus(x, 10) FROM t ORDER BY x NULLS LAST"));
    assertEquals(List.of("[7]"), rows("SELECT PLUS(CAST(6 AS INT)) AS y"));
  }

  @Test
  void staticEvalMethodsAndPrimitiveParameters() {
    env.createFunction("twice", Statics.class);
    assertEquals(
        List.of("[2.0]", "[4.0]", "[null]"), rows("SELECT twice(x) FROM t ORDER BY x NULLS LAST"));
  }

  @Test
  void decimalsDatesAndBooleans() {
    env.createFunction("shift", Types.class);
    assertEquals(
        List.of("[1.500000000000000000, 6.500000000000000000]"),
        rows("SELECT shift(1.5, DATE '2024-03-01', FALSE), shift(1.5, DATE '2024-03-05', TRUE)"));
  }

  @Test
  void anInstanceIsCalledItself() {
    Counter counter = new Counter();
    env.createFunction("counted", counter);
    assertEquals(List.of("[10]", "[20]", "[null]"), rows("SELECT counted(CAST(x AS INT)) FROM t"));
    assertEquals(3, counter.calls.get());
  }

  @Test
  void anExceptionInEvalIsAnExecutionErrorNamingTheFunction() {
    env.createFunction("boom", Boom.class);
    BridgeException e =
        assertThrows(
            BridgeException.class,
            () -> {
              try (ArrowReader r = env.sql("SELECT boom(CAST(x AS INT) + 100) FROM t")) {
                while (r.loadNextBatch()) {
                  r.getVectorSchemaRoot();
                }
              }
            });
    assertEquals("EXECUTION", e.kind());
    assertTrue(
        e.getMessage()
            .contains("The function boom failed: java.lang.IllegalArgumentException: too big: 101"),
        e.getMessage());
    assertEquals(List.of("[5]"), rows("SELECT boom(5) AS y"));
  }

  @Test
  void noMatchingOverloadIsAValidationErrorListingTheSignatures() {
    env.createFunction("plus", Plus.class);
    BridgeException e = assertThrows(BridgeException.class, () -> rows("SELECT plus(TRUE) FROM t"));
    assertEquals("VALIDATION", e.kind());
    assertTrue(e.getMessage().contains("plus(<BIGINT>)"), e.getMessage());
    assertTrue(e.getMessage().contains("plus(<STRING>)"), e.getMessage());
    assertEquals(8, e.column());
  }

  @Test
  void aClassWithoutEvalIsRefused() {
    BridgeException e =
        assertThrows(BridgeException.class, () -> env.createFunction("f", NoEval.class));
    assertEquals("CONFIG", e.kind());
    assertTrue(e.getMessage().contains("has no public eval method"), e.getMessage());
  }

  @Test
  void aTakenNameIsACatalogErrorAndDropFreesIt() {
    env.createFunction("plus", Plus.class);
    assertEquals(
        "CATALOG",
        assertThrows(BridgeException.class, () -> env.createFunction("PLUS", Statics.class))
            .kind());
    assertTrue(env.dropFunction("plus"));
    assertFalse(env.dropFunction("plus"));
    assertEquals(
        "VALIDATION", assertThrows(BridgeException.class, () -> rows("SELECT plus(1)")).kind());
    env.createFunction("plus", Statics.class);
    assertEquals(List.of("[2.0]"), rows("SELECT plus(1) AS y"));
  }

  @Test
  void tableFunctionsReturnRows() {
    env.createFunction("words", Split.class);
    env.createFunction("upto", Range.class);
    run("CREATE TABLE d (id INT, s STRING) WITH ('connector' = 'memory')");
    run("INSERT INTO d VALUES (1, 'a bb'), (2, CAST(NULL AS STRING))");
    assertEquals(
        List.of("[1, a, 1]", "[1, bb, 2]"),
        rows("SELECT id, w, n FROM d, LATERAL TABLE(words(s)) AS x(w, n) ORDER BY id, w"));
    assertEquals(
        List.of("[1, a]", "[1, bb]", "[2, null]"),
        rows(
            "SELECT id, w FROM d LEFT JOIN LATERAL TABLE(words(s)) AS x(w, n) ON TRUE"
                + " ORDER BY id, w"));
    assertEquals(List.of("[0]", "[1]", "[2]"), rows("SELECT * FROM TABLE(upto(3))"));
  }

  @Test
  void aggregateFunctionsRunTheAccumulator() {
    env.createFunction("wavg", WeightedAvg.class);
    run("CREATE TABLE v (g STRING, x DOUBLE, w INT) WITH ('connector' = 'memory')");
    run(
        "INSERT INTO v VALUES ('a', 1.0, 1), ('a', 4.0, 2), ('b', 5.0, CAST(NULL AS INT)),"
            + " ('b', CAST(NULL AS DOUBLE), 3)");
    assertEquals(
        List.of("[a, 3.0]", "[b, null]"),
        rows("SELECT g, wavg(x, w) FROM v GROUP BY g ORDER BY g"));
    assertEquals(List.of("[4.0]"), rows("SELECT wavg(x, w) FILTER (WHERE x > 1) AS y FROM v"));
  }

  @Test
  void theDdlLoadsAClassOfTheClassPath() {
    run("CREATE TEMPORARY SYSTEM FUNCTION plus AS '" + Plus.class.getName() + "'");
    assertEquals(List.of("[3]"), rows("SELECT plus(CAST(2 AS BIGINT)) AS y"));
    List<String> described = Users.rows(env.execute("DESCRIBE FUNCTION EXTENDED plus"));
    assertTrue(described.contains("[function language, JAVA]"), described.toString());
    run("DROP TEMPORARY SYSTEM FUNCTION plus");
    assertEquals(List.of(), Users.rows(env.execute("SHOW USER FUNCTIONS")));
  }
}

package io.calcitebridge.flink;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.calcitebridge.plan.PlanningSession;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.junit.jupiter.api.Test;

/** {@link Constants}: constants computed while planning, and those left for the engine. */
class ConstantsTest {
  private final RexBuilder rex = new RexBuilder(new JavaTypeFactoryImpl());

  private RexNode plus(long a, long b) {
    return rex.makeCall(
        SqlStdOperatorTable.PLUS,
        rex.makeExactLiteral(BigDecimal.valueOf(a)),
        rex.makeExactLiteral(BigDecimal.valueOf(b)));
  }

  @Test
  void aFailingConstantStaysAndTheOthersOfItsBatchAreComputed() {
    List<RexNode> out = new ArrayList<>();
    RexNode overflow = plus(Integer.MAX_VALUE, 1);
    Constants.EXECUTOR.reduce(rex, List.of(plus(1, 2), overflow, plus(3, 4)), out);
    assertEquals(3, out.size());
    assertEquals(BigDecimal.valueOf(3), ((RexLiteral) out.get(0)).getValueAs(BigDecimal.class));
    assertEquals(overflow, out.get(1));
    assertEquals(BigDecimal.valueOf(7), ((RexLiteral) out.get(2)).getValueAs(BigDecimal.class));
  }

  @Test
  void aFilterWithAConstantReachesTheSourceAsALiteral() {
    PlanningSession session = new PlanningSession();
    session.exec("CREATE TABLE ev (id INT, ts TIMESTAMP(3))");
    session.exec(
        "INSERT INTO ev VALUES (1, TIMESTAMP '2024-01-01 10:00:00'),"
            + " (2, TIMESTAMP '2024-01-03 10:00:00'), (3, CAST(NULL AS TIMESTAMP(3)))");
    String sql = "SELECT id FROM ev WHERE ts > TIMESTAMP '2024-01-03 00:00:00' - INTERVAL '1' DAY";
    String plan = session.plan(sql);
    // The session's tables take no filters: the computed literal stays in the condition.
    assertTrue(plan.contains("[2024-01-02 00:00:00:TIMESTAMP(3)]"), plan);
    assertFalse(plan.contains("INTERVAL"), plan);
    assertArrayEquals(new Object[] {2}, session.exec(sql).get(0));
    assertEquals(1, session.exec(sql).size());
  }

  @Test
  void anOverflowIsRaisedWhenARowReachesIt() {
    PlanningSession session = new PlanningSession();
    session.exec("CREATE TABLE n (id INT)");
    session.exec("INSERT INTO n VALUES (1), (CAST(NULL AS INT))");
    String sql = "SELECT id FROM n WHERE id < 2147483647 + 1";
    assertTrue(session.plan(sql).contains("+($t1, $t2)"), session.plan(sql));
    Throwable e = assertThrows(Throwable.class, () -> session.exec(sql));
    while (e.getCause() != null) {
      e = e.getCause();
    }
    assertTrue(String.valueOf(e.getMessage()).contains("overflow"), e.toString());
  }

  @Test
  void aFilterThatIsAlwaysFalseReadsNothing() {
    PlanningSession session = new PlanningSession();
    session.exec("CREATE TABLE f (id INT)");
    String plan = session.plan("SELECT id FROM f WHERE 1 + 1 = 3");
    assertTrue(plan.contains("EnumerableValues(tuples=[[]])"), plan);
  }

  @Test
  void aFunctionOfTheClockIsNotFolded() {
    PlanningSession session = new PlanningSession();
    session.exec("CREATE TABLE c (id INT, ts TIMESTAMP_LTZ(3))");
    String plan = session.plan("SELECT id FROM c WHERE ts > NOW() - INTERVAL '1' DAY");
    assertTrue(plan.contains("NOW()"), plan);
  }
}

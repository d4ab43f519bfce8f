package io.calcitebridge.javasource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.calcitebridge.api.source.FilterPushDownResult;
import io.calcitebridge.errors.SourceException;
import io.calcitebridge.expr.Call;
import io.calcitebridge.expr.Expression;
import io.calcitebridge.expr.FieldReference;
import io.calcitebridge.expr.Literal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link FilterContract}: a Java source's filter answer as the indices the planner takes. */
class FilterContractTest {
  private static final Expression A = gt("a", 1);
  private static final Expression B = gt("b", 2);
  private static final Expression C = gt("c", 3);
  private static final List<Expression> OFFERED = List.of(A, B, C);

  private static Expression gt(String column, long value) {
    return new Call(
        ">",
        List.of(new FieldReference(column, "INT", 0, 0), new Literal(value, "INT NOT NULL")),
        "BOOLEAN");
  }

  @Test
  void answerBecomesIndices() {
    Map<String, List<Integer>> m =
        FilterContract.check("src", OFFERED, FilterPushDownResult.of(List.of(C, A), List.of(B, A)));
    assertEquals(List.of(0, 2), m.get("accepted"));
    assertEquals(List.of(0, 1), m.get("remaining"));
  }

  @Test
  void equalCopiesCount() {
    Map<String, List<Integer>> m =
        FilterContract.check(
            "src",
            OFFERED,
            FilterPushDownResult.of(List.of(gt("a", 1)), List.of(gt("b", 2), gt("c", 3))));
    assertEquals(List.of(0), m.get("accepted"));
    assertEquals(List.of(1, 2), m.get("remaining"));
    assertEquals(
        List.of(0, 1, 2),
        FilterContract.check("src", OFFERED, FilterPushDownResult.acceptingAll(OFFERED))
            .get("accepted"));
    assertEquals(
        List.of(0, 1, 2),
        FilterContract.check("src", OFFERED, FilterPushDownResult.acceptingNone(OFFERED))
            .get("remaining"));
  }

  @Test
  void lostFilterIsAContractViolation() {
    SourceException e =
        assertThrows(
            SourceException.class,
            () ->
                FilterContract.check(
                    "src", OFFERED, FilterPushDownResult.of(List.of(A), List.of(C))));
    assertTrue(e.isContractViolation());
    assertEquals(
        "Source 'src' lost the filter >(b, 2): every offered filter must come back in accepted,"
            + " remaining or both",
        e.getMessage());
  }

  @Test
  void unofferedFilterIsAContractViolation() {
    SourceException e =
        assertThrows(
            SourceException.class,
            () ->
                FilterContract.check(
                    "src",
                    OFFERED,
                    FilterPushDownResult.of(List.of(A, B, C, gt("d", 4)), List.of())));
    assertTrue(e.isContractViolation());
    assertEquals(
        "Source 'src' returned the filter >(d, 4) in accepted, but it was never offered",
        e.getMessage());
  }

  @Test
  void nullAnswerIsAContractViolation() {
    SourceException e =
        assertThrows(SourceException.class, () -> FilterContract.check("src", OFFERED, null));
    assertEquals("Source 'src' answered applyFilters() with null", e.getMessage());
  }
}

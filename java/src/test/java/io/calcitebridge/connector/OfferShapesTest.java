package io.calcitebridge.connector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.calcitebridge.catalog.FilterableStorage.Decision;
import io.calcitebridge.expr.Call;
import io.calcitebridge.expr.Expression;
import io.calcitebridge.expr.FieldReference;
import io.calcitebridge.expr.Literal;
import io.calcitebridge.expr.NestedFieldReference;
import java.util.List;
import org.junit.jupiter.api.Test;

class OfferShapesTest {
  private static final FieldReference ID = new FieldReference("id", "BIGINT", 0, 0);
  private static final FieldReference S = new FieldReference("s", "VARCHAR(2147483647)", 0, 1);

  private static List<Expression> range(Object lo, Object hi, String type) {
    return List.of(
        new Call(">=", List.of(ID, new Literal(lo, type)), "BOOLEAN"),
        new Call("<=", List.of(ID, new Literal(hi, type)), "BOOLEAN"));
  }

  @Test
  void anOfferOfAKeptShapeIsAnsweredWithNewValues() {
    OfferShapes shapes = new OfferShapes();
    assertNull(shapes.known(range(1L, 5L, "BIGINT")));
    shapes.keep(range(1L, 5L, "BIGINT"), new Decision(List.of(0, 1), List.of()));
    assertEquals(List.of(0, 1), shapes.known(range(700L, 710L, "BIGINT")).accepted());
    // another type of literal, or a NULL one, is another shape
    assertNull(shapes.known(range(700L, 710L, "INTEGER")));
    assertNull(shapes.known(range(null, 710L, "BIGINT")));
  }

  private static List<Expression> nested(List<String> names, List<Integer> at, Object value) {
    NestedFieldReference age = new NestedFieldReference(names, at, "INT", 0);
    return List.of(new Call("<", List.of(age, new Literal(value, "INT NOT NULL")), "BOOLEAN"));
  }

  @Test
  void anOfferOnAFieldOfARowColumnIsKeptPerShapeToo() {
    OfferShapes shapes = new OfferShapes();
    List<String> path = List.of("user", "age");
    shapes.keep(nested(path, List.of(1, 1), 30L), new Decision(List.of(0), List.of()));
    assertEquals(List.of(0), shapes.known(nested(path, List.of(1, 1), 25L)).accepted());
    // another field, or the same names at other positions, is another shape
    assertNull(shapes.known(nested(List.of("user", "id"), List.of(1, 1), 25L)));
    assertNull(shapes.known(nested(path, List.of(1, 0), 25L)));
    // a value that makes no INT scalar goes to the source
    assertNull(shapes.known(nested(path, List.of(1, 1), 1L << 40)));
  }

  @Test
  void aLiteralThatMayMakeNoArrowScalarGoesToTheSource() {
    OfferShapes shapes = new OfferShapes();
    shapes.keep(range(1L, 5L, "INTEGER"), new Decision(List.of(0, 1), List.of()));
    assertNull(shapes.known(range(1L, 1L << 40, "INTEGER")));
    List<Expression> like =
        List.of(new Call("LIKE", List.of(S, new Literal("a%", "CHAR(2)")), "BOOLEAN"));
    shapes.keep(like, new Decision(List.of(0), List.of()));
    assertNull(shapes.known(like));
  }

  @Test
  void theTypesWhoseValuesAreVouchedFor() {
    assertTrue(OfferShapes.makesScalar(new Literal("2024-01-31", "DATE")));
    assertFalse(OfferShapes.makesScalar(new Literal("0000-01-31", "DATE")));
    assertTrue(OfferShapes.makesScalar(new Literal("12.50", "DECIMAL(5, 2)")));
    assertFalse(OfferShapes.makesScalar(new Literal("1.125", "DECIMAL(5, 2)")));
    assertFalse(OfferShapes.makesScalar(new Literal("12345", "DECIMAL(5, 2)")));
    assertTrue(OfferShapes.makesScalar(new Literal("2024-01-31 10:00:00.123", "TIMESTAMP(3)")));
    assertFalse(OfferShapes.makesScalar(new Literal("2024-01-31 10:00:00", "TIMESTAMP(9)")));
    assertTrue(OfferShapes.makesScalar(new Literal("it's", "CHAR(4) NOT NULL")));
    assertFalse(OfferShapes.makesScalar(new Literal("\ud800", "CHAR(1)")));
    assertFalse(OfferShapes.makesScalar(new Literal(300L, "TINYINT")));
    assertFalse(OfferShapes.makesScalar(new Literal("10:00:00", "TIME(0)")));
  }
}

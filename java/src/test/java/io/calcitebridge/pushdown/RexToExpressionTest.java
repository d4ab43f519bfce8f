package io.calcitebridge.pushdown;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.calcitebridge.expr.Call;
import io.calcitebridge.expr.Expression;
import io.calcitebridge.expr.FieldReference;
import io.calcitebridge.expr.Literal;
import io.calcitebridge.expr.NestedFieldReference;
import io.calcitebridge.types.BridgeTypeFactory;
import java.math.BigDecimal;
import java.util.List;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.DateString;
import org.apache.calcite.util.TimestampString;
import org.junit.jupiter.api.Test;

/** {@link RexToExpression}: filter conjuncts over a scan's row type as source expressions. */
class RexToExpressionTest {
  private final RelDataTypeFactory tf = BridgeTypeFactory.INSTANCE;
  private final RexBuilder rex = new RexBuilder(tf);
  private final RelDataType intType = nullable(SqlTypeName.INTEGER);
  private final RelDataType stringType =
      tf.createTypeWithNullability(tf.createSqlType(SqlTypeName.VARCHAR, Integer.MAX_VALUE), true);
  private final RelDataType inner =
      tf.createTypeWithNullability(
          tf.builder().add("name", stringType).add("age", intType).build(), true);
  private final RelDataType outer =
      tf.createTypeWithNullability(
          tf.builder().add("inner", inner).add("odd.name", intType).build(), true);
  private final RelDataType scanType =
      tf.builder()
          .add("id", tf.createSqlType(SqlTypeName.INTEGER))
          .add("name", stringType)
          .add("u", inner)
          .add("deep", outer)
          .add("score", nullable(SqlTypeName.DOUBLE))
          .add("m", tf.createTypeWithNullability(tf.createMapType(stringType, intType), true))
          .add("d", nullable(SqlTypeName.DATE))
          .build();
  private final RexToExpression translator = new RexToExpression(scanType, rex);

  private RelDataType nullable(SqlTypeName name) {
    return tf.createTypeWithNullability(tf.createSqlType(name), true);
  }

  private RexNode ref(int i) {
    return rex.makeInputRef(scanType.getFieldList().get(i).getType(), i);
  }

  private RexNode call(org.apache.calcite.sql.SqlOperator op, RexNode... operands) {
    return rex.makeCall(op, operands);
  }

  private Expression translate(RexNode node) {
    return translator.translate(node);
  }

  @Test
  void columnReference() {
    Expression e = translate(ref(0));
    assertEquals(new FieldReference("id", "INT NOT NULL", 0, 0), e);
    assertEquals(new FieldReference("name", "STRING", 0, 1), translate(ref(1)));
  }

  @Test
  void nestedFieldReference() {
    RexNode age = rex.makeFieldAccess(ref(2), "age", true);
    assertEquals(
        new NestedFieldReference(List.of("u", "age"), List.of(2, 1), "INT", 0), translate(age));

    RexNode deep = rex.makeFieldAccess(rex.makeFieldAccess(ref(3), "inner", true), "name", true);
    Expression e = translate(deep);
    assertEquals(
        new NestedFieldReference(List.of("deep", "inner", "name"), List.of(3, 0, 0), "STRING", 0),
        e);
    assertEquals("deep.inner.name", e.toString());

    Expression odd = translate(rex.makeFieldAccess(ref(3), 1));
    assertEquals("deep.`odd.name`", odd.toString());

    Expression cmp =
        translate(call(SqlStdOperatorTable.GREATER_THAN, age, rex.makeLiteral(30, intType)));
    assertEquals(">(u.age, 30)", cmp.toString());
    assertEquals(true, Call.hasNested(cmp));
  }

  @Test
  void fieldOfAMapValueIsNotTranslated() {
    RexNode item = call(SqlStdOperatorTable.ITEM, ref(5), rex.makeLiteral("k"));
    assertNull(translate(call(SqlStdOperatorTable.EQUALS, item, rex.makeLiteral(1, intType))));
  }

  @Test
  void nullLiterals() {
    Expression n = translate(rex.makeNullLiteral(intType));
    assertEquals(new Literal(null, "INT"), n);
    assertEquals("NULL", n.toString());
    assertEquals(new Literal(null, "STRING"), translate(rex.makeNullLiteral(stringType)));
    Expression isNull = translate(call(SqlStdOperatorTable.IS_NULL, ref(1)));
    assertEquals("IS NULL(name)", isNull.toString());
    Expression eqNull =
        translate(
            call(
                SqlStdOperatorTable.EQUALS,
                ref(4),
                rex.makeNullLiteral(nullable(SqlTypeName.DOUBLE))));
    assertEquals("=(score, NULL)", eqNull.toString());
  }

  @Test
  void literalsInWireForm() {
    assertEquals(new Literal(true, "BOOLEAN NOT NULL"), translate(rex.makeLiteral(true)));
    assertEquals(5L, ((Literal) translate(rex.makeLiteral(5, intType))).value());
    assertEquals(
        "12.50", ((Literal) translate(rex.makeExactLiteral(new BigDecimal("12.50")))).value());
    assertEquals("'it''s'", translate(rex.makeLiteral("it's")).toString());
    Literal date = (Literal) translate(rex.makeDateLiteral(new DateString(2024, 1, 2)));
    assertEquals("2024-01-02", date.value());
    assertEquals("DATE '2024-01-02'", date.toString());
    Literal ts =
        (Literal) translate(rex.makeTimestampLiteral(new TimestampString(2024, 1, 2, 3, 4, 5), 0));
    assertEquals("2024-01-02 03:04:05", ts.value());
    Literal bytes = (Literal) translate(rex.makeBinaryLiteral(new ByteString(new byte[] {1, 2})));
    assertEquals("AQI=", bytes.value());
    assertEquals("X'0102'", bytes.toString());
  }

  @Test
  void exactNumberCastToDoubleIsFolded() {
    RexNode cast =
        rex.makeAbstractCast(
            nullable(SqlTypeName.DOUBLE), rex.makeExactLiteral(new BigDecimal("1.5")), false);
    Expression e = translate(call(SqlStdOperatorTable.LESS_THAN, ref(4), cast));
    assertEquals("<(score, 1.5)", e.toString());
    Call c = assertInstanceOf(Call.class, e);
    assertEquals(1.5, ((Literal) c.args().get(1)).value());
  }

  @Test
  void castOfAColumnStaysACast() {
    RexNode cast = rex.makeAbstractCast(stringType, ref(0), false);
    assertEquals("CAST(id, STRING)", translate(cast).toString());
  }

  @Test
  void disjunctionOfEqualitiesBecomesIn() {
    RexNode in =
        rex.makeIn(
            ref(0),
            List.of(
                rex.makeLiteral(1, intType),
                rex.makeLiteral(2, intType),
                rex.makeLiteral(3, intType)));
    assertEquals("IN(id, 1, 2, 3)", translate(in).toString());
    // two columns: stays an OR
    RexNode or =
        call(
            SqlStdOperatorTable.OR,
            call(SqlStdOperatorTable.EQUALS, ref(0), rex.makeLiteral(1, intType)),
            call(SqlStdOperatorTable.EQUALS, ref(1), rex.makeLiteral("a")));
    assertEquals("OR(=(id, 1), =(name, 'a'))", translate(or).toString());
  }

  @Test
  void operatorsAndFunctions() {
    RexNode lower = call(SqlStdOperatorTable.LOWER, ref(1));
    assertEquals(
        "LIKE(LOWER(name), 'a%')",
        translate(call(SqlStdOperatorTable.LIKE, lower, rex.makeLiteral("a%"))).toString());
    assertEquals(
        "NOT(IS NOT NULL(score))",
        translate(call(SqlStdOperatorTable.NOT, call(SqlStdOperatorTable.IS_NOT_NULL, ref(4))))
            .toString());
    assertEquals(
        "<>(+(id, 1), *(id, 2))",
        translate(
                call(
                    SqlStdOperatorTable.NOT_EQUALS,
                    call(SqlStdOperatorTable.PLUS, ref(0), rex.makeLiteral(1, intType)),
                    call(SqlStdOperatorTable.MULTIPLY, ref(0), rex.makeLiteral(2, intType))))
            .toString());
  }

  @Test
  void unknownFunctionsAreNotTranslated() {
    RexNode abs = call(SqlStdOperatorTable.ABS, ref(0));
    assertNull(translate(call(SqlStdOperatorTable.GREATER_THAN, abs, rex.makeLiteral(1, intType))));
    // SIMILAR TO is a LIKE kind, but not LIKE
    assertNull(translate(call(SqlStdOperatorTable.SIMILAR_TO, ref(1), rex.makeLiteral("a%"))));
  }

  @Test
  void jsonRoundTrip() {
    RexNode age = rex.makeFieldAccess(ref(2), "age", true);
    Expression e =
        translate(
            call(
                SqlStdOperatorTable.AND,
                call(SqlStdOperatorTable.GREATER_THAN, age, rex.makeLiteral(30, intType)),
                call(SqlStdOperatorTable.IS_NULL, ref(1))));
    assertEquals(e, Expression.fromJson(e.toJson()));
  }
}

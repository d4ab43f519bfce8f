package io.calcitebridge.repair;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.calcitebridge.plan.PlanningSession;
import java.math.BigDecimal;
import java.util.List;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.Test;

/** {@link CasePredicates}: predicates pushed into a CASE keep their nullability. */
class CasePredicatesTest {
  @Test
  void aComparisonPushedIntoANullableBranchIsNullable() {
    JavaTypeFactoryImpl types = new JavaTypeFactoryImpl();
    RexBuilder rex = new RexBuilder(types);
    RelDataType nullableDouble =
        types.createTypeWithNullability(types.createSqlType(SqlTypeName.DOUBLE), true);
    RexNode x = rex.makeInputRef(nullableDouble, 0);
    RexNode p =
        rex.makeCall(
            SqlStdOperatorTable.PLUS,
            rex.makeApproxLiteral(BigDecimal.ZERO),
            rex.makeExactLiteral(BigDecimal.valueOf(2)));
    // COALESCE(x, 1.5) as the conversion makes it: a CASE typed NOT NULL.
    RexNode coalesce =
        rex.makeCall(
            types.createSqlType(SqlTypeName.DOUBLE),
            SqlStdOperatorTable.CASE,
            List.of(
                rex.makeCall(SqlStdOperatorTable.IS_NOT_NULL, x),
                x,
                rex.makeApproxLiteral(new BigDecimal("1.5"))));
    RexNode equals = rex.makeCall(SqlStdOperatorTable.EQUALS, p, coalesce);
    assertTrue(!equals.getType().isNullable());

    RexCall caseCall = (RexCall) CasePredicates.push(rex, equals);
    assertEquals(SqlKind.CASE, caseCall.getKind());
    // CASE WHEN x IS NOT NULL THEN p = x ELSE p = 1.5 END: the first branch, and so the CASE, can
    // be NULL.
    assertArrayEquals(
        new boolean[] {true, false, true},
        new boolean[] {
          caseCall.getOperands().get(1).getType().isNullable(),
          caseCall.getOperands().get(2).getType().isNullable(),
          caseCall.getType().isNullable()
        });
    // IS NOT TRUE over it, pushed into the branches too, stays NOT NULL.
    RexCall notTrue =
        (RexCall) CasePredicates.push(rex, rex.makeCall(SqlStdOperatorTable.IS_NOT_TRUE, equals));
    assertEquals(SqlKind.CASE, notTrue.getKind());
    assertTrue(!notTrue.getType().isNullable());
  }

  @Test
  void aDistinctFromANullifOfACoalesceKeepsTheNullRow() {
    PlanningSession session = new PlanningSession();
    session.exec("CREATE TABLE dd (x DOUBLE)");
    session.exec("INSERT INTO dd VALUES (1.5), (CAST(NULL AS DOUBLE))");
    List<Object[]> rows =
        session.exec(
            "SELECT COUNT(*) FROM dd WHERE x IS DISTINCT FROM"
                + " NULLIF(CAST(0.0 AS DOUBLE) + 2, COALESCE(x, CAST(1.5 AS DOUBLE)))");
    assertArrayEquals(new Object[] {2L}, rows.get(0));
  }
}

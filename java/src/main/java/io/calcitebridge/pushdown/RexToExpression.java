package io.calcitebridge.pushdown;

import io.calcitebridge.expr.Call;
import io.calcitebridge.expr.Expression;
import io.calcitebridge.expr.FieldReference;
import io.calcitebridge.expr.Literal;
import io.calcitebridge.expr.NestedFieldReference;
import io.calcitebridge.types.TypeNames;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.DateString;
import org.apache.calcite.util.TimeString;
import org.apache.calcite.util.TimestampString;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Translates a filter conjunct over a scan into an {@link Expression}, or null when it can't: a
 * chain of field accesses over a column becomes a {@link NestedFieldReference}; access into a MAP
 * value or an ARRAY element ({@code ITEM}) and unknown functions are not translated.
 */
public final class RexToExpression {
  private final RelDataType scanRowType;
  private final RexBuilder rexBuilder;

  public RexToExpression(RelDataType scanRowType, RexBuilder rexBuilder) {
    this.scanRowType = scanRowType;
    this.rexBuilder = rexBuilder;
  }

  /** The expression for {@code rex}, or null when some part of it has no translation. */
  public @Nullable Expression translate(RexNode rex) {
    RexNode node = RexUtil.expandSearch(rexBuilder, null, rex);
    return convert(node);
  }

  private @Nullable Expression convert(RexNode node) {
    if (node instanceof RexInputRef) {
      int i = ((RexInputRef) node).getIndex();
      return new FieldReference(scanRowType.getFieldNames().get(i), type(node.getType()), 0, i);
    }
    if (node instanceof RexFieldAccess) {
      return nested((RexFieldAccess) node);
    }
    if (node instanceof RexLiteral) {
      return literal((RexLiteral) node);
    }
    if (node instanceof RexCall) {
      return call((RexCall) node);
    }
    return null;
  }

  private @Nullable Expression nested(RexFieldAccess access) {
    List<String> names = new ArrayList<>();
    List<Integer> indices = new ArrayList<>();
    RexNode e = access;
    while (e instanceof RexFieldAccess) {
      RexFieldAccess fa = (RexFieldAccess) e;
      names.add(0, fa.getField().getName());
      indices.add(0, fa.getField().getIndex());
      e = fa.getReferenceExpr();
    }
    if (!(e instanceof RexInputRef)) {
      return null; // e.g. a field of a MAP value or ARRAY element: stays above the scan
    }
    int i = ((RexInputRef) e).getIndex();
    names.add(0, scanRowType.getFieldNames().get(i));
    indices.add(0, i);
    return new NestedFieldReference(names, indices, type(access.getType()), 0);
  }

  private @Nullable Expression call(RexCall call) {
    Expression folded = foldedCast(call);
    if (folded != null) {
      return folded;
    }
    String fn = function(call);
    if (fn == null) {
      return null;
    }
    List<Expression> args = new ArrayList<>();
    for (RexNode operand : call.getOperands()) {
      Expression a = convert(operand);
      if (a == null) {
        return null;
      }
      args.add(a);
    }
    if (fn.equals("OR")) {
      Expression in = asIn(args, type(call.getType()));
      if (in != null) {
        return in;
      }
    }
    return new Call(fn, args, type(call.getType()));
  }

  /**
   * An exact number cast to DOUBLE or FLOAT ({@code score < 1.5} compares a DOUBLE column with
   * {@code CAST(1.5:DECIMAL AS DOUBLE)}) as the DOUBLE literal the cast gives, or null.
   */
  private static @Nullable Expression foldedCast(RexCall call) {
    if (call.getKind() != SqlKind.CAST
        || !(call.getOperands().get(0) instanceof RexLiteral lit)
        || lit.isNull()
        || !SqlTypeName.EXACT_TYPES.contains(lit.getType().getSqlTypeName())) {
      return null;
    }
    SqlTypeName target = call.getType().getSqlTypeName();
    if (target != SqlTypeName.DOUBLE && target != SqlTypeName.FLOAT) {
      return null;
    }
    BigDecimal value = lit.getValueAs(BigDecimal.class);
    return value == null ? null : new Literal(value.doubleValue(), type(call.getType()));
  }

  /** {@code OR(=(x, 1), =(x, 2))} as {@code IN(x, 1, 2)}. */
  private static @Nullable Expression asIn(List<Expression> args, String type) {
    Expression target = null;
    List<Expression> out = new ArrayList<>();
    for (Expression a : args) {
      if (!(a instanceof Call c)
          || !c.function().equals("=")
          || !(c.args().get(1) instanceof Literal)) {
        return null;
      }
      if (target == null) {
        target = c.args().get(0);
        out.add(target);
      } else if (!target.equals(c.args().get(0))) {
        return null;
      }
      out.add(c.args().get(1));
    }
    return out.size() > 2 ? new Call("IN", out, type) : null;
  }

  /** The function of a comparison ({@code =}, {@code <>}, {@code <}, ...), or null for another. */
  public static @Nullable String comparison(RexCall call) {
    switch (call.getKind()) {
      case EQUALS:
        return "=";
      case NOT_EQUALS:
        return "<>";
      case LESS_THAN:
        return "<";
      case LESS_THAN_OR_EQUAL:
        return "<=";
      case GREATER_THAN:
        return ">";
      case GREATER_THAN_OR_EQUAL:
        return ">=";
      default:
        return null;
    }
  }

  private static @Nullable String function(RexCall call) {
    String comparison = comparison(call);
    if (comparison != null) {
      return comparison;
    }
    switch (call.getKind()) {
      case AND:
        return "AND";
      case OR:
        return "OR";
      case NOT:
        return "NOT";
      case IS_NULL:
        return "IS NULL";
      case IS_NOT_NULL:
        return "IS NOT NULL";
      case LIKE:
        return call.getOperator().getName().equals("LIKE") ? "LIKE" : null;
      case CAST:
        return "CAST";
      case PLUS:
        return "+";
      case MINUS:
        return "-";
      case TIMES:
        return "*";
      case DIVIDE:
        return "/";
      default:
        String name = call.getOperator().getName();
        return name.equals("UPPER") || name.equals("LOWER") ? name : null;
    }
  }

  /** The expression of the literal {@code lit}, as a conjunct's operand translates, or null. */
  public static @Nullable Expression literal(RexLiteral lit) {
    RelDataType t = lit.getType();
    String type = type(t);
    if (lit.isNull()) {
      return new Literal(null, type);
    }
    switch (t.getSqlTypeName()) {
      case BOOLEAN:
        return new Literal(lit.getValueAs(Boolean.class), type);
      case TINYINT:
      case SMALLINT:
      case INTEGER:
      case BIGINT:
        return new Literal(lit.getValueAs(Long.class), type);
      case DECIMAL:
        return new Literal(lit.getValueAs(BigDecimal.class).toPlainString(), type);
      case REAL:
      case FLOAT:
      case DOUBLE:
        return new Literal(lit.getValueAs(Double.class), type);
      case CHAR:
      case VARCHAR:
        return new Literal(lit.getValueAs(String.class), type);
      case BINARY:
      case VARBINARY:
        return new Literal(
            Base64.getEncoder().encodeToString(lit.getValueAs(ByteString.class).getBytes()), type);
      case DATE:
        return new Literal(lit.getValueAs(DateString.class).toString(), type);
      case TIME:
        return new Literal(lit.getValueAs(TimeString.class).toString(), type);
      case TIMESTAMP:
        {
          String text = lit.getValueAs(TimestampString.class).toString();
          // Sources read a timestamp to the microsecond (Python's datetime): a literal with
          // nanoseconds stays above the scan, where Calcite's engine compares all its digits.
          int dot = text.indexOf('.');
          if (dot >= 0 && text.length() - dot - 1 > 6 && !text.substring(dot + 7).matches("0*")) {
            return null;
          }
          return new Literal(text, type);
        }
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
        return new Literal(lit.getValueAs(TimestampString.class).toString() + "Z", type);
      default:
        return null;
    }
  }

  /** The name of {@code t} an expression carries. */
  public static String type(RelDataType t) {
    return TypeNames.render(t);
  }
}

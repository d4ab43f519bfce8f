package io.calcitebridge.api;

import io.calcitebridge.expr.Call;
import io.calcitebridge.expr.Expression;
import io.calcitebridge.expr.FieldReference;
import io.calcitebridge.expr.Literal;
import io.calcitebridge.expr.NestedFieldReference;
import java.math.BigDecimal;
import java.util.List;
import java.util.Set;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * What a test source evaluates itself: comparisons of a column or nested field with a literal,
 * {@code IS [NOT] NULL}, and {@code AND}/{@code OR}/{@code NOT} of those, in SQL's three-valued
 * logic (null stands for UNKNOWN).
 */
final class Filters {
  private static final Set<String> COMPARISONS = Set.of("=", "<>", "<", "<=", ">", ">=");

  private Filters() {}

  /** Whether {@link #test} can evaluate {@code e}. */
  static boolean supported(Expression e) {
    if (e instanceof Call c) {
      if (COMPARISONS.contains(c.function())) {
        return isRef(c.args().get(0)) && c.args().get(1) instanceof Literal;
      }
      if (c.function().equals("IS NULL") || c.function().equals("IS NOT NULL")) {
        return isRef(c.args().get(0));
      }
      if (List.of("AND", "OR", "NOT").contains(c.function())) {
        return c.args().stream().allMatch(Filters::supported);
      }
    }
    return false;
  }

  /**
   * Whether {@code row} (values in {@code schema}'s order) passes every filter; UNKNOWN does not
   * pass, as in WHERE. References resolve by name: their indices count the table's columns, which
   * need not be the source's.
   */
  static boolean passes(List<Expression> filters, Schema schema, Object[] row) {
    return filters.stream().allMatch(f -> Boolean.TRUE.equals(test(f, schema, row)));
  }

  /** TRUE, FALSE or null (UNKNOWN). */
  static Boolean test(Expression e, Schema schema, Object[] row) {
    Call c = (Call) e;
    switch (c.function()) {
      case "IS NULL":
        return value(c.args().get(0), schema, row) == null;
      case "IS NOT NULL":
        return value(c.args().get(0), schema, row) != null;
      case "NOT":
        Boolean b = test(c.args().get(0), schema, row);
        return b == null ? null : !b;
      case "AND":
        {
          boolean unknown = false;
          for (Expression a : c.args()) {
            Boolean v = test(a, schema, row);
            if (Boolean.FALSE.equals(v)) {
              return false;
            }
            unknown |= v == null;
          }
          return unknown ? null : true;
        }
      case "OR":
        {
          boolean unknown = false;
          for (Expression a : c.args()) {
            Boolean v = test(a, schema, row);
            if (Boolean.TRUE.equals(v)) {
              return true;
            }
            unknown |= v == null;
          }
          return unknown ? null : false;
        }
      default:
        Object left = value(c.args().get(0), schema, row);
        Object right = ((Literal) c.args().get(1)).value();
        if (left == null || right == null) {
          return null;
        }
        int cmp = compare(left, right);
        switch (c.function()) {
          case "=":
            return cmp == 0;
          case "<>":
            return cmp != 0;
          case "<":
            return cmp < 0;
          case "<=":
            return cmp <= 0;
          case ">":
            return cmp > 0;
          default:
            return cmp >= 0;
        }
    }
  }

  private static boolean isRef(Expression e) {
    return e instanceof FieldReference || e instanceof NestedFieldReference;
  }

  /** The value a reference reads in {@code row}; a field of a NULL ROW is NULL. */
  private static Object value(Expression ref, Schema schema, Object[] row) {
    List<String> path =
        ref instanceof FieldReference f
            ? List.of(f.name())
            : ((NestedFieldReference) ref).fieldNames();
    List<Field> fields = schema.getFields();
    Object v = row;
    for (String name : path) {
      if (v == null) {
        return null;
      }
      int at = fields.stream().map(Field::getName).toList().indexOf(name);
      v = ((Object[]) v)[at];
      fields = fields.get(at).getChildren();
    }
    return v;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static int compare(Object a, Object b) {
    if (a instanceof Number x && b instanceof Number y) {
      return new BigDecimal(x.toString()).compareTo(new BigDecimal(y.toString()));
    }
    return ((Comparable) a).compareTo(b);
  }
}

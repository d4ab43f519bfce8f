package io.calcitebridge.expr;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A call of a function or operator: {@code =}, {@code <>}, {@code <}, {@code <=}, {@code >}, {@code
 * >=}, {@code AND}, {@code OR}, {@code NOT}, {@code IS NULL}, {@code IS NOT NULL}, {@code IN},
 * {@code LIKE}, {@code UPPER}, {@code LOWER}, {@code CAST}, arithmetic.
 *
 * @param function the function name
 * @param args the arguments
 * @param dataType the result type
 */
public record Call(String function, List<Expression> args, String dataType) implements Expression {
  /** Creates a call; {@code args} is copied. */
  public Call {
    args = List.copyOf(args);
  }

  @Override
  public String toString() {
    if (function.equals("CAST") && args.size() == 1) {
      return "CAST(" + args.get(0) + ", " + dataType.replace(" NOT NULL", "") + ")";
    }
    return function
        + args.stream().map(String::valueOf).collect(Collectors.joining(", ", "(", ")"));
  }

  @Override
  public Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("kind", "call");
    m.put("function", function);
    List<Object> a = new ArrayList<>();
    for (Expression e : args) {
      a.add(e.toJson());
    }
    m.put("args", a);
    m.put("type", dataType);
    return m;
  }

  /**
   * Whether {@code e} holds a nested field reference anywhere.
   *
   * @param e an expression
   * @return true when {@code e} is, or has an argument that holds, a {@link NestedFieldReference}
   */
  public static boolean hasNested(Expression e) {
    if (e instanceof NestedFieldReference) {
      return true;
    }
    return e instanceof Call && ((Call) e).args.stream().anyMatch(Call::hasNested);
  }
}

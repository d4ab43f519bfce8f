package io.calcitebridge.sql;

import io.calcitebridge.errors.ErrorKind;
import io.calcitebridge.errors.PositionedException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.apache.calcite.sql.SqlBinaryOperator;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.util.SqlShuttle;

/**
 * Rebuilds long {@code OR} and {@code AND} chains as balanced trees right after parsing.
 *
 * <p>The parser makes {@code a OR b OR c ...} a left-deep tree as deep as the chain is long, and
 * validation takes time that grows with the square of that depth: a chain of 10^4 terms took over
 * 20 s to plan. A balanced tree of the same terms, in the same order, means the same (both
 * operators are associative, under three-valued logic too) and is log2(n) deep; conversion to
 * relational algebra flattens it again into one n-ary call.
 */
public final class LongChains extends SqlShuttle {
  /** Chains up to this long keep the parser's tree, so ordinary statements plan as before. */
  static final int MIN_TERMS = 64;

  /** Longer chains are refused: planning time grows with the square of their length. */
  static final int MAX_TERMS = 2000;

  private LongChains() {}

  /**
   * The terms of an OR chain with its comparisons of one expression to literals ({@code x = 1 OR x
   * = 2 ...}) gathered into one {@code x IN (1, 2, ...)}, which means the same, NULLs included, and
   * plans as one list however long. Each IN stands where its first comparison stood; literals of
   * different kinds (numbers, strings) stay apart, as the comparisons' implicit casts may differ.
   */
  private static List<SqlNode> equalitiesAsInLists(List<SqlNode> terms) {
    java.util.Map<String, List<SqlNode>> groups = new java.util.LinkedHashMap<>();
    java.util.Map<String, SqlNode> lhs = new java.util.HashMap<>();
    List<Object> order = new ArrayList<>();
    for (SqlNode term : terms) {
      SqlNode[] pair = comparisonWithLiteral(term);
      if (pair == null) {
        order.add(term);
        continue;
      }
      String key = pair[1].getClass().getSimpleName() + ":" + pair[0];
      SqlNode seen = lhs.get(key);
      if (seen != null && !seen.equalsDeep(pair[0], org.apache.calcite.util.Litmus.IGNORE)) {
        order.add(term);
        continue;
      }
      if (seen == null) {
        lhs.put(key, pair[0]);
        groups.put(key, new ArrayList<>());
        order.add(key);
      }
      groups.get(key).add(term);
    }
    List<SqlNode> out = new ArrayList<>(order.size());
    for (Object o : order) {
      if (o instanceof SqlNode) {
        out.add((SqlNode) o);
        continue;
      }
      List<SqlNode> group = groups.get((String) o);
      if (group.size() == 1) {
        out.add(group.get(0));
        continue;
      }
      org.apache.calcite.sql.SqlNodeList literals =
          new org.apache.calcite.sql.SqlNodeList(group.get(0).getParserPosition());
      for (SqlNode term : group) {
        literals.add(comparisonWithLiteral(term)[1]);
      }
      SqlNode left = lhs.get((String) o);
      out.add(
          org.apache.calcite.sql.fun.SqlStdOperatorTable.IN.createCall(
              group.get(0).getParserPosition(), left, literals));
    }
    return out;
  }

  /** For {@code e = literal} or {@code literal = e}, with a number or string literal: {e, lit}. */
  private static SqlNode @org.checkerframework.checker.nullness.qual.Nullable []
      comparisonWithLiteral(SqlNode term) {
    if (term.getKind() != SqlKind.EQUALS || !(term instanceof SqlCall)) {
      return null;
    }
    SqlNode a = ((SqlCall) term).operand(0);
    SqlNode b = ((SqlCall) term).operand(1);
    if (isListLiteral(b) && !(a instanceof org.apache.calcite.sql.SqlLiteral)) {
      return new SqlNode[] {a, b};
    }
    if (isListLiteral(a) && !(b instanceof org.apache.calcite.sql.SqlLiteral)) {
      return new SqlNode[] {b, a};
    }
    return null;
  }

  private static boolean isListLiteral(SqlNode n) {
    return n instanceof org.apache.calcite.sql.SqlNumericLiteral
        || n instanceof org.apache.calcite.sql.SqlCharStringLiteral;
  }

  /**
   * Statements nesting queries deeper than this are refused: planning time grows with the square of
   * the depth (10^4 nested derived tables took over 90 s).
   */
  static final int MAX_QUERY_DEPTH = 500;

  /** {@code node} with every long OR and AND chain balanced (changed in place where it can). */
  public static SqlNode balance(SqlNode node) {
    return balance(node, null);
  }

  /**
   * As {@link #balance(SqlNode)}, for {@code node} parsed from a text of {@code words} ({@link
   * TextChecks#check}): a text too short to hold a chain of more than {@link #MIN_TERMS} terms, a
   * type nested more than {@link #MAX_TYPE_DEPTH} levels or queries nested more than {@link
   * #MAX_QUERY_DEPTH} deep is returned as it is, without the two walks of its tree.
   */
  public static SqlNode balance(
      SqlNode node, TextChecks.@org.checkerframework.checker.nullness.qual.Nullable Words words) {
    if (words != null
        && words.andOr() < MIN_TERMS
        && 2 * words.types() <= MAX_TYPE_DEPTH
        && words.words() <= MAX_QUERY_DEPTH) {
      return node;
    }
    checkQueryDepth(node);
    SqlNode out = node.accept(new LongChains());
    return out == null ? node : out;
  }

  @Override
  public SqlNode visit(SqlCall call) {
    SqlKind kind = call.getKind();
    if ((kind == SqlKind.OR || kind == SqlKind.AND)
        && call.getOperator() instanceof SqlBinaryOperator) {
      List<SqlNode> terms = terms(call, kind);
      boolean rebuild = terms.size() > MIN_TERMS;
      if (kind == SqlKind.OR && rebuild) {
        terms = equalitiesAsInLists(terms);
      }
      if (terms.size() > MAX_TERMS) {
        throw new PositionedException(
            ErrorKind.UNSUPPORTED,
            "The "
                + kind
                + " chain has "
                + terms.size()
                + " terms, more than the "
                + MAX_TERMS
                + " that can be planned; write x IN (...) for comparisons with literals, or join"
                + " with a VALUES list",
            call.getParserPosition());
      }
      if (rebuild) {
        List<SqlNode> visited = new ArrayList<>(terms.size());
        for (SqlNode term : terms) {
          SqlNode v = term == null ? null : term.accept(this);
          visited.add(v == null ? term : v);
        }
        return build(call.getOperator(), visited, 0, visited.size());
      }
    }
    return super.visit(call);
  }

  /**
   * The operands of the chain of {@code kind} rooted at {@code call}, left to right, found without
   * recursion (the chain may be deeper than the stack).
   */
  private static List<SqlNode> terms(SqlCall call, SqlKind kind) {
    List<SqlNode> out = new ArrayList<>();
    Deque<SqlNode> todo = new ArrayDeque<>();
    todo.push(call);
    while (!todo.isEmpty()) {
      SqlNode n = todo.pop();
      if (n instanceof SqlCall
          && n.getKind() == kind
          && ((SqlCall) n).getOperator() instanceof SqlBinaryOperator) {
        List<SqlNode> operands = ((SqlCall) n).getOperandList();
        for (int i = operands.size() - 1; i >= 0; i--) {
          todo.push(operands.get(i));
        }
      } else {
        out.add(n);
      }
    }
    return out;
  }

  /**
   * Refuses a statement whose queries nest deeper than {@link #MAX_QUERY_DEPTH}, walking the tree
   * without recursion.
   */
  private static void checkQueryDepth(SqlNode root) {
    Deque<SqlNode> nodes = new ArrayDeque<>();
    Deque<Integer> depths = new ArrayDeque<>();
    nodes.push(root);
    depths.push(0);
    while (!nodes.isEmpty()) {
      SqlNode n = nodes.pop();
      int depth = depths.pop();
      if (n.isA(SqlKind.QUERY)) {
        depth++;
        if (depth > MAX_QUERY_DEPTH) {
          throw new PositionedException(
              ErrorKind.UNSUPPORTED,
              "The statement nests queries more than "
                  + MAX_QUERY_DEPTH
                  + " deep, deeper than can be planned; use a WITH clause or fewer levels",
              n.getParserPosition());
        }
      }
      if (n instanceof org.apache.calcite.sql.SqlDataTypeSpec spec) {
        checkTypeDepth(spec);
      }
      Iterable<? extends SqlNode> children =
          n instanceof org.apache.calcite.sql.SqlNodeList
              ? (org.apache.calcite.sql.SqlNodeList) n
              : n instanceof SqlCall ? ((SqlCall) n).getOperandList() : List.of();
      for (SqlNode c : children) {
        if (c != null) {
          nodes.push(c);
          depths.push(depth);
        }
      }
    }
  }

  /**
   * Types nesting ARRAY, MAP, MULTISET and ROW types deeper than this many Arrow levels (a MAP is
   * two: a list of key-value structs) are refused. The Arrow C data interface, by which results and
   * {@code memory} tables cross to Python, imports at most 64 levels, the row's struct and the
   * innermost value included: a column 63 ARRAYs deep failed there ("Recursion level in ArrowSchema
   * struct exceeded", an untyped error).
   */
  static final int MAX_TYPE_DEPTH = 62;

  /**
   * Refuses a type that nests deeper than {@link #MAX_TYPE_DEPTH}, before it is derived: besides
   * Arrow's limit, Calcite's type factory copies and compares a nested type at each level, in time
   * that grows with the square of the depth (a 5,000-deep ARRAY type in CREATE TABLE took over 60
   * s).
   */
  private static void checkTypeDepth(org.apache.calcite.sql.SqlDataTypeSpec root) {
    Deque<org.apache.calcite.sql.SqlDataTypeSpec> specs = new ArrayDeque<>();
    Deque<Integer> depths = new ArrayDeque<>();
    specs.push(root);
    depths.push(0);
    while (!specs.isEmpty()) {
      org.apache.calcite.sql.SqlDataTypeSpec spec = specs.pop();
      org.apache.calcite.sql.SqlTypeNameSpec name = spec.getTypeNameSpec();
      List<org.apache.calcite.sql.SqlDataTypeSpec> inner = innerTypes(name);
      int depth =
          depths.pop()
              + (inner.isEmpty()
                  ? 0
                  : name instanceof io.calcitebridge.sql.type.BridgeMapTypeNameSpec
                          || name instanceof org.apache.calcite.sql.SqlMapTypeNameSpec
                      ? 2
                      : 1);
      if (depth > MAX_TYPE_DEPTH) {
        throw new PositionedException(
            ErrorKind.UNSUPPORTED,
            "The type nests ARRAY, MAP, MULTISET or ROW types more than "
                + MAX_TYPE_DEPTH
                + " levels deep (a MAP counts as two), deeper than Arrow's data interface"
                + " carries; use fewer levels",
            root.getParserPosition());
      }
      for (org.apache.calcite.sql.SqlDataTypeSpec t : inner) {
        if (t != null) {
          specs.push(t);
          depths.push(depth);
        }
      }
    }
  }

  /** The types directly inside {@code name}: an ARRAY's element, a MAP's key and value, ... */
  private static List<org.apache.calcite.sql.SqlDataTypeSpec> innerTypes(
      org.apache.calcite.sql.SqlTypeNameSpec name) {
    if (name instanceof io.calcitebridge.sql.type.BridgeArrayTypeNameSpec array) {
      return List.of(array.elementType());
    }
    if (name instanceof io.calcitebridge.sql.type.BridgeMapTypeNameSpec map) {
      return java.util.Arrays.asList(map.keyType(), map.valueType());
    }
    if (name instanceof org.apache.calcite.sql.SqlRowTypeNameSpec row) {
      return row.getFieldTypes();
    }
    if (name instanceof org.apache.calcite.sql.SqlCollectionTypeNameSpec collection) {
      return List.of(
          new org.apache.calcite.sql.SqlDataTypeSpec(
              collection.getElementTypeName(), collection.getParserPos()));
    }
    if (name instanceof org.apache.calcite.sql.SqlMapTypeNameSpec map) {
      return java.util.Arrays.asList(map.getKeyType(), map.getValType());
    }
    return List.of();
  }

  private static SqlNode build(SqlOperator op, List<SqlNode> terms, int from, int to) {
    if (to - from == 1) {
      return terms.get(from);
    }
    int mid = (from + to) >>> 1;
    SqlNode left = build(op, terms, from, mid);
    SqlNode right = build(op, terms, mid, to);
    return op.createCall(left.getParserPosition().plus(right.getParserPosition()), left, right);
  }
}

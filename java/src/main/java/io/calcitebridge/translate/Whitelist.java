package io.calcitebridge.translate;

import io.calcitebridge.pushdown.BridgeTableScan;
import java.util.EnumSet;
import java.util.Set;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalIntersect;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalMinus;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.logical.LogicalSort;
import org.apache.calcite.rel.logical.LogicalUnion;
import org.apache.calcite.rel.logical.LogicalValues;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexFieldCollation;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexOver;
import org.apache.calcite.rex.RexVisitorImpl;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * What the DuckDB translation accepts: every relational operator, function and type on these lists
 * was checked to give the reference's answer in DuckDB (the differential tests run each one).
 * Anything else is a {@link Refusal} naming it.
 */
final class Whitelist {
  private Whitelist() {}

  /** Types a value may have anywhere in a translated plan. */
  static final Set<SqlTypeName> TYPES =
      EnumSet.of(
          SqlTypeName.BOOLEAN,
          SqlTypeName.TINYINT,
          SqlTypeName.SMALLINT,
          SqlTypeName.INTEGER,
          SqlTypeName.BIGINT,
          SqlTypeName.DECIMAL,
          SqlTypeName.REAL,
          SqlTypeName.FLOAT,
          SqlTypeName.DOUBLE,
          SqlTypeName.CHAR,
          SqlTypeName.VARCHAR,
          SqlTypeName.DATE,
          SqlTypeName.TIMESTAMP,
          // Times of day, as DuckDB's TIME (microseconds); {@link #time} limits what takes them.
          SqlTypeName.TIME,
          // Instants, as DuckDB's TIMESTAMPTZ; {@link #instant} limits what takes them.
          SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE,
          // Blobs of the dynamic-columns functions; {@link #binary} limits what else takes them.
          SqlTypeName.VARBINARY,
          SqlTypeName.ROW,
          SqlTypeName.ARRAY,
          // Read, passed on and subscripted only ({@link #maps}).
          SqlTypeName.MAP,
          SqlTypeName.NULL,
          SqlTypeName.SYMBOL);

  /** Scalar operators, by kind: their DuckDB spelling has the same semantics on our types. */
  static final Set<SqlKind> CALLS =
      EnumSet.of(
          SqlKind.EQUALS,
          SqlKind.NOT_EQUALS,
          SqlKind.LESS_THAN,
          SqlKind.LESS_THAN_OR_EQUAL,
          SqlKind.GREATER_THAN,
          SqlKind.GREATER_THAN_OR_EQUAL,
          SqlKind.IS_DISTINCT_FROM,
          SqlKind.IS_NOT_DISTINCT_FROM,
          SqlKind.AND,
          SqlKind.OR,
          SqlKind.NOT,
          SqlKind.IS_NULL,
          SqlKind.IS_NOT_NULL,
          SqlKind.IS_TRUE,
          SqlKind.IS_NOT_TRUE,
          SqlKind.IS_FALSE,
          SqlKind.IS_NOT_FALSE,
          SqlKind.PLUS,
          SqlKind.MINUS,
          SqlKind.TIMES,
          SqlKind.DIVIDE,
          SqlKind.MOD,
          SqlKind.MINUS_PREFIX,
          SqlKind.PLUS_PREFIX,
          SqlKind.CASE,
          SqlKind.COALESCE,
          SqlKind.SEARCH,
          SqlKind.IN,
          SqlKind.NOT_IN,
          SqlKind.LIKE,
          SqlKind.CAST,
          SqlKind.ITEM,
          SqlKind.ARRAY_VALUE_CONSTRUCTOR,
          SqlKind.CHAR_LENGTH,
          SqlKind.OTHER,
          SqlKind.OTHER_FUNCTION);

  /** Functions, by name, whose DuckDB function of the same name has the same semantics. */
  static final Set<String> FUNCTIONS =
      Set.of(
          "cb_upper",
          "cb_lower",
          "CHAR_LENGTH",
          "CHARACTER_LENGTH",
          "ABS",
          // NanComparisons
          "isnan",
          "||",
          "//",
          "MOD",
          // Flink's functions, as DuckDbRewrites names them (DuckDbOperators.FLINK).
          "starts_with",
          "ends_with",
          "concat_ws",
          "repeat",
          "md5",
          "sha1",
          "sha256");

  /**
   * Aggregate functions. {@code LITERAL_AGG} (a constant for each group, which the removal of an IN
   * sub-query adds) is written as its literal; {@code GROUPING} is DuckDB's, the same bits.
   */
  static final Set<SqlKind> AGGREGATES =
      EnumSet.of(
          SqlKind.COUNT,
          SqlKind.SUM,
          SqlKind.SUM0,
          SqlKind.MIN,
          SqlKind.MAX,
          SqlKind.LITERAL_AGG,
          SqlKind.GROUPING);

  /** Window functions. */
  static final Set<SqlKind> WINDOWS =
      EnumSet.of(
          SqlKind.ROW_NUMBER,
          SqlKind.RANK,
          SqlKind.DENSE_RANK,
          SqlKind.COUNT,
          SqlKind.SUM,
          SqlKind.SUM0,
          SqlKind.MIN,
          SqlKind.MAX,
          SqlKind.LAG,
          SqlKind.LEAD,
          SqlKind.FIRST_VALUE,
          SqlKind.LAST_VALUE);

  /** Throws a {@link Refusal} for the first construct of {@code plan} off the lists. */
  static void check(RelNode plan) {
    if (plan instanceof org.apache.calcite.rel.logical.LogicalCorrelate correlate
        && unnest(correlate) != null) {
      // CROSS JOIN UNNEST(t.arr) [WITH ORDINALITY]: DuckDB's UNNEST in the FROM clause, which
      // reads the row's array as Flink does (no row for a NULL or empty array, one for a NULL
      // element, ordinals from 1).
      checkType(correlate.getRowType(), "a column");
      checkNames(correlate.getRowType());
      check(correlate.getLeft());
      return;
    }
    if (plan instanceof org.apache.calcite.rel.core.Uncollect uncollect
        && constantArray(uncollect) != null) {
      // SELECT ... FROM UNNEST(ARRAY[...]) [WITH ORDINALITY]: DuckDB's UNNEST of the array.
      checkType(uncollect.getRowType(), "a column");
      checkNames(uncollect.getRowType());
      check(uncollect.getInput());
      return;
    }
    checkRel(plan);
    for (RelNode input : plan.getInputs()) {
      check(input);
    }
  }

  /**
   * The array {@code uncollect} reads when it is the UNNEST of one array computed from constants
   * ({@code FROM UNNEST(ARRAY[...])}: an Uncollect of a projection of the one row of a VALUES), of
   * scalar elements or of ROWs DuckDB names apart, else null.
   */
  static @org.checkerframework.checker.nullness.qual.Nullable RexNode constantArray(
      org.apache.calcite.rel.core.Uncollect uncollect) {
    if (!(notNull(uncollect.getInput(), null) instanceof LogicalProject project)
        || project.getProjects().size() != 1
        || !(notNull(project.getInput(), project.getProjects().get(0))
            instanceof LogicalValues values)
        || values.getTuples().size() != 1
        || !org.apache.calcite.plan.RelOptUtil.InputFinder.bits(project.getProjects().get(0))
            .isEmpty()) {
      return null;
    }
    RexNode array = project.getProjects().get(0);
    RelDataType element = array.getType().getComponentType();
    if (array.getType().getSqlTypeName() != SqlTypeName.ARRAY
        || element == null
        || holdsMap(element)
        || element.getComponentType() != null
        || element.isStruct() && !flatRow(element, uncollect.getRowType())) {
      return null;
    }
    return array;
  }

  /**
   * The input of {@code rel} when it is a filter {@code IS NOT NULL} of the array the UNNEST reads
   * (planning adds it; UNNEST of a NULL array gives no row in both), else {@code rel}.
   */
  private static RelNode notNull(
      RelNode rel, @org.checkerframework.checker.nullness.qual.Nullable RexNode array) {
    if (rel instanceof LogicalFilter filter
        && filter.getCondition().getKind() == SqlKind.IS_NOT_NULL
        && filter.getCondition() instanceof RexCall test) {
      RexNode tested = test.operands.get(0);
      boolean same =
          array == null
              ? tested instanceof org.apache.calcite.rex.RexInputRef ref && ref.getIndex() == 0
              : tested.equals(array);
      if (same) {
        return filter.getInput();
      }
    }
    return rel;
  }

  /**
   * The UNNEST of {@code correlate} when it is {@code CROSS JOIN UNNEST(t.arr) [WITH ORDINALITY]}
   * or {@code LEFT JOIN UNNEST(t.arr) ... ON TRUE} of one array column of scalar elements (the
   * plan's correlate over an Uncollect of the left row's field), else null.
   */
  static org.apache.calcite.rel.core.@org.checkerframework.checker.nullness.qual.Nullable Uncollect
      unnest(org.apache.calcite.rel.core.Correlate correlate) {
    return unnest(correlate, false);
  }

  /**
   * As {@link #unnest(org.apache.calcite.rel.core.Correlate)}, or when {@code rows} the UNNEST of
   * an array of ROWs of the left row's field (a table function's rows, {@code LATERAL TABLE(f(x))})
   * without ordinality, whose columns the correlate may project (a {@code LogicalProject} of some
   * of them above the Uncollect).
   */
  static org.apache.calcite.rel.core.@org.checkerframework.checker.nullness.qual.Nullable Uncollect
      unnest(org.apache.calcite.rel.core.Correlate correlate, boolean rows) {
    RelNode right = correlate.getRight();
    if (rows
        && right instanceof LogicalProject columns
        && columns.getInput() instanceof org.apache.calcite.rel.core.Uncollect
        && columns.getProjects().stream()
            .allMatch(x -> x instanceof org.apache.calcite.rex.RexInputRef)) {
      right = columns.getInput();
    } else if (right instanceof LogicalProject rename
        && rename.getInput() instanceof org.apache.calcite.rel.core.Uncollect
        && org.apache.calcite.rex.RexUtil.isIdentity(
            rename.getProjects(), rename.getInput().getRowType())) {
      right = rename.getInput(); // the columns renamed (AS u(e, o)): the correlate's names
    }
    if ((correlate.getJoinType() != JoinRelType.INNER
            && correlate.getJoinType() != JoinRelType.LEFT)
        || !(right instanceof org.apache.calcite.rel.core.Uncollect uncollect)
        || !(notNull(uncollect.getInput(), null) instanceof LogicalProject project)
        || project.getProjects().size() != 1
        || !(notNull(project.getInput(), project.getProjects().get(0))
            instanceof LogicalValues values)
        || values.getTuples().size() != 1
        || !(project.getProjects().get(0) instanceof RexFieldAccess field)
        || !(field.getReferenceExpr() instanceof org.apache.calcite.rex.RexCorrelVariable variable)
        || !variable.id.equals(correlate.getCorrelationId())) {
      return null;
    }
    RelDataType type = field.getType();
    RelDataType element = type.getComponentType();
    if (rows) {
      return type.getSqlTypeName() == SqlTypeName.ARRAY
              && element != null
              && element.isStruct()
              && !uncollect.withOrdinality
          ? uncollect
          : null;
    }
    if (type.getSqlTypeName() != SqlTypeName.ARRAY
        || element == null
        || holdsMap(element)
        || element.getComponentType() != null
        || element.isStruct() && !flatRow(element, correlate.getRight().getRowType())) {
      return null;
    }
    return uncollect;
  }

  /**
   * Whether the UNNEST of an array of {@code element} ROWs gives one column per field ({@code
   * right}: the fields, then perhaps the ordinal), fields DuckDB names apart (its names ignore
   * case).
   */
  private static boolean flatRow(RelDataType element, RelDataType right) {
    int n = element.getFieldCount();
    if (n == 0 || right.getFieldCount() < n || right.getFieldCount() > n + 1) {
      return false;
    }
    java.util.Set<String> seen = new java.util.HashSet<>();
    for (RelDataTypeField f : element.getFieldList()) {
      if (!seen.add(f.getName().toLowerCase(java.util.Locale.ROOT))) {
        return false;
      }
    }
    return true;
  }

  private static void checkRel(RelNode rel) {
    if (!(rel instanceof BridgeTableScan
        || rel instanceof LogicalProject
        || rel instanceof LogicalFilter
        || rel instanceof LogicalJoin
        || rel instanceof LogicalAggregate
        || rel instanceof LogicalSort
        || rel instanceof LogicalUnion
        || rel instanceof LogicalIntersect
        || rel instanceof LogicalMinus
        || rel instanceof LogicalValues)) {
      throw refuse(Refusal.operator(rel));
    }
    checkType(rel.getRowType(), "a column");
    checkNames(rel.getRowType());
    boolean setOp =
        rel instanceof LogicalUnion
            || rel instanceof LogicalIntersect
            || rel instanceof LogicalMinus;
    // Maps are not compared, grouped or sorted: only read, passed on and subscripted. A sort
    // carries them beside its keys, and UNION ALL compares no rows.
    if (rel instanceof LogicalSort sort) {
      for (RelFieldCollation key : sort.getCollation().getFieldCollations()) {
        if (holdsMap(rel.getRowType().getFieldList().get(key.getFieldIndex()).getType())) {
          throw refuse("a MAP grouped, sorted or compared");
        }
      }
    } else if (!(rel instanceof BridgeTableScan
        || rel instanceof LogicalProject
        || rel instanceof LogicalFilter
        || rel instanceof LogicalJoin
        || (rel instanceof LogicalUnion union && union.all))) {
      for (RelDataTypeField f : rel.getRowType().getFieldList()) {
        if (holdsMap(f.getType())) {
          throw refuse("a MAP grouped, sorted or compared");
        }
      }
    }
    // A CHAR column of VALUES holds literals of one length (Flink types literals of different
    // lengths VARCHAR), the same text in DuckDB; a set operation's CHAR column may pad.
    if (setOp) {
      for (RelDataTypeField f : rel.getRowType().getFieldList()) {
        // CHAR(n) pads with spaces in Calcite; DuckDB has no padded strings.
        if (f.getType().getSqlTypeName() == SqlTypeName.CHAR) {
          throw refuse("a CHAR column of " + Refusal.setOperation(rel));
        }
      }
    }
    if (rel instanceof LogicalJoin join) {
      JoinRelType type = join.getJoinType();
      if (type == JoinRelType.ASOF || type == JoinRelType.LEFT_ASOF) {
        throw refuse("an " + type + " join");
      }
    }
    if (rel instanceof LogicalSort sort) {
      for (RelFieldCollation c : sort.getCollation().getFieldCollations()) {
        binary(sort.getRowType().getFieldList().get(c.getFieldIndex()).getType(), "a sort key");
      }
    }
    if (rel instanceof LogicalAggregate agg) {
      for (AggregateCall call : agg.getAggCallList()) {
        if (call.getAggregation().getKind() != SqlKind.COUNT) {
          for (int arg : call.getArgList()) {
            binary(agg.getInput().getRowType().getFieldList().get(arg).getType(), "an aggregate");
          }
        }
        if (!AGGREGATES.contains(call.getAggregation().getKind())
            && call.getAggregation() != DuckDbAggregates.QUANTILE_CONT
            && call.getAggregation() != DuckDbAggregates.ANY_VALUE
            && call.getAggregation() != DuckDbAggregates.LAST
            && !DuckDbStatistics.isOurs(call.getAggregation())) {
          throw refuse(Refusal.aggregate(call.getAggregation()));
        }
        if (call.getAggregation().getKind() == SqlKind.COUNT && call.getArgList().size() > 1) {
          // DuckDB's count takes one argument.
          throw refuse("COUNT of more than one argument");
        }
        if (call.hasFilter() && call.getAggregation() != DuckDbAggregates.LAST
            || !call.collation.getFieldCollations().isEmpty()) {
          throw refuse("an aggregate with FILTER or WITHIN GROUP");
        }
      }
    }
    RexChecker checker = new RexChecker();
    rel.accept(
        new org.apache.calcite.rex.RexShuttle() {
          @Override
          public RexNode visitLiteral(RexLiteral literal) {
            literal.accept(checker);
            return literal;
          }

          @Override
          public RexNode visitCall(RexCall call) {
            call.accept(checker);
            return call;
          }

          @Override
          public RexNode visitOver(RexOver over) {
            over.accept(checker);
            return over;
          }

          @Override
          public RexNode visitFieldAccess(RexFieldAccess access) {
            access.accept(checker);
            return access;
          }
        });
  }

  private static void checkType(RelDataType type, String what) {
    SqlTypeName name = type.getSqlTypeName();
    if (!TYPES.contains(name)
        || name == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE && type.getPrecision() > 6) {
      // DuckDB's TIMESTAMPTZ keeps microseconds: it would cut a TIMESTAMP_LTZ(7..9).
      throw refuse(what + " of type " + io.calcitebridge.types.TypeNames.renderNullable(type));
    }
    if (type.isStruct()) {
      for (RelDataTypeField f : type.getFieldList()) {
        checkType(f.getType(), what);
      }
    } else if (type.getComponentType() != null) {
      checkType(type.getComponentType(), what);
    }
  }

  /** Whether a value of {@code type} is or holds a MAP. */
  static boolean holdsMap(RelDataType type) {
    if (type.getSqlTypeName() == SqlTypeName.MAP) {
      return true;
    }
    if (type.isStruct()) {
      return type.getFieldList().stream().anyMatch(f -> holdsMap(f.getType()));
    }
    return type.getComponentType() != null && holdsMap(type.getComponentType());
  }

  /**
   * Refuses a call that takes or gives a MAP but a subscript ({@code m['k']}, NULL for a missing
   * key in both), its CARDINALITY or a test for NULL.
   */
  private static void maps(RexCall call) {
    boolean takes = holdsMap(call.getType());
    for (RexNode operand : call.operands) {
      takes |= holdsMap(operand.getType());
    }
    SqlKind kind = call.getKind();
    boolean subscript =
        kind == SqlKind.ITEM
            && call.operands.get(0).getType().getSqlTypeName() == SqlTypeName.MAP
            && !holdsMap(call.getType());
    // CARDINALITY of a MAP: its entries (DuckDB's cardinality), NULL for a NULL map.
    boolean size =
        call.getOperator().getName().equals("CARDINALITY")
            && call.operands.size() == 1
            && call.operands.get(0).getType().getSqlTypeName() == SqlTypeName.MAP;
    if (takes && !subscript && !size && kind != SqlKind.IS_NULL && kind != SqlKind.IS_NOT_NULL) {
      throw refuse(Refusal.call(call) + " on a MAP");
    }
  }

  /**
   * Refuses a binary value where the translation does not take one: DuckDB's BLOB runs the
   * dynamic-columns functions, is read, written, grouped and tested for NULL; nothing else is
   * checked to give the reference's answer on it.
   */
  private static void binary(RelDataType type, String what) {
    if (type.getSqlTypeName() == SqlTypeName.VARBINARY
        || type.getSqlTypeName() == SqlTypeName.BINARY) {
      throw refuse(what + " of type " + type.getFullTypeString());
    }
  }

  /** The calls that may take or give a TIMESTAMP_LTZ: they compare or choose instants. */
  private static final Set<SqlKind> ON_INSTANTS = onInstants();

  private static Set<SqlKind> onInstants() {
    EnumSet<SqlKind> kinds = EnumSet.copyOf(SqlKind.COMPARISON);
    kinds.addAll(
        EnumSet.of(
            SqlKind.IS_DISTINCT_FROM,
            SqlKind.IS_NOT_DISTINCT_FROM,
            SqlKind.IS_NULL,
            SqlKind.IS_NOT_NULL,
            SqlKind.CASE,
            SqlKind.COALESCE,
            SqlKind.SEARCH));
    return kinds;
  }

  /**
   * Refuses a TIMESTAMP_LTZ where the translation does not take one. DuckDB computes with a
   * TIMESTAMPTZ in its own {@code TimeZone} setting (intervals of days, EXTRACT, casts, text),
   * Flink in {@code table.local-time-zone}: instants are read, written, compared, chosen between,
   * grouped, joined and sorted there, and nothing else.
   */
  private static void instant(RexCall call) {
    boolean takes = call.getType().getSqlTypeName() == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
    for (RexNode operand : call.operands) {
      takes |= operand.getType().getSqlTypeName() == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
    }
    boolean sameInstant =
        call.getKind() == SqlKind.CAST
            && call.getType().getSqlTypeName() == call.operands.get(0).getType().getSqlTypeName()
            && call.getType().getPrecision() >= call.operands.get(0).getType().getPrecision();
    if (takes && !ON_INSTANTS.contains(call.getKind()) && !sameInstant) {
      String written = Refusal.temporal(call);
      throw refuse(
          written != null ? written : Refusal.function(call.getOperator()) + " on a TIMESTAMP_LTZ");
    }
  }

  /**
   * Refuses a TIME where the translation does not take one: a time of day (a column, a literal,
   * {@code CURRENT_TIME}) is read, written, compared, chosen between, grouped, joined and sorted,
   * as DuckDB's TIME, and nothing else (casts, EXTRACT, arithmetic and text of it are not checked
   * against the reference).
   */
  private static void time(RexCall call) {
    boolean takes = call.getType().getSqlTypeName() == SqlTypeName.TIME;
    for (RexNode operand : call.operands) {
      takes |= operand.getType().getSqlTypeName() == SqlTypeName.TIME;
    }
    boolean sameTime =
        call.getKind() == SqlKind.CAST
            && call.getType().getSqlTypeName() == SqlTypeName.TIME
            && call.operands.get(0).getType().getSqlTypeName() == SqlTypeName.TIME
            && call.getType().getPrecision() >= call.operands.get(0).getType().getPrecision();
    if (takes && !ON_INSTANTS.contains(call.getKind()) && !sameTime) {
      if (call.getKind() == SqlKind.CAST || call.getOperator().getName().equals("CAST")) {
        // A cast, or Flink's text of a TIME(p) (TemporalFunctions#TIME_TO_STRING).
        throw refuse(
            "a cast of "
                + io.calcitebridge.types.TypeNames.renderNullable(call.operands.get(0).getType())
                + " to "
                + io.calcitebridge.types.TypeNames.renderNullable(call.getType()));
      }
      String written = Refusal.temporal(call);
      throw refuse(written != null ? written : Refusal.function(call.getOperator()) + " on a TIME");
    }
  }

  /**
   * {@code CAST('NaN' AS DOUBLE)} (or FLOAT): planning keeps a NaN as this cast ({@code
   * flink/Constants}), which DuckDB and Spark compute as the reference does.
   */
  static boolean nan(RexCall cast) {
    return SqlTypeFamily.APPROXIMATE_NUMERIC.contains(cast.getType())
        && cast.operands.get(0) instanceof RexLiteral literal
        && "NaN".equals(literal.getValueAs(String.class));
  }

  /** Checks every expression below a rel's expressions. */
  private static final class RexChecker extends RexVisitorImpl<Void> {
    RexChecker() {
      super(true);
    }

    @Override
    public Void visitLiteral(RexLiteral literal) {
      checkType(literal.getType(), "a literal");
      if (!literal.isNull()) {
        binary(literal.getType(), "a literal"); // DuckDB reads no X'..'
      }
      return null;
    }

    @Override
    public Void visitFieldAccess(RexFieldAccess access) {
      if (access.getReferenceExpr() instanceof RexCall) {
        // CALCITE-6344: the converter names a column "items[1]" for items[1].x.
        throw refuse("a field of an array element or a computed ROW");
      }
      return super.visitFieldAccess(access);
    }

    @Override
    public Void visitOver(RexOver over) {
      if (!WINDOWS.contains(over.getOperator().getKind())) {
        throw refuse("the window function " + over.getOperator().getName());
      }
      for (RexNode operand : over.operands) {
        binary(operand.getType(), "a window function's argument");
      }
      for (RexNode key : over.getWindow().partitionKeys) {
        binary(key.getType(), "a window's partition key");
      }
      org.apache.calcite.rex.RexWindow window = over.getWindow();
      for (RexFieldCollation key : window.orderKeys) {
        binary(key.left.getType(), "a window's sort key");
        if (key.left.getType().getSqlTypeName() == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE
            && !window.isRows()
            && !(bare(window.getLowerBound()) && bare(window.getUpperBound()))) {
          // DuckDB moves a TIMESTAMPTZ by an interval of days in its own time zone.
          throw refuse("a RANGE frame with an offset over a TIMESTAMP_LTZ");
        }
      }
      return super.visitCall(over);
    }

    private static boolean bare(org.apache.calcite.rex.RexWindowBound bound) {
      return bound.isUnbounded() || bound.isCurrentRow();
    }

    /**
     * DECIMAL arithmetic whose result keeps fewer decimals than its operands give (above 38 digits
     * the scale gives way, as in Flink): DuckDB keeps the operands' scale and caps the precision
     * instead, so the value does not fit the result type or overflows.
     */
    private void checkDecimalScale(RexCall call) {
      if (call.getType().getSqlTypeName() != SqlTypeName.DECIMAL || call.operands.size() != 2) {
        return;
      }
      int s1 = Math.max(call.operands.get(0).getType().getScale(), 0);
      int s2 = Math.max(call.operands.get(1).getType().getScale(), 0);
      int natural = call.getKind() == SqlKind.TIMES ? s1 + s2 : Math.max(s1, s2);
      if (call.getType().getScale() != natural) {
        throw refuse(
            "DECIMAL arithmetic whose result scale is reduced to fit 38 digits ("
                + call.getType()
                + ")");
      }
    }

    @Override
    public Void visitCall(RexCall call) {
      SqlKind kind = call.getKind();
      checkType(call.getType(), "an expression");
      if (call.getOperator() instanceof BackendUdf
          || call.getOperator() instanceof DuckDbTemplate) {
        return super.visitCall(call);
      }
      instant(call);
      time(call);
      maps(call);
      if (kind != SqlKind.IS_NULL && kind != SqlKind.IS_NOT_NULL) {
        binary(call.getType(), "an expression");
        for (RexNode operand : call.operands) {
          binary(operand.getType(), "an argument of " + call.getOperator().getName());
        }
      }
      if (io.calcitebridge.functions.NumberFunctions.isNumberText(call.getOperator())) {
        // Flink's text of a DOUBLE, FLOAT or DECIMAL (FlinkNumbers#cast), which DuckDB writes
        // otherwise.
        throw refuse(
            "a cast of " + call.operands.get(0).getType().getSqlTypeName() + " to a string");
      }
      if (io.calcitebridge.functions.NumberFunctions.isDecimalCast(call.getOperator())) {
        // Flink's cast of a string, DOUBLE or FLOAT to a DECIMAL (FlinkNumbers#toDecimal),
        // rounded half up from the number's shortest decimal text; DuckDB reads a DOUBLE's binary
        // value, or strings Java does not read as numbers.
        throw refuse(
            "a cast of "
                + call.operands.get(0).getType().getSqlTypeName()
                + " to "
                + io.calcitebridge.types.TypeNames.renderNullable(call.getType()));
      }
      if (!CALLS.contains(kind)) {
        throw refuse(Refusal.call(call));
      }
      if (kind == SqlKind.OTHER || kind == SqlKind.OTHER_FUNCTION) {
        if (!FUNCTIONS.contains(call.getOperator().getName())) {
          throw refuse(Refusal.function(call.getOperator()));
        }
      }
      switch (kind) {
        case DIVIDE:
          // Integer division became `//`; what is left divides DECIMALs or floating point.
          if (!SqlTypeFamily.APPROXIMATE_NUMERIC.contains(call.getType())) {
            throw refuse("a DECIMAL division");
          }
          break;
        case PLUS:
        case MINUS:
        case TIMES:
          checkDecimalScale(call);
          break;
        case CAST:
          checkCast(call);
          break;
        case ITEM:
          if (call.operands.get(0).getType().getSqlTypeName() != SqlTypeName.ARRAY
              && call.operands.get(0).getType().getSqlTypeName() != SqlTypeName.MAP) {
            throw refuse("a subscript of " + call.operands.get(0).getType().getSqlTypeName());
          }
          break;
        case CASE:
        case COALESCE:
          if (call.getType().getSqlTypeName() == SqlTypeName.CHAR) {
            throw refuse("a CHAR result of " + kind);
          }
          break;
        default:
          break;
      }
      return super.visitCall(call);
    }

    private static void checkCast(RexCall cast) {
      RelDataType to = cast.getType();
      RelDataType from = cast.operands.get(0).getType();
      if ((to.isStruct() || to.getComponentType() != null)
          && from.getSqlTypeName() != SqlTypeName.NULL) {
        // A cast of a ROW is written field by field (DuckDbRewrites); DuckDB casts the elements
        // of an ARRAY or MAP as it casts values, not as Flink does. A NULL of the type is read.
        throw refuse("a cast to " + io.calcitebridge.types.TypeNames.renderNullable(to));
      }
      if (DuckDbDialect.typeName(to) == null) {
        throw refuse("a cast to " + io.calcitebridge.types.TypeNames.renderNullable(to));
      }
      SqlTypeName f = from.getSqlTypeName();
      SqlTypeName t = to.getSqlTypeName();
      if (t == SqlTypeName.VARCHAR
          && !(SqlTypeFamily.INTEGER.contains(from)
              || f == SqlTypeName.CHAR
              || f == SqlTypeName.VARCHAR
              || f == SqlTypeName.DATE
              || f == SqlTypeName.NULL)) {
        // Calcite and DuckDB write floats, booleans, decimals and timestamps differently.
        throw refuse("a cast of " + f + " to a string");
      }
      if (t == SqlTypeName.TIMESTAMP
          && f == SqlTypeName.TIMESTAMP
          && from.getPrecision() > 3
          && to.getPrecision() < from.getPrecision()) {
        // Flink cuts the digits a TIMESTAMP(p) does not keep; DuckDB rounds them.
        throw refuse("a cast of " + from.getFullTypeString() + " to " + to.getFullTypeString());
      }
      if (t == SqlTypeName.DECIMAL
          && (f == SqlTypeName.DECIMAL && from.getScale() > to.getScale()
              || SqlTypeFamily.APPROXIMATE_NUMERIC.contains(from)
              || SqlTypeFamily.CHARACTER.contains(from))) {
        // Calcite truncates where DuckDB rounds.
        throw refuse("a cast of " + from.getFullTypeString() + " to " + to.getFullTypeString());
      }
      if (SqlTypeFamily.INTEGER.contains(to)
          && (f == SqlTypeName.DECIMAL || SqlTypeFamily.APPROXIMATE_NUMERIC.contains(from))) {
        // Calcite truncates toward zero where DuckDB rounds.
        throw refuse("a cast of " + f + " to " + t);
      }
      if (SqlTypeFamily.CHARACTER.contains(from)
          && t != SqlTypeName.VARCHAR
          && !SqlTypeFamily.INTEGER.contains(to)
          && !nan(cast)) {
        throw refuse("a cast of a string to " + t);
      }
    }
  }

  /**
   * Refuses columns whose names differ only in case: DuckDB matches names without regard to case,
   * even quoted ones, so it would read one of them for the other.
   */
  private static void checkNames(RelDataType type) {
    java.util.Set<String> seen = new java.util.HashSet<>();
    for (RelDataTypeField f : type.getFieldList()) {
      if (!seen.add(f.getName().toLowerCase(java.util.Locale.ROOT))) {
        throw refuse("columns whose names differ only in case (" + f.getName() + ")");
      }
    }
  }

  private static Refusal refuse(String construct) {
    return new Refusal(DuckDbTranslator.BACKEND, construct);
  }
}

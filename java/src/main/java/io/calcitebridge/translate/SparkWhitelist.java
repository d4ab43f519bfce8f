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
 * What the Spark translation accepts: every relational operator, function and type on these lists
 * gives the reference's answer in Spark SQL with ANSI mode on, after {@link SparkRewrites}
 * (tests/test_spark_backend.py checks them against the reference). Anything else is a {@link
 * Refusal} naming the construct as the user wrote it, never a class of the plan: UNNEST, SIMILAR
 * TO, ELEMENT, MAP values, binary values (except a blob, binary, passed to or returned by a
 * dynamic-columns UDF, {@link SparkDynCol}, or returned as it is).
 */
final class SparkWhitelist {
  private SparkWhitelist() {}

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
          SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE,
          SqlTypeName.ROW,
          SqlTypeName.ARRAY,
          SqlTypeName.NULL,
          SqlTypeName.SYMBOL);

  /** Scalar operators, by kind: their Spark spelling has the same semantics on our types. */
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
          SqlKind.CHAR_LENGTH,
          SqlKind.OTHER,
          SqlKind.OTHER_FUNCTION);

  /** Functions, by name, whose Spark function of the same name has the same semantics. */
  static final Set<String> FUNCTIONS =
      Set.of(
          "CHAR_LENGTH",
          "CHARACTER_LENGTH",
          "ABS",
          // NanComparisons
          "isnan",
          "||",
          "div",
          "MOD",
          "try_element_at",
          "cb_field",
          "cb_floor_ntz",
          "named_struct",
          "round",
          // DATE values of COLUMN_CREATE/COLUMN_ADD travel as their days (SparkDynCol).
          "UNIX_DATE",
          // Spark maps case as Java's String does, as the reference does.
          "UPPER",
          "LOWER");

  /**
   * Aggregate functions. {@code LITERAL_AGG} (a constant for each group, which the removal of an IN
   * sub-query adds) is written as its literal.
   */
  static final Set<SqlKind> AGGREGATES =
      EnumSet.of(
          SqlKind.COUNT, SqlKind.SUM, SqlKind.SUM0, SqlKind.MIN, SqlKind.MAX, SqlKind.LITERAL_AGG);

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
          SqlKind.MAX);

  /**
   * Whether {@code field}, an argument of {@code ARRAY_AGG}, is a ROW that is never NULL (a
   * constructor's, as an aggregate function's rewrite makes): Spark's {@code collect_list} drops
   * NULL elements, which ARRAY_AGG keeps.
   */
  private static boolean isRows(org.apache.calcite.rel.type.RelDataTypeField field) {
    return field.getType().getSqlTypeName() == SqlTypeName.ROW && !field.getType().isNullable();
  }

  /** Throws a {@link Refusal} for the first construct of {@code plan} off the lists. */
  static void check(RelNode plan) {
    if (hasUnnest(plan)) {
      // Named first: under a correlation the Correlate above it would be named instead.
      throw refuse("UNNEST");
    }
    walk(plan);
  }

  /**
   * Whether {@code rel} is the correlate of a table function's rows, {@code LATERAL TABLE(f(x))} or
   * {@code LEFT JOIN LATERAL TABLE(f(x)) ... ON TRUE}: the UNNEST of an array of ROWs of the left
   * row's field, which Spark writes as {@code LATERAL inline(...)} ({@code inline_outer} for the
   * left join).
   */
  static boolean isTableFunction(RelNode rel) {
    return rel instanceof org.apache.calcite.rel.logical.LogicalCorrelate c
        && Whitelist.unnest(c, true) != null;
  }

  private static boolean hasUnnest(RelNode rel) {
    if (isTableFunction(rel)) {
      return hasUnnest(rel.getInput(0));
    }
    if (rel instanceof org.apache.calcite.rel.core.Uncollect) {
      return true;
    }
    for (RelNode input : rel.getInputs()) {
      if (hasUnnest(input)) {
        return true;
      }
    }
    return false;
  }

  private static void walk(RelNode plan) {
    if (isTableFunction(plan)) {
      checkType(plan.getRowType(), "a column", true);
      walk(plan.getInput(0));
      return;
    }
    checkRel(plan);
    for (RelNode input : plan.getInputs()) {
      walk(input);
    }
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
    boolean setOp =
        rel instanceof LogicalUnion
            || rel instanceof LogicalIntersect
            || rel instanceof LogicalMinus
            || rel instanceof LogicalValues;
    // A binary column (a dynamic-columns blob) may pass between operators to the argument of a
    // dynamic-columns UDF, and be returned as it is; nothing compares, groups or sorts one.
    boolean passesBinary =
        rel instanceof BridgeTableScan
            || rel instanceof LogicalProject
            || rel instanceof LogicalFilter
            || rel instanceof LogicalJoin
            || rel instanceof LogicalSort;
    checkType(rel.getRowType(), "a column", passesBinary);
    if (setOp) {
      for (RelDataTypeField f : rel.getRowType().getFieldList()) {
        // CHAR(n) pads with spaces in Calcite; the values reach Spark as STRINGs.
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
        boolean rows =
            (call.getAggregation().getKind() == SqlKind.ARRAY_AGG
                    || call.getAggregation().getName().equals("ARRAY_AGG"))
                && call.getArgList().size() == 1
                && isRows(agg.getInput().getRowType().getFieldList().get(call.getArgList().get(0)));
        if (!rows && !AGGREGATES.contains(call.getAggregation().getKind())) {
          throw refuse(Refusal.aggregate(call.getAggregation()));
        }
        if (call.hasFilter() || !call.collation.getFieldCollations().isEmpty()) {
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
    checkType(type, what, false);
  }

  private static void checkType(RelDataType type, String what, boolean binaryColumns) {
    SqlTypeName name = type.getSqlTypeName();
    if (binaryColumns && type.isStruct()) {
      for (RelDataTypeField f : type.getFieldList()) {
        if (f.getType().getSqlTypeName() != SqlTypeName.VARBINARY) {
          checkType(f.getType(), what);
        }
      }
      return;
    }
    if (!TYPES.contains(name)) {
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

  /**
   * Refuses a binary value: no function on one is checked to give the reference's answer in Spark.
   */
  private static void binary(RelDataType type, String what) {
    if (type.getSqlTypeName() == SqlTypeName.VARBINARY
        || type.getSqlTypeName() == SqlTypeName.BINARY) {
      throw refuse(what + " of type " + io.calcitebridge.types.TypeNames.renderNullable(type));
    }
  }

  private static boolean isBinary(RelDataType type) {
    return type.getSqlTypeName() == SqlTypeName.VARBINARY
        || type.getSqlTypeName() == SqlTypeName.BINARY;
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
        binary(literal.getType(), "a literal");
      }
      return null;
    }

    @Override
    public Void visitFieldAccess(RexFieldAccess access) {
      if (access.getReferenceExpr() instanceof RexCall) {
        // SparkRewrites made every field of a computed ROW a cb_field call.
        throw refuse("a field of a computed ROW");
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
      for (RexFieldCollation key : over.getWindow().orderKeys) {
        binary(key.left.getType(), "a window's sort key");
      }
      return super.visitCall(over);
    }

    @Override
    public Void visitCall(RexCall call) {
      SqlKind kind = call.getKind();
      if (SparkDynCol.isUdf(call)) {
        // A blob, argument or result, is binary: the UDFs read and write it with the reference's
        // codec, and a binary literal (X'..') is the same bytes in Spark.
        if (!isBinary(call.getType())) {
          checkType(call.getType(), "an expression");
        }
        for (RexNode operand : call.operands) {
          if (!(operand instanceof RexLiteral && isBinary(operand.getType()))) {
            operand.accept(this);
          }
        }
        return null;
      }
      checkType(call.getType(), "an expression");
      if (kind != SqlKind.IS_NULL && kind != SqlKind.IS_NOT_NULL) {
        binary(call.getType(), "an expression");
        for (RexNode operand : call.operands) {
          binary(operand.getType(), "an argument of " + Refusal.call(call));
        }
      }
      if (io.calcitebridge.functions.NumberFunctions.isNumberText(call.getOperator())) {
        // Flink's text of a DOUBLE, FLOAT or DECIMAL (FlinkNumbers#cast), which Spark writes
        // otherwise.
        throw refuse(
            "a cast of " + Refusal.typeName(call.operands.get(0).getType()) + " to a string");
      }
      if (io.calcitebridge.functions.RowText.isRowIsNull(call.getOperator())) {
        // The text of a ROW that may be NULL: Calcite's engine takes a ROW of NULL fields for a
        // NULL row there, which Spark does not.
        throw refuse("a CAST of a ROW that may be NULL to STRING");
      }
      if (io.calcitebridge.functions.NumberFunctions.isDecimalCast(call.getOperator())) {
        // Flink's cast of a string, DOUBLE or FLOAT to a DECIMAL (FlinkNumbers#toDecimal),
        // rounded half up from the number's shortest decimal text; Spark reads a DOUBLE's binary
        // value, or strings Java does not read as numbers.
        throw refuse(
            "a cast of "
                + Refusal.typeName(call.operands.get(0).getType())
                + " to "
                + io.calcitebridge.types.TypeNames.renderNullable(call.getType()));
      }
      if (!CALLS.contains(kind)) {
        throw refuse(Refusal.function(call.getOperator()));
      }
      if (kind == SqlKind.OTHER || kind == SqlKind.OTHER_FUNCTION) {
        if (!FUNCTIONS.contains(call.getOperator().getName())) {
          throw refuse(Refusal.function(call.getOperator()));
        }
      }
      switch (kind) {
        case DIVIDE:
          // Integer division became `div`; what is left divides DECIMALs or floating point.
          if (!SqlTypeFamily.APPROXIMATE_NUMERIC.contains(call.getType())) {
            throw refuse("a DECIMAL division");
          }
          break;
        case CAST:
          checkCast(call);
          break;
        case ITEM:
          // SparkRewrites made a subscript of an ARRAY try_element_at.
          throw refuse("a subscript of a " + Refusal.typeName(call.operands.get(0).getType()));
        case LIKE:
          if (call.operands.size() != 2
              || !(call.operands.get(1) instanceof RexLiteral pattern)
              || String.valueOf(pattern.getValueAs(String.class)).contains("\\")) {
            // Spark's LIKE escapes with a backslash by default; Calcite's has no escape.
            throw refuse("a LIKE with an escape or a pattern that is not a literal");
          }
          break;
        case TIMES:
          if (call.getType().getSqlTypeName() == SqlTypeName.DECIMAL
              && call.operands.get(0).getType().getPrecision()
                      + call.operands.get(1).getType().getPrecision()
                  >= 38) {
            // Spark rounds a product past 38 digits; Calcite keeps its type's scale.
            throw refuse("a DECIMAL product of more than 38 digits");
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
      if (SparkDialect.typeName(to) == null) {
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
        // Calcite and Spark write floats, booleans, decimals and timestamps differently.
        throw refuse("a cast of " + Refusal.typeName(from) + " to a string");
      }
      if (t == SqlTypeName.VARCHAR
          && to.getPrecision() != RelDataType.PRECISION_NOT_SPECIFIED
          && to.getPrecision() < Integer.MAX_VALUE
          && !(SqlTypeFamily.CHARACTER.contains(from)
              && from.getPrecision() != RelDataType.PRECISION_NOT_SPECIFIED
              && from.getPrecision() <= to.getPrecision())) {
        // Flink keeps the first n characters; Spark's STRING has no length and keeps them all.
        throw refuse("a cast to " + io.calcitebridge.types.TypeNames.renderNullable(to));
      }
      if (t == SqlTypeName.DECIMAL
          && (SqlTypeFamily.APPROXIMATE_NUMERIC.contains(from)
              || SqlTypeFamily.CHARACTER.contains(from))) {
        // Calcite truncates where Spark rounds (SparkRewrites truncates a DECIMAL first).
        throw refuse(
            "a cast of "
                + Refusal.typeName(from)
                + " to "
                + io.calcitebridge.types.TypeNames.renderNullable(to));
      }
      if (SqlTypeFamily.INTEGER.contains(to) && SqlTypeFamily.APPROXIMATE_NUMERIC.contains(from)) {
        // NaN and values out of range differ.
        throw refuse("a cast of " + Refusal.typeName(from) + " to " + Refusal.typeName(to));
      }
      boolean ltz =
          f == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE
              || t == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
      if (ltz
          && f != t
          && f != SqlTypeName.NULL
          && !(f == SqlTypeName.TIMESTAMP || t == SqlTypeName.TIMESTAMP)) {
        throw refuse("a cast of " + Refusal.typeName(from) + " to " + Refusal.typeName(to));
      }
      if (SqlTypeFamily.CHARACTER.contains(from)
          && t != SqlTypeName.VARCHAR
          && !SqlTypeFamily.INTEGER.contains(to)
          && !Whitelist.nan(cast)) {
        throw refuse("a cast of a string to " + Refusal.typeName(to));
      }
      if ((f == SqlTypeName.TIMESTAMP || f == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE)
          && (t == SqlTypeName.TIMESTAMP || t == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE)
          && to.getPrecision() < from.getPrecision()
          && to.getPrecision() < 6) {
        // Flink cuts the digits a TIMESTAMP(p) does not keep; Spark's timestamps keep
        // microseconds, and the result would not fit its type.
        throw refuse(
            "a cast of "
                + from.getFullTypeString()
                + " to "
                + io.calcitebridge.types.TypeNames.renderNullable(to));
      }
    }
  }

  private static Refusal refuse(String construct) {
    return new Refusal(SparkTranslator.BACKEND, construct);
  }
}

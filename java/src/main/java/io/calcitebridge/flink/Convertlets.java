package io.calcitebridge.flink;

import io.calcitebridge.functions.ConditionalFunctions;
import io.calcitebridge.functions.FlinkFunctions;
import io.calcitebridge.functions.MiscFunctions;
import io.calcitebridge.functions.ObjectFunctions;
import io.calcitebridge.functions.StringFunctions;
import io.calcitebridge.functions.WindowFunctions;
import io.calcitebridge.types.TypeNames;
import java.util.List;
import org.apache.calcite.linq4j.function.Strict;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.schema.impl.ScalarFunctionImpl;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlUtil;
import org.apache.calcite.sql.fun.SqlTrimFunction;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.InferTypes;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;
import org.apache.calcite.sql2rel.SqlRexContext;
import org.apache.calcite.sql2rel.SqlRexConvertlet;
import org.apache.calcite.sql2rel.SqlRexConvertletTable;
import org.apache.calcite.sql2rel.StandardConvertletTable;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Calcite's convertlets, but for the functions whose Calcite implementation gives another answer
 * than Flink's:
 *
 * <ul>
 *   <li>{@code CHAR_LENGTH} (and {@code CHARACTER_LENGTH}) counts code points, as Flink and DuckDB
 *       do; Calcite's counts UTF-16 units, so {@code CHAR_LENGTH('中😀')} was 3, not 2. The call
 *       becomes {@link #charLengthFunction()}, whose implementation the Enumerable engine and
 *       constant reduction both call, so a folded literal has the same value as a computed one.
 *   <li>{@code LOG10}, {@code REPLACE} and {@code POSITION} become Flink's ({@link
 *       FlinkFunctions#replacing}), and {@code TRIM} Flink's {@code BTRIM}, {@code LTRIM} or {@code
 *       RTRIM} (a set of characters to trim, of any length).
 *   <li>Flink's {@code IF}, {@code IFNULL}, {@code GREATEST} and {@code LEAST} ({@link
 *       ConditionalFunctions#convert}).
 *   <li>Flink's numbers: casts, {@code ROUND}, {@code SUBSTRING}, {@code EXTRACT(MILLISECOND)} and
 *       {@code TIMESTAMPDIFF} ({@link FlinkNumbers}).
 * </ul>
 *
 * <p>And for two calls whose conversion fails in Calcite:
 *
 * <ul>
 *   <li>{@code x LIKE p} (and {@code NOT LIKE}, {@code ILIKE}) whose pattern or escape is a NULL,
 *       perhaps cast, becomes a NULL: once the pattern was folded to a NULL literal, Calcite's
 *       {@code RexSimplify.simplifyLike} read its value as a non-null string (a
 *       NullPointerException).
 *   <li>{@code CAST(NULL AS ROW<...>)} keeps the validated type, whose ROW fields are reached with
 *       {@code x.a}; Calcite's conversion derived the type again without that struct kind, and its
 *       check that conversion preserves types failed.
 * </ul>
 */
public final class Convertlets implements SqlRexConvertletTable {
  /** The table the planners convert with. */
  public static final Convertlets INSTANCE = new Convertlets();

  /**
   * {@code CHAR_LENGTH} counting code points; rendered and explained as {@code CHAR_LENGTH}. Made
   * when a statement first converts a {@code CHAR_LENGTH}: making its implementation initialises
   * Calcite's table of the engine's implementors, which a first query that has none did not need.
   */
  public static SqlUserDefinedFunction charLengthFunction() {
    return CharLengthFunction.INSTANCE;
  }

  /** Whether {@code op} is {@link #charLengthFunction()}, without making it. */
  public static boolean isCharLength(SqlOperator op) {
    return op instanceof CharLengthFunction;
  }

  /**
   * Initialised, and so made, when {@link #INSTANCE} is first read; {@code instanceof} does not.
   */
  private static final class CharLengthFunction extends SqlUserDefinedFunction {
    static final CharLengthFunction INSTANCE = new CharLengthFunction();

    private CharLengthFunction() {
      super(
          new SqlIdentifier("CHAR_LENGTH", SqlParserPos.ZERO),
          ReturnTypes.INTEGER_NULLABLE,
          InferTypes.VARCHAR_1024,
          OperandTypes.CHARACTER,
          null,
          ScalarFunctionImpl.create(Convertlets.class, "charLength"));
    }
  }

  private Convertlets() {}

  @Override
  public @Nullable SqlRexConvertlet get(SqlCall call) {
    SqlRexConvertlet found = find(call);
    if (call.getKind() != SqlKind.CAST) {
      return found;
    }
    SqlRexConvertlet base = found != null ? found : StandardConvertletTable.INSTANCE::convertCall;
    return (cx, c) -> {
      RexNode text = timeText(cx, c);
      return text != null ? text : base.convertCall(cx, c);
    };
  }

  /**
   * {@code CAST(t AS STRING)} of a {@code TIME(p)}, {@code p > 0}, as Flink writes it ({@link
   * io.calcitebridge.functions.TemporalFunctions#TIME_TO_STRING}), or null for another cast.
   */
  private static @Nullable RexNode timeText(SqlRexContext cx, SqlCall cast) {
    if (SqlUtil.isNullLiteral(cast.operand(0), false)) {
      return null;
    }
    RelDataType from = cx.getValidator().getValidatedNodeTypeIfKnown(cast.operand(0));
    RelDataType to = cx.getValidator().getValidatedNodeTypeIfKnown(cast);
    if (from == null
        || to == null
        || from.getSqlTypeName() != org.apache.calcite.sql.type.SqlTypeName.TIME
        || from.getPrecision() <= 0
        || !org.apache.calcite.sql.type.SqlTypeFamily.CHARACTER.contains(to)) {
      return null;
    }
    // RowText writes a TIME(p) field of a ROW the same way: its text is the one to call.
    org.apache.calcite.rex.RexBuilder rb = cx.getRexBuilder();
    return rb.makeCast(
        to, io.calcitebridge.functions.RowText.text(rb, cx.convertExpression(cast.operand(0))));
  }

  private @Nullable SqlRexConvertlet find(SqlCall call) {
    // Calcite's SqlToRelConverter has no cancel hook: each call it converts checks the
    // statement's flag here, so a statement stopped while it is converted stops at its next call.
    io.calcitebridge.errors.Stop.checkCurrent();
    if (call.getOperator() == io.calcitebridge.functions.RowText.CAST) {
      return io.calcitebridge.functions.RowText::convert; // Flink's CAST of a ROW to STRING
    }
    if (call.getOperator() == io.calcitebridge.functions.BooleanCasts.CAST
        || call.getOperator() == io.calcitebridge.functions.BooleanCasts.TRY_CAST) {
      return io.calcitebridge.functions.BooleanCasts::convert; // Flink's 1 or 0 of a BOOLEAN
    }
    if (call.getOperator() instanceof io.calcitebridge.functions.SampleVariance) {
      // VAR_SAMP over a window: Calcite's own convertlet for it (sums and counts over the window),
      // keyed by Calcite's operator; the result is typed as validated, so may be NULL.
      return StandardConvertletTable.INSTANCE.get(
          org.apache.calcite.sql.fun.SqlStdOperatorTable.VAR_SAMP.createCall(
              call.getParserPosition(), call.getOperandList()));
    }
    SqlRexConvertlet numbers = FlinkNumbers.convertlet(call);
    if (numbers != null) {
      return numbers;
    }
    // TIMESTAMP_LTZ in the session time zone, Flink's CURRENT_TIMESTAMP and LOCALTIMESTAMP;
    // JSON functions of Flink's type.
    SqlRexConvertlet other =
        JsonConvertlets.wrap(call, LocalTimeZoneConvertlets.wrap(call, convertlet(call)));
    if (call.getKind() == SqlKind.ROW && other != null) {
      // A ROW constructor typed as validated (fields peekable, see BridgeSqlValidator#peeking).
      return (cx, c) -> {
        RexNode row = other.convertCall(cx, c);
        RelDataType validated = cx.getValidator().getValidatedNodeTypeIfKnown(c);
        return validated == null
                || row.getType().equals(validated)
                || !(row instanceof org.apache.calcite.rex.RexCall rc)
            ? row
            : cx.getRexBuilder().makeCall(validated, rc.getOperator(), rc.getOperands());
      };
    }
    if (NULL_COMPARISONS.contains(call.getKind())
        && call.getOperandList().stream().anyMatch(o -> SqlUtil.isNullLiteral(o, true))) {
      SqlRexConvertlet compare =
          other != null ? other : StandardConvertletTable.INSTANCE::convertCall;
      return (cx, c) -> unknownComparisons(cx, compare.convertCall(cx, c));
    }
    if (call.getKind() == SqlKind.CAST && other != null) {
      return (cx, c) -> {
        RexNode flink = FlinkNumbers.cast(cx, c);
        return peeking(cx, c, flink != null ? flink : other.convertCall(cx, c));
      };
    }
    return other;
  }

  /** The comparisons (and BETWEEN, made of them) {@link #unknownComparisons} applies to. */
  private static final java.util.Set<SqlKind> NULL_COMPARISONS =
      java.util.EnumSet.of(
          SqlKind.EQUALS,
          SqlKind.NOT_EQUALS,
          SqlKind.LESS_THAN,
          SqlKind.LESS_THAN_OR_EQUAL,
          SqlKind.GREATER_THAN,
          SqlKind.GREATER_THAN_OR_EQUAL,
          SqlKind.BETWEEN);

  /**
   * {@code converted} with each comparison that has a NULL operand written as the UNKNOWN it is.
   * Kept as a comparison, it reached Calcite's predicate metadata while the query was converted
   * ({@code RelBuilder.aggregate} asks whether a DISTINCT's columns are unique already), which
   * fails on it ("Comparison with NULL in pulledUpPredicates", CALCITE-7598, fixed after 1.42): in
   * {@code SELECT DISTINCT a FROM t GROUP BY a HAVING a BETWEEN NULL AND NULL}.
   */
  private static RexNode unknownComparisons(SqlRexContext cx, RexNode converted) {
    org.apache.calcite.rex.RexBuilder rex = cx.getRexBuilder();
    return converted.accept(
        new org.apache.calcite.rex.RexShuttle() {
          @Override
          public RexNode visitCall(org.apache.calcite.rex.RexCall call) {
            RexNode visited = super.visitCall(call);
            if (visited instanceof org.apache.calcite.rex.RexCall c
                && NULL_COMPARISONS.contains(c.getKind())
                && c.getType().isNullable()
                && c.getOperands().stream()
                    .anyMatch(o -> org.apache.calcite.rex.RexUtil.isNullLiteral(o, true))) {
              return rex.makeNullLiteral(c.getType());
            }
            return visited;
          }
        });
  }

  /**
   * A cast to a ROW type typed as validated: Calcite's conversion derives the type again, as a
   * plain struct, where the validator gives the ROW types written in SQL {@code
   * StructKind.PEEK_FIELDS_NO_EXPAND} (see {@code BridgeSqlValidator#deriveType}). Likewise a cast
   * to an ARRAY or a MAP, whose elements the validator types as written (nullable).
   */
  private static RexNode peeking(
      org.apache.calcite.sql2rel.SqlRexContext cx, SqlCall c, RexNode converted) {
    RelDataType validated = cx.getValidator().getValidatedNodeTypeIfKnown(c);
    if (validated == null
        || !(validated.isStruct()
            || validated.getSqlTypeName() == org.apache.calcite.sql.type.SqlTypeName.ARRAY
            || validated.getSqlTypeName() == org.apache.calcite.sql.type.SqlTypeName.MAP)
        || converted.getType().equals(validated)) {
      return converted;
    }
    if (org.apache.calcite.rex.RexUtil.isNullLiteral(converted, false)) {
      // A cast of a NULL of that type already (CAST(CAST(NULL AS ROW<...>) AS ROW<...>)) is
      // folded into a NULL literal of the type derived again: "failed to preserve datatypes".
      return cx.getRexBuilder().makeNullLiteral(validated);
    }
    if (!(converted instanceof org.apache.calcite.rex.RexCall cast)
        || cast.getKind() != SqlKind.CAST) {
      return converted;
    }
    return cx.getRexBuilder()
        .makeAbstractCast(c.getParserPosition(), validated, cast.getOperands().get(0), false);
  }

  private @Nullable SqlRexConvertlet convertlet(SqlCall call) {
    // Flink's windowing (WindowFunctions): the window functions learn whether the time is an
    // instant; the legacy GROUP BY TUMBLE(ts, size) is the start of the row's window.
    if (WindowFunctions.OPERATORS.contains(call.getOperator())) {
      return WindowFunctions::convert;
    }
    if (call.getOperator() == org.apache.calcite.sql.fun.SqlStdOperatorTable.TUMBLE_OLD) {
      return WindowFunctions::convertGroupTumble;
    }
    if (call.getKind() == SqlKind.ITEM) {
      // Flink's field and element access of a VARIANT (JsonFunctions#variantItem).
      SqlRexConvertlet item = StandardConvertletTable.INSTANCE.get(call);
      return (cx, c) -> {
        RexNode x = cx.convertExpression(c.operand(0));
        if (x.getType().getSqlTypeName() != org.apache.calcite.sql.type.SqlTypeName.VARIANT) {
          return item != null
              ? item.convertCall(cx, c)
              : StandardConvertletTable.INSTANCE.convertCall(cx, c);
        }
        RexNode key = variantKey(cx, cx.convertExpression(c.operand(1)));
        return cx.getRexBuilder()
            .makeCall(
                cx.getTypeFactory().createTypeWithNullability(x.getType(), true),
                io.calcitebridge.functions.JsonFunctions.variantItem(
                    key.getType().getSqlTypeName()
                        == org.apache.calcite.sql.type.SqlTypeName.VARCHAR),
                List.of(x, key));
      };
    }
    if (call.getKind() == SqlKind.CHAR_LENGTH) {
      return (cx, c) -> {
        List<RexNode> operands = c.getOperandList().stream().map(cx::convertExpression).toList();
        return cx.getRexBuilder()
            .makeCall(cx.getValidator().getValidatedNodeType(c), charLengthFunction(), operands);
      };
    }
    if (call.getKind() == SqlKind.LIKE
        && call.getOperandList().stream().skip(1).anyMatch(Convertlets::isNull)) {
      return (cx, c) ->
          cx.getRexBuilder().makeNullLiteral(cx.getValidator().getValidatedNodeType(c));
    }
    if (call.getOperator() == MiscFunctions.CURRENT_DATABASE) {
      // Flink's CURRENT_DATABASE(): the database current when the statement is planned (USE
      // changes it), the last part of the path the statement's names resolve in.
      return (cx, c) -> {
        // The reader's paths: the root, then catalog.database (and the catalog alone).
        String db = MiscFunctions.DATABASE;
        for (List<String> path : cx.getValidator().getCatalogReader().getSchemaPaths()) {
          if (path.size() == 2) {
            db = path.get(1);
            break;
          }
        }
        return cx.getRexBuilder()
            .makeAbstractCast(
                cx.getValidator().getValidatedNodeType(c),
                cx.getRexBuilder().makeLiteral(db),
                false);
      };
    }
    if (call.getOperator() == MiscFunctions.TYPEOF) {
      // Flink's TYPEOF: the operand's type as Flink writes it, a constant STRING.
      return (cx, c) ->
          cx.getRexBuilder()
              .makeAbstractCast(
                  cx.getValidator().getValidatedNodeType(c),
                  cx.getRexBuilder()
                      .makeLiteral(
                          TypeNames.render(cx.getValidator().getValidatedNodeType(c.operand(0)))),
                  false);
    }
    if (call.getOperator() == io.calcitebridge.functions.JsonFunctions.JSON_STRING) {
      // A TIMESTAMP as Flink writes it in JSON: its ISO text (TIMESTAMP_LTZ: the instant).
      return (cx, c) -> {
        RexNode x = cx.convertExpression(c.operand(0));
        org.apache.calcite.sql.type.SqlTypeName t = x.getType().getSqlTypeName();
        if (t == org.apache.calcite.sql.type.SqlTypeName.TIMESTAMP
            || t == org.apache.calcite.sql.type.SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE) {
          RelDataType text =
              cx.getTypeFactory()
                  .createTypeWithNullability(
                      cx.getTypeFactory()
                          .createSqlType(
                              org.apache.calcite.sql.type.SqlTypeName.VARCHAR, Integer.MAX_VALUE),
                      x.getType().isNullable());
          boolean ltz = t != org.apache.calcite.sql.type.SqlTypeName.TIMESTAMP;
          x =
              cx.getRexBuilder()
                  .makeCall(
                      text, io.calcitebridge.functions.JsonFunctions.isoText(ltz), List.of(x));
        }
        return cx.getRexBuilder()
            .makeCall(cx.getValidator().getValidatedNodeType(c), c.getOperator(), List.of(x));
      };
    }
    if (call.getOperator() == org.apache.calcite.sql.fun.SqlLibraryOperators.TRY_CAST) {
      SqlRexConvertlet flink = Convertlets::tryCast;
      return flink;
    }
    if (call.getOperator() == ObjectFunctions.OBJECT_OF
        || call.getOperator() == ObjectFunctions.OBJECT_UPDATE) {
      return Convertlets::object;
    }
    if (call.getKind() == SqlKind.TRIM) {
      return Convertlets::trim;
    }
    if (call.getOperator() == io.calcitebridge.functions.MathFunctions.RAND) {
      return Convertlets::rand;
    }
    SqlOperator flink = FlinkFunctions.replacing(call.getOperator());
    if (flink != null) {
      return (cx, c) -> {
        List<RexNode> operands = c.getOperandList().stream().map(cx::convertExpression).toList();
        // A call that another convertlet made (SQRT as POWER(x, 0.5)) has no validated type.
        RelDataType type = cx.getValidator().getValidatedNodeTypeIfKnown(c);
        return type == null
            ? cx.getRexBuilder().makeCall(flink, operands)
            : cx.getRexBuilder().makeCall(type, flink, operands);
      };
    }
    if (ConditionalFunctions.CONVERTED.contains(call.getOperator())) {
      // Flink's IF, IFNULL, GREATEST, LEAST: operands cast to the result type, IF as CASE.
      return (cx, c) ->
          ConditionalFunctions.convert(
              cx.getRexBuilder(),
              c.getOperator(),
              cx.getValidator().getValidatedNodeType(c),
              c.getOperandList().stream().map(cx::convertExpression).toList());
    }
    SqlRexConvertlet standard = StandardConvertletTable.INSTANCE.get(call);
    if (standard != null
        && call.getKind() == SqlKind.CAST
        && !SqlUtil.isNullLiteral(call.operand(0), false)) {
      // A string read as a TIMESTAMP, its fraction of a second cut to milliseconds first.
      return (cx, c) -> {
        RelDataType to = cx.getValidator().getValidatedNodeTypeIfKnown(c);
        RelDataType from = cx.getValidator().getValidatedNodeTypeIfKnown(c.operand(0));
        if (to == null || from == null || !TimestampTexts.readsText(from, to)) {
          return standard.convertCall(cx, c);
        }
        org.apache.calcite.rex.RexBuilder rb = cx.getRexBuilder();
        return rb.makeCast(
            to, TimestampTexts.cut(rb, cx.convertExpression(c.operand(0)), to.getPrecision()));
      };
    }
    if (standard != null
        && call.getKind() == SqlKind.CAST
        && SqlUtil.isNullLiteral(call.operand(0), false)) {
      return (cx, c) -> {
        RelDataType type = cx.getValidator().getValidatedNodeType(c);
        return type.isStruct()
            ? cx.getRexBuilder().makeNullLiteral(type)
            : standard.convertCall(cx, c);
      };
    }
    return standard;
  }

  /**
   * Flink's {@code TRY_CAST(x AS t)}: NULL where the cast fails, and otherwise Flink's cast, as
   * {@link FlinkNumbers#cast} makes it: a DECIMAL losing scale rounds half up ({@code TRY_CAST(1.5
   * AS DECIMAL(1, 0))} is 2), a string with a fraction is an integer by truncation ({@code
   * TRY_CAST('1.5' AS INT)} is 1, and one with an exponent NULL, as Flink reads no exponent). Other
   * casts are Calcite's safe cast.
   */
  private static RexNode tryCast(org.apache.calcite.sql2rel.SqlRexContext cx, SqlCall c) {
    org.apache.calcite.rex.RexBuilder rb = cx.getRexBuilder();
    org.apache.calcite.rel.type.RelDataTypeFactory f = rb.getTypeFactory();
    RelDataType target = cx.getValidator().getValidatedNodeType(c);
    RelDataType validated = cx.getValidator().getValidatedNodeTypeIfKnown(c.operand(0));
    RexNode flinkDecimal =
        validated == null
            ? null
            : FlinkNumbers.toDecimal(rb, validated, target, c.operand(0), cx, true);
    if (flinkDecimal != null) {
      return flinkDecimal;
    }
    RexNode x = cx.convertExpression(c.operand(0));
    RelDataType source = x.getType();
    if (source.getSqlTypeName() == org.apache.calcite.sql.type.SqlTypeName.DECIMAL
        && target.getSqlTypeName() == org.apache.calcite.sql.type.SqlTypeName.DECIMAL
        && target.getScale() < source.getScale()) {
      RelDataType rounded =
          f.createTypeWithNullability(
              f.createSqlType(
                  org.apache.calcite.sql.type.SqlTypeName.DECIMAL,
                  Math.min(
                      f.getTypeSystem()
                          .getMaxPrecision(org.apache.calcite.sql.type.SqlTypeName.DECIMAL),
                      source.getPrecision() - source.getScale() + target.getScale() + 1),
                  target.getScale()),
              source.isNullable());
      x =
          rb.makeCall(
              rounded,
              io.calcitebridge.functions.NumberFunctions.ROUND_HALF_UP,
              List.of(x, rb.makeExactLiteral(java.math.BigDecimal.valueOf(target.getScale()))));
    } else if (org.apache.calcite.sql.type.SqlTypeUtil.inCharFamily(source)
        && org.apache.calcite.sql.type.SqlTypeFamily.INTEGER.contains(target)) {
      RelDataType bigint =
          f.createTypeWithNullability(
              f.createSqlType(org.apache.calcite.sql.type.SqlTypeName.BIGINT), true);
      x =
          rb.makeCall(
              bigint, io.calcitebridge.functions.NumberFunctions.TRY_PARSE_INTEGER, List.of(x));
    }
    return rb.makeCast(target, x, false, true);
  }

  /**
   * Flink's {@code OBJECT_OF} and {@code OBJECT_UPDATE} as a ROW constructor of the validated type:
   * the values of the keys, and for an update the object's other fields, NULL for a NULL object.
   */
  private static RexNode object(org.apache.calcite.sql2rel.SqlRexContext cx, SqlCall c) {
    org.apache.calcite.rex.RexBuilder rb = cx.getRexBuilder();
    RelDataType type = cx.getValidator().getValidatedNodeType(c);
    boolean update = c.getOperator() == ObjectFunctions.OBJECT_UPDATE;
    RexNode object = update ? cx.convertExpression(c.operand(0)) : null;
    List<RexNode> fields = new java.util.ArrayList<>();
    for (org.apache.calcite.rel.type.RelDataTypeField f : type.getFieldList()) {
      RexNode value = null;
      for (int i = c.operandCount() - 2; i >= 1 && value == null; i -= 2) {
        String key = ((org.apache.calcite.sql.SqlLiteral) c.operand(i)).getValueAs(String.class);
        if (f.getName().equalsIgnoreCase(key)) {
          value = cx.convertExpression(c.operand(i + 1));
        }
      }
      if (value == null && object != null) {
        value = rb.makeFieldAccess(object, f.getIndex());
      }
      fields.add(rb.makeCast(f.getType(), java.util.Objects.requireNonNull(value), true, false));
    }
    RexNode row = rb.makeCall(type, org.apache.calcite.sql.fun.SqlStdOperatorTable.ROW, fields);
    if (object == null || !object.getType().isNullable()) {
      return row;
    }
    return rb.makeCall(
        org.apache.calcite.sql.fun.SqlStdOperatorTable.CASE,
        rb.makeCall(org.apache.calcite.sql.fun.SqlStdOperatorTable.IS_NULL, object),
        rb.makeNullLiteral(type),
        row);
  }

  /** The key of a VARIANT's ITEM: a string, or an index as a BIGINT. */
  private static RexNode variantKey(org.apache.calcite.sql2rel.SqlRexContext cx, RexNode key) {
    org.apache.calcite.rel.type.RelDataTypeFactory f = cx.getTypeFactory();
    org.apache.calcite.sql.type.SqlTypeName t =
        org.apache.calcite.sql.type.SqlTypeUtil.inCharFamily(key.getType())
            ? org.apache.calcite.sql.type.SqlTypeName.VARCHAR
            : org.apache.calcite.sql.type.SqlTypeName.BIGINT;
    return cx.getRexBuilder()
        .makeCast(f.createTypeWithNullability(f.createSqlType(t), key.getType().isNullable()), key);
  }

  /** A NULL literal, perhaps in casts: {@code CAST(CAST(NULL AS INT) AS VARCHAR)}. */
  private static boolean isNull(SqlNode node) {
    return SqlUtil.isNullLiteral(node, false)
        || node.getKind() == SqlKind.CAST && isNull(((SqlCall) node).operand(0));
  }

  /**
   * {@code TRIM(BOTH | LEADING | TRAILING chars FROM s)} as Flink has it: {@code chars} is a set of
   * code points, of any length ({@code TRIM(BOTH 'ab' FROM 'abxba')} is {@code 'x'}, an empty one
   * trims nothing), so the call becomes Flink's {@code BTRIM}, {@code LTRIM} or {@code RTRIM}.
   * Calcite's wants a single character.
   */
  /** Flink's {@code RAND(seed)}: Calcite's, or {@code NULL} when the seed is. */
  private static RexNode rand(SqlRexContext cx, SqlCall c) {
    org.apache.calcite.rex.RexBuilder rb = cx.getRexBuilder();
    List<RexNode> operands = c.getOperandList().stream().map(cx::convertExpression).toList();
    RexNode random = rb.makeCall(org.apache.calcite.sql.fun.SqlStdOperatorTable.RAND, operands);
    if (operands.isEmpty() || !operands.get(0).getType().isNullable()) {
      return random;
    }
    RelDataType type = cx.getValidator().getValidatedNodeType(c);
    return rb.makeCall(
        type,
        org.apache.calcite.sql.fun.SqlStdOperatorTable.CASE,
        List.of(
            rb.makeCall(org.apache.calcite.sql.fun.SqlStdOperatorTable.IS_NULL, operands.get(0)),
            rb.makeNullLiteral(type),
            rb.makeCast(type, random)));
  }

  private static RexNode trim(SqlRexContext cx, SqlCall c) {
    SqlTrimFunction.Flag flag = ((SqlLiteral) c.operand(0)).getValueAs(SqlTrimFunction.Flag.class);
    SqlOperator op =
        switch (flag) {
          case LEADING -> StringFunctions.LTRIM;
          case TRAILING -> StringFunctions.RTRIM;
          case BOTH -> StringFunctions.BTRIM;
        };
    return cx.getRexBuilder()
        .makeCall(
            cx.getValidator().getValidatedNodeType(c),
            op,
            List.of(cx.convertExpression(c.operand(2)), cx.convertExpression(c.operand(1))));
  }

  /** The number of code points of {@code s}: Flink's {@code CHAR_LENGTH}. */
  @Strict
  public static int charLength(String s) {
    return s.codePointCount(0, s.length());
  }
}

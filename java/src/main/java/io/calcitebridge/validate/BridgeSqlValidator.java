package io.calcitebridge.validate;

import static org.apache.calcite.util.Static.RESOURCE;

import io.calcitebridge.catalog.CatalogTable;
import io.calcitebridge.catalog.ColumnDef;
import io.calcitebridge.catalog.ColumnKind;
import io.calcitebridge.catalog.ExpansionStrategy;
import io.calcitebridge.catalog.TableDef;
import io.calcitebridge.errors.ErrorKind;
import io.calcitebridge.errors.PositionedException;
import io.calcitebridge.sql.ParameterNumber;
import io.calcitebridge.types.BitmapType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.runtime.Resources;
import org.apache.calcite.sql.JoinConditionType;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlUtil;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.validate.SelectScope;
import org.apache.calcite.sql.validate.SqlQualified;
import org.apache.calcite.sql.validate.SqlValidatorCatalogReader;
import org.apache.calcite.sql.validate.SqlValidatorException;
import org.apache.calcite.sql.validate.SqlValidatorImpl;
import org.apache.calcite.sql.validate.SqlValidatorNamespace;
import org.apache.calcite.sql.validate.SqlValidatorScope;
import org.apache.calcite.sql.validate.SqlValidatorTable;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The validator of calcite-bridge: Calcite's, with narrow overrides for the features Calcite lacks.
 *
 * <p>Star expansion: {@link #addToSelectList} is only called while {@code *} or {@code alias.*} is
 * expanded, never for an explicit select item, so leaving a column out there hides it from {@code
 * *} while every explicit reference still resolves (the technique of Flink's
 * FlinkCalciteSqlValidator).
 */
public final class BridgeSqlValidator extends SqlValidatorImpl {
  private final List<ExpansionStrategy> strategy;

  /** Select items a star brought in for hidden columns; removed once expansion is complete. */
  private final Set<SqlNode> hiddenItems = Collections.newSetFromMap(new IdentityHashMap<>());

  public BridgeSqlValidator(
      SqlOperatorTable opTab,
      SqlValidatorCatalogReader catalogReader,
      RelDataTypeFactory typeFactory,
      Config config,
      List<ExpansionStrategy> strategy) {
    super(opTab, catalogReader, typeFactory, config);
    this.strategy = List.copyOf(strategy);
  }

  // ----- Parameters of a plan kept for any values -------------------------------------------

  /**
   * A placeholder whose value, a string, the statement converts to {@code target} (a number, a
   * BOOLEAN or a datetime): {@code id >= ?} with {@code id BIGINT}. Each run checks its value as
   * the literal of it is checked ({@link BridgeTypeCoercion#checkParameter}).
   */
  public record ParameterConversion(int index, RelDataType target, SqlParserPos pos) {}

  private final List<ParameterConversion> parameterConversions = new ArrayList<>();

  /** Notes that the statement converts the string value of {@code param} to {@code target}. */
  void noteParameterConversion(org.apache.calcite.sql.SqlDynamicParam param, RelDataType target) {
    parameterConversions.add(
        new ParameterConversion(param.getIndex(), target, param.getParserPosition()));
  }

  /** The conversions of the placeholders' string values that validating the statement noted. */
  public List<ParameterConversion> parameterConversions() {
    return List.copyOf(parameterConversions);
  }

  /**
   * Set while a query whose values are bound as it runs is planned: its parameters are never NULL
   * (a NULL value is bound as a literal), so each {@code ?} is typed NOT NULL, as the literal of
   * its value is, and the statement's result types are the literal text's.
   */
  private static final ThreadLocal<Boolean> NON_NULL_PARAMETERS =
      ThreadLocal.withInitial(() -> false);

  /** Runs {@code plan} with the parameters of the queries it validates typed NOT NULL. */
  public static <T> T withNonNullParameters(java.util.function.Supplier<T> plan) {
    boolean before = NON_NULL_PARAMETERS.get();
    NON_NULL_PARAMETERS.set(true);
    try {
      return plan.get();
    } finally {
      NON_NULL_PARAMETERS.set(before);
    }
  }

  @Override
  public SqlNode validate(SqlNode topNode) {
    if (NON_NULL_PARAMETERS.get()) {
      // Each CAST(? AS t NOT NULL) types its ? before anything derives a type above it, so that
      // no expression over it is typed nullable first.
      topNode.accept(
          new org.apache.calcite.sql.util.SqlShuttle() {
            @Override
            public @Nullable SqlNode visit(org.apache.calcite.sql.SqlCall call) {
              if (call.getKind() == org.apache.calcite.sql.SqlKind.CAST
                  && call.operandCount() == 2
                  && call.operand(0) instanceof org.apache.calcite.sql.SqlDynamicParam param
                  && call.operand(1) instanceof org.apache.calcite.sql.SqlDataTypeSpec spec
                  && Boolean.FALSE.equals(spec.getNullable())) {
                setValidatedNodeType(param, spec.deriveType(BridgeSqlValidator.this));
              }
              return super.visit(call);
            }
          });
    }
    return super.validate(topNode);
  }

  @Override
  protected void inferUnknownTypes(
      RelDataType inferredType, SqlValidatorScope scope, SqlNode node) {
    super.inferUnknownTypes(inferredType, scope, node);
    if (node instanceof org.apache.calcite.sql.SqlDynamicParam && NON_NULL_PARAMETERS.get()) {
      RelDataType type = getValidatedNodeTypeIfKnown(node);
      if (type != null && type.isNullable()) {
        setValidatedNodeType(node, getTypeFactory().createTypeWithNullability(type, false));
      }
    }
  }

  // ----- Field discovery ------------------------------------------------------------------

  private boolean discovery;

  /** Lets a name that resolves nowhere raise a {@link DiscoveryRequest} instead of failing. */
  public void enableDiscovery() {
    this.discovery = true;
  }

  @Override
  public CalciteContextException newValidationError(
      SqlNode node, Resources.ExInst<SqlValidatorException> e) {
    CalciteContextException error = super.newValidationError(node, e);
    if (discovery
        && node instanceof SqlIdentifier
        && ((SqlIdentifier) node).isSimple()
        && isColumnNotFound(((SqlIdentifier) node).getSimple(), e)) {
      throw new DiscoveryRequest(
          (SqlIdentifier) node, qualifier(((SqlIdentifier) node).getSimple(), e), error);
    }
    return error;
  }

  /** For {@code t.x}, the table name or alias {@code t}; null for a plain name. */
  private static @Nullable String qualifier(
      String name, Resources.ExInst<SqlValidatorException> e) {
    String message = e.ex().getMessage();
    String template = RESOURCE.columnNotFoundInTable(name, "\u0000").ex().getMessage();
    int hole = template.indexOf('\u0000');
    String before = template.substring(0, hole);
    String after = template.substring(hole + 1);
    if (message.startsWith(before)
        && message.endsWith(after)
        && message.length() >= before.length() + after.length()) {
      return message.substring(before.length(), message.length() - after.length());
    }
    return null;
  }

  private static boolean isColumnNotFound(String name, Resources.ExInst<SqlValidatorException> e) {
    String message = e.ex().getMessage();
    return message.equals(RESOURCE.columnNotFound(name).ex().getMessage())
        // `info.k` where `info` is no table alias: perhaps a ROW column to discover
        || message.equals(RESOURCE.tableNameNotFound(name).ex().getMessage())
        || message.startsWith(
            prefix(RESOURCE.columnNotFoundDidYouMean(name, "\u0000").ex().getMessage()))
        || message.startsWith(
            prefix(RESOURCE.columnNotFoundInTable(name, "\u0000").ex().getMessage()));
  }

  private static String prefix(String message) {
    return message.substring(0, message.indexOf('\u0000'));
  }

  // ----- Flink's numbers -----------------------------------------------------------------------

  /**
   * {@code ROUND}, {@code TRUNCATE} and {@code SUBSTRING} become the operators with Flink's result
   * types ({@link io.calcitebridge.functions.NumberFunctions#validating}), once the function is
   * resolved.
   */
  @Override
  protected @Nullable SqlNode performUnconditionalRewrites(
      @Nullable SqlNode node, boolean underFrom) {
    if (node instanceof SqlCall table
        && table.getKind() == SqlKind.COLLECTION_TABLE
        && table.operandCount() == 1
        && table.operand(0) instanceof SqlCall function
        && io.calcitebridge.functions.StreamingFunctions.isStreamingTable(
            function.getOperator().getName())) {
      throw new PositionedException(
          ErrorKind.UNSUPPORTED,
          function.getOperator().getName().toUpperCase(java.util.Locale.ROOT)
              + " is for streaming queries only: a batch query has no changelog (Flink's batch"
              + " mode cannot plan it either)",
          function.getParserPosition());
    }
    if (node instanceof org.apache.calcite.sql.SqlBasicCall coalesce
        && coalesce.getOperator().getName().equalsIgnoreCase("COALESCE")
        && (coalesce.getOperator() == org.apache.calcite.sql.fun.SqlStdOperatorTable.COALESCE
            || coalesce.getOperator() instanceof org.apache.calcite.sql.SqlUnresolvedFunction)
        && coalesce.getFunctionQuantifier() == null
        && coalesce.operandCount() > 1) {
      // Flink's COALESCE, with Flink's type, in place of Calcite's rewrite into a CASE.
      coalesce.setOperator(io.calcitebridge.functions.ConditionalFunctions.COALESCE);
    }
    boolean nullif =
        node instanceof SqlCall call
            && call.getOperator().getName().equalsIgnoreCase("NULLIF")
            && call.operandCount() == 2;
    SqlNode rewritten = super.performUnconditionalRewrites(node, underFrom);
    if (nullif
        && rewritten instanceof org.apache.calcite.sql.fun.SqlCase written
        && written.getWhenOperands().size() == 1) {
      SqlNode comparison = written.getWhenOperands().get(0);
      if (!comparison.getParserPosition().equals(org.apache.calcite.sql.parser.SqlParserPos.ZERO)) {
        nullifComparisons.add(comparison.getParserPosition());
      }
    }
    if (rewritten instanceof SqlCall call
        && call.getOperator() instanceof io.calcitebridge.functions.UserAggregateFunction agg) {
      return agg.rewrite(call);
    }
    rewritten = io.calcitebridge.functions.UserAggregateFunction.lift(rewritten);
    rewritten = io.calcitebridge.functions.UserTableFunction.rewrite(rewritten);
    if (rewritten instanceof org.apache.calcite.sql.SqlBasicCall call) {
      org.apache.calcite.sql.SqlOperator flink =
          io.calcitebridge.functions.NumberFunctions.validating(call.getOperator());
      if (flink != null) {
        call.setOperator(flink);
      }
    }
    return rewritten;
  }

  /**
   * The positions of the comparisons {@code x = y} of the CASE that Calcite rewrites {@code
   * NULLIF(x, y)} into: the position of the NULLIF, which no comparison written in SQL has. A
   * position, not the node, as identifier expansion copies the node.
   */
  private final Set<org.apache.calcite.sql.parser.SqlParserPos> nullifComparisons = new HashSet<>();

  /**
   * Whether {@code call} is the comparison of a {@code NULLIF}: Flink compares a number with a
   * string, a BOOLEAN or BYTES without converting either ({@link BridgeTypeCoercion}).
   */
  boolean isNullifComparison(SqlCall call) {
    return call.getKind() == SqlKind.EQUALS && nullifComparisons.contains(call.getParserPosition());
  }

  // ----- Stopping ------------------------------------------------------------------------------

  /**
   * Checks the statement's cancel flag at each expression typed: Calcite's validator has no cancel
   * hook of its own, so after a {@code planner.timeout} a worker validating an OR chain of 10^4
   * terms went on for seconds.
   */
  @Override
  public RelDataType deriveType(SqlValidatorScope scope, SqlNode expr) {
    io.calcitebridge.errors.Stop.checkCurrent();
    rowToString(scope, expr);
    booleanToNumber(scope, expr);
    nullableShiftDefault(scope, expr);
    RelDataType type = super.deriveType(scope, expr);
    if (expr instanceof SqlCall call
        && (io.calcitebridge.functions.JsonFunctions.STRING_RESULTS.contains(call.getOperator())
            || io.calcitebridge.functions.JsonFunctions.IS_JSON.contains(call.getOperator()))) {
      // Flink's STRING for Calcite's VARCHAR(2000), IS JSON never NULL (see JsonConvertlets).
      RelDataType flink =
          io.calcitebridge.functions.JsonFunctions.flinkType(
              getTypeFactory(), type, call.getOperator());
      if (flink != type) {
        setValidatedNodeType(expr, flink);
      }
      return flink;
    }
    RelDataType collection = collectionCastType(expr, type);
    if (collection != type) {
      setValidatedNodeType(expr, collection);
      return collection;
    }
    if ((expr.getKind() == SqlKind.CAST || expr.getKind() == SqlKind.ROW) && type.isStruct()) {
      RelDataType peeking = peeking(type);
      if (expr.getKind() == SqlKind.ROW && peeking.isNullable()) {
        // Flink's ROW(...) is NOT NULL whatever its fields: a ROW of NULLs is a row, not a NULL
        // (Calcite's is NULL when every field may be).
        peeking = getTypeFactory().createTypeWithNullability(peeking, false);
      }
      if (peeking != type) {
        setValidatedNodeType(expr, peeking);
      }
      return peeking;
    }
    return type;
  }

  /**
   * Flink's type of a CAST or TRY_CAST to an ARRAY or a MAP: the target type as written (elements,
   * keys and values nullable unless declared NOT NULL), NULL where the operand is; Calcite's kept
   * the nullability of the operand's elements ({@code CAST(ARRAY['1'] AS ARRAY<INT>)} was {@code
   * ARRAY<INT NOT NULL>}). Targets holding a ROW keep Calcite's type.
   */
  private RelDataType collectionCastType(SqlNode expr, RelDataType type) {
    if (!(expr instanceof SqlCall call)
        || (expr.getKind() != SqlKind.CAST && expr.getKind() != SqlKind.SAFE_CAST)
        || call.operandCount() < 2
        || !(call.operand(1) instanceof org.apache.calcite.sql.SqlDataTypeSpec spec)
        || (type.getSqlTypeName() != org.apache.calcite.sql.type.SqlTypeName.ARRAY
            && type.getSqlTypeName() != org.apache.calcite.sql.type.SqlTypeName.MAP)) {
      return type;
    }
    RelDataType written = spec.deriveType(this);
    if (written.getSqlTypeName() != type.getSqlTypeName() || holdsRow(written)) {
      return type;
    }
    RelDataType flink = getTypeFactory().createTypeWithNullability(written, type.isNullable());
    return flink.equals(type) ? type : flink;
  }

  private static boolean holdsRow(RelDataType t) {
    if (t.isStruct()) {
      return true;
    }
    RelDataType e = t.getComponentType();
    if (e != null) {
      return holdsRow(e);
    }
    RelDataType k = t.getKeyType();
    RelDataType v = t.getValueType();
    return k != null && v != null && (holdsRow(k) || holdsRow(v));
  }

  /**
   * A CAST or TRY_CAST to or from a VARIANT is refused, as Flink refuses it: a VARIANT's value is
   * read with {@code v['key']}, {@code v[i]} and JSON_STRING. So is one to or from a BITMAP, but to
   * a string (its text, as BITMAP_TO_STRING gives it, see {@link #rowToString}).
   */
  private void refuseVariantCast(SqlValidatorScope scope, SqlCall call) {
    if ((call.getKind() == SqlKind.CAST || call.getKind() == SqlKind.SAFE_CAST)
        && call.operandCount() == 2
        && call.operand(1) instanceof org.apache.calcite.sql.SqlDataTypeSpec spec
        && !org.apache.calcite.sql.SqlUtil.isNullLiteral(call.operand(0), false)) {
      RelDataType to = spec.deriveType(this);
      RelDataType from = deriveType(scope, call.operand(0));
      if (to.getSqlTypeName() == org.apache.calcite.sql.type.SqlTypeName.VARIANT
          || from.getSqlTypeName() == org.apache.calcite.sql.type.SqlTypeName.VARIANT) {
        throw refusedCast(
            from,
            to,
            "a VARIANT is cast neither to nor from another type (as in Flink); read its"
                + " fields with v['key'] and v[i], its JSON text with JSON_STRING(v)",
            call);
      }
      if (COLLECTIONS.contains(to.getSqlTypeName())
          && to.getSqlTypeName() != from.getSqlTypeName()
          && from.getSqlTypeName() != org.apache.calcite.sql.type.SqlTypeName.NULL
          && from.getSqlTypeName() != org.apache.calcite.sql.type.SqlTypeName.ANY) {
        // Calcite let a STRING through, and the rows failed as they were read (a String is not
        // a Map): Flink casts an ARRAY, MAP or ROW only from one of its kind.
        throw refusedCast(
            from,
            to,
            "an ARRAY, a MAP or a ROW is cast only from one of its kind (as in Flink); build one"
                + " with ARRAY[...], MAP[...] or ROW(...)",
            call);
      }
      if (BitmapType.is(to) != BitmapType.is(from)
          && call.getOperator() != io.calcitebridge.functions.RowText.CAST) {
        throw refusedCast(
            from,
            to,
            "a BITMAP is cast to a string only (as in Flink); BITMAP_FROM_BYTES and"
                + " BITMAP_TO_BYTES convert BYTES to a BITMAP and back",
            call);
      }
    }
  }

  /** The error of a cast from {@code from} to {@code to} refused because {@code why}. */
  private PositionedException refusedCast(
      RelDataType from, RelDataType to, String why, SqlCall call) {
    return new PositionedException(
        ErrorKind.VALIDATION,
        "Cannot cast a value of type "
            + io.calcitebridge.types.TypeNames.render(
                getTypeFactory().createTypeWithNullability(from, true))
            + " to "
            + io.calcitebridge.types.TypeNames.render(
                getTypeFactory().createTypeWithNullability(to, true))
            + ": "
            + why,
        call.getParserPosition());
  }

  /**
   * Flink's {@code CAST(r AS STRING)} of a ROW, which Calcite's CAST refuses: such a call gets the
   * operator {@link io.calcitebridge.functions.RowText#CAST}, which accepts it and converts to the
   * ROW's text; so does a CAST of a BITMAP to a string, its text ({@code {1,2}}).
   */
  private void rowToString(SqlValidatorScope scope, SqlNode expr) {
    if (expr instanceof org.apache.calcite.sql.SqlBasicCall call
        && call.getOperator() == org.apache.calcite.sql.fun.SqlStdOperatorTable.CAST
        && call.operandCount() == 2
        && call.operand(1) instanceof org.apache.calcite.sql.SqlDataTypeSpec spec
        && !org.apache.calcite.sql.SqlUtil.isNullLiteral(call.operand(0), false)
        && org.apache.calcite.sql.type.SqlTypeUtil.inCharFamily(spec.deriveType(this))
        && (io.calcitebridge.functions.RowText.formats(deriveType(scope, call.operand(0)))
            || BitmapType.is(deriveType(scope, call.operand(0))))) {
      call.setOperator(io.calcitebridge.functions.RowText.CAST);
    }
  }

  /**
   * Flink's {@code CAST(b AS INT)} (or TRY_CAST) of a BOOLEAN to a number, which Calcite's CAST
   * refuses: such a call gets the operator {@link io.calcitebridge.functions.BooleanCasts#CAST},
   * which accepts it and converts to 1 or 0.
   */
  private void booleanToNumber(SqlValidatorScope scope, SqlNode expr) {
    // The kinds first: comparing with TRY_CAST initialises Calcite's library operators, which a
    // first statement that casts nothing would not need.
    if (expr instanceof org.apache.calcite.sql.SqlBasicCall call
        && (call.getKind() == SqlKind.CAST || call.getKind() == SqlKind.SAFE_CAST)
        && (call.getOperator() == org.apache.calcite.sql.fun.SqlStdOperatorTable.CAST
            || call.getOperator() == org.apache.calcite.sql.fun.SqlLibraryOperators.TRY_CAST)
        && call.operandCount() == 2
        && call.operand(1) instanceof org.apache.calcite.sql.SqlDataTypeSpec spec
        && !org.apache.calcite.sql.SqlUtil.isNullLiteral(call.operand(0), false)
        && io.calcitebridge.functions.BooleanCasts.converts(
            deriveType(scope, call.operand(0)), spec.deriveType(this))) {
      call.setOperator(
          call.getOperator() == org.apache.calcite.sql.fun.SqlStdOperatorTable.CAST
              ? io.calcitebridge.functions.BooleanCasts.CAST
              : io.calcitebridge.functions.BooleanCasts.TRY_CAST);
    }
  }

  /**
   * The default of {@code LEAD(x, n, default)} or {@code LAG(...)} over a window, when {@code x}
   * may be NULL and the default may not, written {@code CASE WHEN FALSE THEN NULL ELSE default
   * END}: the same value, typed nullable. Calcite types the call NOT NULL when its default is, but
   * the row n away can hold a NULL {@code x}: Calcite's engine then failed with "Cannot convert
   * null to long". With a nullable default the call is nullable, in the validator and in the plan
   * alike (the plan types the window's call again from its operands).
   */
  private void nullableShiftDefault(SqlValidatorScope scope, SqlNode expr) {
    if (expr.getKind() != SqlKind.OVER
        || !(((SqlCall) expr).operand(0) instanceof SqlCall shift)
        || (shift.getKind() != SqlKind.LEAD && shift.getKind() != SqlKind.LAG)
        || shift.operandCount() < 3) {
      return;
    }
    SqlNode fallback = shift.operand(2);
    RelDataType value = deriveType(scope, shift.operand(0));
    if (SqlUtil.isNullLiteral(fallback, true)
        || deriveType(scope, fallback).isNullable()
        || !value.isNullable()
        || value.isStruct()
        || value.getComponentType() != null
        || value.getSqlTypeName() == org.apache.calcite.sql.type.SqlTypeName.MAP) {
      return;
    }
    org.apache.calcite.sql.parser.SqlParserPos pos = fallback.getParserPosition();
    SqlNode typedNull;
    try {
      // A NULL of x's type, so that the CASE is of x's type and casts the default to it (the
      // window's code takes the default as a value of x's Java class).
      typedNull =
          SqlStdOperatorTable.CAST.createCall(
              pos,
              SqlLiteral.createNull(pos),
              org.apache.calcite.sql.type.SqlTypeUtil.convertTypeToSpec(value));
    } catch (RuntimeException e) {
      return;
    }
    shift.setOperand(
        2,
        new org.apache.calcite.sql.fun.SqlCase(
            pos,
            null,
            SqlNodeList.of(SqlLiteral.createBoolean(false, pos)),
            SqlNodeList.of(typedNull),
            fallback));
  }

  /**
   * {@code type} with every ROW in it of {@code StructKind.PEEK_FIELDS_NO_EXPAND}, as the ROW types
   * written in SQL are: Calcite's CAST to a ROW type builds its result as a plain struct (1.42), so
   * a field of such a column needed its table's alias ({@code t.r.a}) where Flink takes {@code
   * r.a}. The same for a ROW constructor: Flink takes {@code r.EXPR$0} of {@code ROW(1, 'x') AS r}.
   */
  private RelDataType peeking(RelDataType type) {
    if (!type.isStruct()) {
      return type;
    }
    RelDataTypeFactory f = getTypeFactory();
    List<RelDataType> fields = new ArrayList<>();
    boolean changed =
        type.getStructKind() != org.apache.calcite.rel.type.StructKind.PEEK_FIELDS_NO_EXPAND;
    for (org.apache.calcite.rel.type.RelDataTypeField field : type.getFieldList()) {
      RelDataType t = peeking(field.getType());
      changed |= t != field.getType();
      fields.add(t);
    }
    if (!changed) {
      return type;
    }
    return f.createTypeWithNullability(
        f.createStructType(
            org.apache.calcite.rel.type.StructKind.PEEK_FIELDS_NO_EXPAND,
            fields,
            type.getFieldNames()),
        type.isNullable());
  }

  // ----- Conditions and sub-queries -----------------------------------------------------------

  /**
   * A condition of a ROW type is refused as any other non-boolean one: Calcite's check takes a
   * record type for a sub-query's and asserts that it has one column (an IllegalStateException).
   */
  @Override
  protected void validateWhereOrOn(SqlValidatorScope scope, SqlNode condition, String clause) {
    try {
      super.validateWhereOrOn(scope, condition, clause);
    } catch (IllegalStateException e) {
      throw newValidationError(condition, RESOURCE.condMustBeBoolean(clause));
    }
    if (!condition.isA(SqlKind.QUERY) && deriveType(scope, condition).isStruct()) {
      throw newValidationError(condition, RESOURCE.condMustBeBoolean(clause));
    }
  }

  /**
   * An OFFSET past the largest BIGINT is refused, as DuckDB refuses it (Calcite's engine gave every
   * row for OFFSET 18446744073709551616); a FETCH or LIMIT past it likewise.
   */
  @Override
  protected void validateSelect(SqlSelect select, RelDataType targetRowType) {
    for (SqlNode n : java.util.Arrays.asList(select.getOffset(), select.getFetch())) {
      if (n instanceof org.apache.calcite.sql.SqlNumericLiteral literal
          && literal.getValue() instanceof java.math.BigDecimal value
          && value.compareTo(java.math.BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
        throw new PositionedException(
            ErrorKind.VALIDATION,
            (n == select.getOffset() ? "OFFSET " : "LIMIT ")
                + value.toPlainString()
                + " is out of range: the largest is "
                + Long.MAX_VALUE,
            n.getParserPosition());
      }
    }
    super.validateSelect(select, targetRowType);
  }

  @Override
  protected void validateHavingClause(SqlSelect select) {
    try {
      super.validateHavingClause(select);
    } catch (IllegalStateException e) {
      SqlNode having = select.getHaving();
      throw newValidationError(having == null ? select : having, RESOURCE.havingMustBeBoolean());
    }
  }

  /**
   * A {@code BITMAP} column takes a {@code BITMAP} (or NULL) only, and a {@code BITMAP} goes into
   * no other column, as in Flink: the bytes of a bitmap and other bytes have the same Java class
   * here, and Calcite's check compares only that.
   */
  @Override
  protected void checkTypeAssignment(
      @org.checkerframework.checker.nullness.qual.Nullable SqlValidatorScope sourceScope,
      org.apache.calcite.sql.validate.SqlValidatorTable table,
      RelDataType sourceRowType,
      RelDataType targetRowType,
      SqlNode query) {
    List<org.apache.calcite.rel.type.RelDataTypeField> sources = sourceRowType.getFieldList();
    List<org.apache.calcite.rel.type.RelDataTypeField> targets = targetRowType.getFieldList();
    for (int i = 0; i < Math.min(sources.size(), targets.size()); i++) {
      RelDataType source = sources.get(i).getType();
      RelDataType target = targets.get(i).getType();
      if (BitmapType.is(source) != BitmapType.is(target)
          && source.getSqlTypeName() != org.apache.calcite.sql.type.SqlTypeName.NULL) {
        throw newValidationError(
            query,
            RESOURCE.typeNotAssignable(
                targets.get(i).getName(),
                io.calcitebridge.types.TypeNames.render(target),
                sources.get(i).getName(),
                io.calcitebridge.types.TypeNames.render(source)));
      }
    }
    refuseIncompatibleColumns(table, sources, targets, query);
    super.checkTypeAssignment(sourceScope, table, sourceRowType, targetRowType, query);
  }

  /**
   * A column of a query goes into a sink column of another kind only where Flink casts it
   * implicitly: a string is not an ARRAY, a MAP, a ROW or a BOOLEAN, nor a collection anything but
   * a collection of its kind. Calcite's check let them through, and the rows failed while they were
   * written (a ClassCastException of a String to a List or a Map). The error points at the query's
   * column where it can.
   */
  private void refuseIncompatibleColumns(
      org.apache.calcite.sql.validate.SqlValidatorTable table,
      List<org.apache.calcite.rel.type.RelDataTypeField> sources,
      List<org.apache.calcite.rel.type.RelDataTypeField> targets,
      SqlNode query) {
    for (int i = 0; i < Math.min(sources.size(), targets.size()); i++) {
      RelDataType source = sources.get(i).getType();
      RelDataType target = targets.get(i).getType();
      if (compatible(source, target)) {
        continue;
      }
      SqlNode at = query;
      SqlNode body =
          query instanceof org.apache.calcite.sql.SqlInsert insert ? insert.getSource() : query;
      List<SqlNode> column = columnValues(body, i, sources.size());
      if (column != null && takesEach(table, targets.get(i), column)) {
        continue;
      }
      if (body instanceof SqlSelect select
          && select.getSelectList().size() == sources.size()
          && !(select.getSelectList().get(i) instanceof SqlIdentifier id && id.isStar())) {
        at = select.getSelectList().get(i);
      } else if (body instanceof SqlCall values
          && values.getKind() == SqlKind.VALUES
          && !values.getOperandList().isEmpty()
          && values.getOperandList().get(0) instanceof SqlCall row
          && row.operandCount() == sources.size()) {
        at = row.operand(i); // the first row's value
      }
      throw new PositionedException(
          ErrorKind.VALIDATION,
          "Column types of query result and sink for '"
              + String.join(".", table.getQualifiedName())
              + "' do not match: incompatible types for sink column '"
              + targets.get(i).getName()
              + "' at position "
              + i
              + " (the query gives "
              + io.calcitebridge.types.TypeNames.render(source)
              + ", the column is "
              + io.calcitebridge.types.TypeNames.render(target)
              + ")",
          at.getParserPosition());
    }
  }

  /**
   * The expressions that give column {@code i} of an INSERT's source {@code body}, of {@code width}
   * columns: the item of a SELECT list, or each row's value of a VALUES; null for another query.
   */
  private static @Nullable List<SqlNode> columnValues(SqlNode body, int i, int width) {
    if (body instanceof SqlSelect select
        && select.getSelectList().size() == width
        && !(select.getSelectList().get(i) instanceof SqlIdentifier id && id.isStar())) {
      return List.of(select.getSelectList().get(i));
    }
    if (!(body instanceof SqlCall values) || values.getKind() != SqlKind.VALUES) {
      return null;
    }
    List<SqlNode> out = new ArrayList<>();
    for (SqlNode row : values.getOperandList()) {
      if (!(row instanceof SqlCall r) || r.operandCount() != width) {
        return null;
      }
      out.add(r.operand(i));
    }
    return out;
  }

  /**
   * Whether column {@code target} takes each of {@code values}, the expressions of a query column
   * whose type it does not take. Each value goes in that it takes on its own: Calcite types the
   * column of {@code VALUES (1.5), (NULL)} into a FLOAT column DOUBLE (1.5 and the NULL, typed
   * FLOAT, make a DOUBLE), while each value goes into a FLOAT column. A query parameter's number
   * ({@link ParameterNumber}) goes into a narrower column of numbers when it fits, as a driver's
   * parameter does (an {@code int} into a {@code TINYINT} column, a {@code float} into a {@code
   * FLOAT} one); one that does not fit is an error at its placeholder.
   */
  private boolean takesEach(
      org.apache.calcite.sql.validate.SqlValidatorTable table,
      org.apache.calcite.rel.type.RelDataTypeField target,
      List<SqlNode> values) {
    RelDataType type = target.getType();
    for (SqlNode value : values) {
      if (value instanceof ParameterNumber p && fitsParameter(table, target, p)) {
        continue;
      }
      if (SqlUtil.isNullLiteral(value, false)) {
        continue; // a NULL of no type (CAST(NULL AS DOUBLE) has its type's check)
      }
      RelDataType own = getValidatedNodeTypeIfKnown(value);
      if (own == null || !compatible(own, type)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether parameter {@code p}'s number goes into the column {@code target} of numbers: an integer
   * into any integer column, a float into a FLOAT column. False for another column; an error at the
   * placeholder when the column's type does not hold the value.
   */
  private static boolean fitsParameter(
      org.apache.calcite.sql.validate.SqlValidatorTable table,
      org.apache.calcite.rel.type.RelDataTypeField target,
      ParameterNumber p) {
    org.apache.calcite.sql.type.SqlTypeName to = target.getType().getSqlTypeName();
    java.math.BigDecimal value = java.util.Objects.requireNonNull(p.bigDecimalValue());
    java.math.BigDecimal low;
    java.math.BigDecimal high;
    int bits =
        switch (to) {
          case TINYINT -> 8;
          case SMALLINT -> 16;
          case INTEGER -> 32;
          case BIGINT -> 64;
          default -> 0;
        };
    if (p.isExact() && p.isInteger() && bits > 0) {
      high = java.math.BigDecimal.valueOf(2).pow(bits - 1).subtract(java.math.BigDecimal.ONE);
      low = high.negate().subtract(java.math.BigDecimal.ONE);
    } else if (!p.isExact()
        && (to == org.apache.calcite.sql.type.SqlTypeName.REAL
            || to == org.apache.calcite.sql.type.SqlTypeName.FLOAT)) {
      low = new java.math.BigDecimal(-Float.MAX_VALUE);
      high = new java.math.BigDecimal(Float.MAX_VALUE);
    } else {
      return false;
    }
    if (value.compareTo(low) >= 0 && value.compareTo(high) <= 0) {
      return true;
    }
    String name = io.calcitebridge.types.TypeNames.render(target.getType());
    throw new PositionedException(
        ErrorKind.VALIDATION,
        "Parameter "
            + p.number()
            + " ("
            + (p.isExact() ? value.toPlainString() : String.valueOf(value.doubleValue()))
            + ") is out of the range of the "
            + name
            + " column '"
            + target.getName()
            + "' of '"
            + String.join(".", table.getQualifiedName())
            + "': a "
            + name
            + " holds "
            + low.stripTrailingZeros().toPlainString()
            + " to "
            + high.stripTrailingZeros().toPlainString(),
        p.getParserPosition());
  }

  /** Whether a value of {@code source} may go into a column of {@code target} (see above). */
  private static boolean compatible(RelDataType source, RelDataType target) {
    org.apache.calcite.sql.type.SqlTypeName from = source.getSqlTypeName();
    org.apache.calcite.sql.type.SqlTypeName to = target.getSqlTypeName();
    if (from == org.apache.calcite.sql.type.SqlTypeName.NULL
        || from == org.apache.calcite.sql.type.SqlTypeName.ANY
        || to == org.apache.calcite.sql.type.SqlTypeName.ANY) {
      return true;
    }
    boolean fromCollection = COLLECTIONS.contains(from);
    boolean toCollection = COLLECTIONS.contains(to);
    if (fromCollection || toCollection) {
      if (from != to) {
        return false;
      }
      if (source.isStruct()) {
        List<org.apache.calcite.rel.type.RelDataTypeField> a = source.getFieldList();
        List<org.apache.calcite.rel.type.RelDataTypeField> b = target.getFieldList();
        if (a.size() != b.size()) {
          return false;
        }
        for (int j = 0; j < a.size(); j++) {
          if (!compatible(a.get(j).getType(), b.get(j).getType())) {
            return false;
          }
        }
        return true;
      }
      if (from == org.apache.calcite.sql.type.SqlTypeName.MAP) {
        return source.getKeyType() != null
            && target.getKeyType() != null
            && source.getValueType() != null
            && target.getValueType() != null
            && compatible(source.getKeyType(), target.getKeyType())
            && compatible(source.getValueType(), target.getValueType());
      }
      RelDataType a = source.getComponentType();
      RelDataType b = target.getComponentType();
      return a == null || b == null || compatible(a, b);
    }
    if (!FLINK_ROOTS.containsKey(from) || !FLINK_ROOTS.containsKey(to)) {
      // a type of our own (BITMAP, a discovered column): checked elsewhere or by Calcite
      return !(to == org.apache.calcite.sql.type.SqlTypeName.BOOLEAN
          && org.apache.calcite.sql.type.SqlTypeUtil.inCharFamily(source));
    }
    return implicitlyCastable(FLINK_ROOTS.get(from), FLINK_ROOTS.get(to), source, target);
  }

  /**
   * The Flink type root of a Calcite type name (REAL and FLOAT are Flink's FLOAT, as in DESCRIBE).
   */
  private static final java.util.Map<org.apache.calcite.sql.type.SqlTypeName, String> FLINK_ROOTS =
      flinkRoots();

  private static java.util.Map<org.apache.calcite.sql.type.SqlTypeName, String> flinkRoots() {
    java.util.Map<org.apache.calcite.sql.type.SqlTypeName, String> roots =
        new java.util.EnumMap<>(org.apache.calcite.sql.type.SqlTypeName.class);
    for (org.apache.calcite.sql.type.SqlTypeName name :
        List.of(
            org.apache.calcite.sql.type.SqlTypeName.CHAR,
            org.apache.calcite.sql.type.SqlTypeName.VARCHAR,
            org.apache.calcite.sql.type.SqlTypeName.BOOLEAN,
            org.apache.calcite.sql.type.SqlTypeName.BINARY,
            org.apache.calcite.sql.type.SqlTypeName.VARBINARY,
            org.apache.calcite.sql.type.SqlTypeName.DECIMAL,
            org.apache.calcite.sql.type.SqlTypeName.TINYINT,
            org.apache.calcite.sql.type.SqlTypeName.SMALLINT,
            org.apache.calcite.sql.type.SqlTypeName.INTEGER,
            org.apache.calcite.sql.type.SqlTypeName.BIGINT,
            org.apache.calcite.sql.type.SqlTypeName.DOUBLE,
            org.apache.calcite.sql.type.SqlTypeName.DATE,
            org.apache.calcite.sql.type.SqlTypeName.TIME,
            org.apache.calcite.sql.type.SqlTypeName.TIMESTAMP,
            org.apache.calcite.sql.type.SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE)) {
      roots.put(name, name.name());
    }
    roots.put(org.apache.calcite.sql.type.SqlTypeName.REAL, "FLOAT");
    roots.put(org.apache.calcite.sql.type.SqlTypeName.FLOAT, "FLOAT");
    for (org.apache.calcite.sql.type.SqlTypeName name :
        org.apache.calcite.sql.type.SqlTypeName.YEAR_INTERVAL_TYPES) {
      roots.put(name, "INTERVAL_YEAR_MONTH");
    }
    for (org.apache.calcite.sql.type.SqlTypeName name :
        org.apache.calcite.sql.type.SqlTypeName.DAY_INTERVAL_TYPES) {
      roots.put(name, "INTERVAL_DAY_TIME");
    }
    return roots;
  }

  private static final List<String> EXACT = List.of("TINYINT", "SMALLINT", "INTEGER", "BIGINT");

  /**
   * Flink's implicit casts ({@code LogicalTypeCasts.supportsImplicitCast}), which decide which
   * query columns a sink column takes: widening among numbers, strings into strings, bytes into
   * bytes, a TIMESTAMP into a DATE or a TIME, between TIMESTAMP and TIMESTAMP_LTZ. Nullability is
   * left to the sink's NOT NULL check, lengths and precisions to the sink's own type, as in Flink.
   * A DOUBLE into an INT or an INT into a STRING is refused: it would be truncated or reformatted
   * in silence (3.5 became 3).
   */
  private static boolean implicitlyCastable(
      String from, String to, RelDataType source, RelDataType target) {
    if (from.equals(to)) {
      return true;
    }
    boolean fromNumber =
        EXACT.contains(from) || List.of("DECIMAL", "FLOAT", "DOUBLE").contains(from);
    boolean fromInterval = from.startsWith("INTERVAL");
    boolean toInterval = to.startsWith("INTERVAL");
    if ((fromInterval && (EXACT.contains(to) || to.equals("DECIMAL")))
        || (toInterval && (EXACT.contains(from) || from.equals("DECIMAL")))) {
      org.apache.calcite.sql.SqlIntervalQualifier qualifier =
          (fromInterval ? source : target).getIntervalQualifier();
      return qualifier != null && qualifier.isSingleDatetimeField();
    }
    return switch (to) {
        // Flink takes no VARCHAR into a CHAR; Calcite types some rows of literals VARCHAR that
        // Flink types CHAR (VALUES ('ab'), (NULL)), so the strings go into either, as lengths do.
      case "CHAR", "VARCHAR" -> from.equals("CHAR") || from.equals("VARCHAR");
      case "BINARY", "VARBINARY" -> from.equals("BINARY") || from.equals("VARBINARY");
      case "DECIMAL", "DOUBLE" -> fromNumber;
      case "FLOAT" -> EXACT.contains(from) || from.equals("DECIMAL");
      case "SMALLINT", "INTEGER", "BIGINT" ->
          EXACT.contains(from) && EXACT.indexOf(from) < EXACT.indexOf(to);
      case "DATE", "TIME" -> from.equals("TIMESTAMP");
      case "TIMESTAMP" -> from.equals("TIMESTAMP_WITH_LOCAL_TIME_ZONE");
      case "TIMESTAMP_WITH_LOCAL_TIME_ZONE" -> from.equals("TIMESTAMP");
      default -> false;
    };
  }

  private static final java.util.Set<org.apache.calcite.sql.type.SqlTypeName> COLLECTIONS =
      java.util.EnumSet.of(
          org.apache.calcite.sql.type.SqlTypeName.ARRAY,
          org.apache.calcite.sql.type.SqlTypeName.MAP,
          org.apache.calcite.sql.type.SqlTypeName.MULTISET,
          org.apache.calcite.sql.type.SqlTypeName.ROW);

  /** Calls that take a BITMAP as the value it is, not as bytes. */
  private static final java.util.Set<SqlKind> BITMAP_KINDS =
      java.util.EnumSet.of(
          SqlKind.CASE,
          SqlKind.COALESCE,
          SqlKind.NULLIF,
          SqlKind.CAST,
          SqlKind.SAFE_CAST,
          SqlKind.IS_NULL,
          SqlKind.IS_NOT_NULL,
          SqlKind.ROW,
          SqlKind.ARRAY_VALUE_CONSTRUCTOR,
          SqlKind.MAP_VALUE_CONSTRUCTOR,
          SqlKind.AS,
          SqlKind.COUNT,
          SqlKind.EQUALS,
          SqlKind.NOT_EQUALS,
          SqlKind.IS_DISTINCT_FROM,
          SqlKind.IS_NOT_DISTINCT_FROM);

  /**
   * A BITMAP is held as its bytes, so the functions of BYTES would take it as bytes ({@code
   * SUBSTRING(bitmap ...)} made a "BITMAP" of two bytes). As in Flink, only the BITMAP functions,
   * the conditional expressions, casts, equality and NULL tests take one.
   */
  private void refuseBitmapOperands(SqlCall call, SqlValidatorScope scope) {
    String name = call.getOperator().getName().toUpperCase(java.util.Locale.ROOT);
    if (BITMAP_KINDS.contains(call.getKind())
        || name.startsWith("BITMAP_")
        || name.equals("TYPEOF")
        || name.equals("IF")
        || name.equals("IFNULL")) {
      return;
    }
    for (SqlNode operand : call.getOperandList()) {
      if (operand == null || operand instanceof org.apache.calcite.sql.SqlNodeList) {
        continue;
      }
      RelDataType type = getValidatedNodeTypeIfKnown(operand);
      if (type != null && BitmapType.is(type)) {
        throw new PositionedException(
            ErrorKind.VALIDATION,
            "Cannot apply '"
                + call.getOperator().getName()
                + "' to a BITMAP: a BITMAP is taken by the BITMAP_* functions (BITMAP_TO_BYTES"
                + " gives its bytes, BITMAP_TO_STRING its text)",
            call.getParserPosition());
      }
    }
  }

  /**
   * {@code PERCENTILE_CONT} and {@code PERCENTILE_DISC ... WITHIN GROUP} are refused by name:
   * Calcite parses and validates them, but neither its engine nor the DuckDB translation has them
   * (the planner failed with "not enough rules"), and Flink has neither.
   */
  @Override
  public void validateAggregateParams(
      SqlCall aggCall,
      @org.checkerframework.checker.nullness.qual.Nullable SqlNode filter,
      @org.checkerframework.checker.nullness.qual.Nullable SqlNodeList distinctList,
      @org.checkerframework.checker.nullness.qual.Nullable SqlNodeList orderList,
      SqlValidatorScope scope) {
    if (aggCall.getKind() == SqlKind.PERCENTILE_CONT
        || aggCall.getKind() == SqlKind.PERCENTILE_DISC) {
      throw new PositionedException(
          ErrorKind.UNSUPPORTED,
          aggCall.getOperator().getName()
              + "(...) WITHIN GROUP (ORDER BY ...) is not supported; use PERCENTILE(value,"
              + " fraction), Flink's continuous percentile of a group",
          aggCall.getParserPosition());
    }
    super.validateAggregateParams(aggCall, filter, distinctList, orderList, scope);
  }

  /** {@code EXISTS} and {@code UNIQUE} take a sub-query; the parser lets any expression follow. */
  @Override
  public void validateCall(SqlCall call, SqlValidatorScope scope) {
    rowToString(scope, call);
    refuseVariantCast(scope, call);
    if ((call.getKind() == SqlKind.EXISTS || call.getKind() == SqlKind.UNIQUE)
        && call.operandCount() == 1
        && !call.operand(0).isA(SqlKind.QUERY)) {
      throw new PositionedException(
          ErrorKind.VALIDATION,
          call.getOperator().getName()
              + " takes a sub-query, such as EXISTS (SELECT ...), not an"
              + " expression",
          call.operand(0).getParserPosition());
    }
    if (io.calcitebridge.functions.StreamingFunctions.isStreaming(call.getOperator())) {
      throw new PositionedException(
          ErrorKind.UNSUPPORTED,
          call.getOperator().getName()
              + " is for streaming queries only: a batch query has no watermark or processing"
              + " time",
          call.getParserPosition());
    }
    super.validateCall(call, scope);
    refuseBitmapOperands(call, scope);
    if (call.getKind() == SqlKind.BETWEEN) {
      refuseOperandsWithoutCommonType(call, scope);
    }
    if (call.getKind() == SqlKind.ITEM) {
      refuseConstantIndexBelowOne(call, scope);
    }
    if (call.getOperator() instanceof org.apache.calcite.sql.SqlFunction
        && !NULL_TYPED_OK.contains(call.getOperator().getName())
        && deriveType(scope, call).getSqlTypeName()
            == org.apache.calcite.sql.type.SqlTypeName.NULL) {
      // ABS(NULL), BIT_AND(NULL): a function of an untyped NULL has no implementation to run.
      throw new PositionedException(
          ErrorKind.VALIDATION,
          "Cannot infer the type of "
              + call.getOperator().getName()
              + "(...) from an untyped NULL; give it a type, as in CAST(NULL AS INT)",
          call.getParserPosition());
    }
  }

  /**
   * {@code ts BETWEEN 'a' AND FALSE} validated (each bound alone compares with {@code ts} after
   * coercion) and failed in the planner, which compared the string and the boolean bound (a
   * ClassCastException). Operands without a common type are refused, as in Flink.
   */
  private void refuseOperandsWithoutCommonType(SqlCall call, SqlValidatorScope scope) {
    List<RelDataType> types = new ArrayList<>();
    for (SqlNode operand : call.getOperandList()) {
      RelDataType type = operand == null ? null : deriveType(scope, operand);
      if (type != null && type.getSqlTypeName() != org.apache.calcite.sql.type.SqlTypeName.NULL) {
        types.add(type);
      }
    }
    if (!types.isEmpty() && getTypeFactory().leastRestrictive(types) == null) {
      throw new PositionedException(
          ErrorKind.VALIDATION,
          "Cannot apply BETWEEN to values of types "
              + types.stream().map(RelDataType::getFullTypeString).distinct().toList()
              + "; cast them to one type",
          call.getParserPosition());
    }
  }

  /**
   * {@code a[0]} and {@code a[-1]} of an ARRAY are refused while validating, as Flink refuses a
   * constant index below 1 ("Array element access needs an index starting at 1"). An index computed
   * while the query runs ({@code a[i]}, {@code a[1 - 1]}) gives NULL below 1, as past the end: the
   * answer Flink's documentation gives, where Flink itself returns -1 (a defect; see
   * docs/flink.md).
   */
  private void refuseConstantIndexBelowOne(SqlCall call, SqlValidatorScope scope) {
    if (call.operandCount() != 2
        || deriveType(scope, call.operand(0)).getSqlTypeName()
            != org.apache.calcite.sql.type.SqlTypeName.ARRAY) {
      return;
    }
    java.math.BigDecimal index = constantIndex(call.operand(1));
    if (index != null && index.signum() <= 0) {
      throw new PositionedException(
          ErrorKind.VALIDATION,
          "Array element access needs an index starting at 1 but was "
              + index.toPlainString()
              + " (as in Flink)",
          call.operand(1).getParserPosition());
    }
  }

  /** The value of an integer literal, with any signs before it; null for anything else. */
  private static java.math.@Nullable BigDecimal constantIndex(SqlNode node) {
    if (node instanceof org.apache.calcite.sql.SqlNumericLiteral literal && literal.isExact()) {
      return literal.getValueAs(java.math.BigDecimal.class);
    }
    if (node instanceof SqlCall sign
        && (sign.getKind() == SqlKind.MINUS_PREFIX || sign.getKind() == SqlKind.PLUS_PREFIX)
        && sign.operandCount() == 1) {
      java.math.BigDecimal inner = constantIndex(sign.operand(0));
      return inner == null || sign.getKind() == SqlKind.PLUS_PREFIX ? inner : inner.negate();
    }
    return null;
  }

  /** Functions whose result may be an untyped NULL: they pass their operands through. */
  private static final Set<String> NULL_TYPED_OK =
      Set.of("COALESCE", "NULLIF", "IFNULL", "NVL", "IF", "CASE", "CAST");

  // ----- Star expansion -------------------------------------------------------------------

  @Override
  protected void addToSelectList(
      List<SqlNode> list,
      Set<String> aliases,
      List<Map.Entry<String, RelDataType>> fieldList,
      SqlNode exp,
      SelectScope scope,
      boolean includeSystemVars) {
    if (exp instanceof SqlIdentifier) {
      ColumnDef column = catalogColumn((SqlIdentifier) exp, scope);
      if (column != null
          && (column.kind() == ColumnKind.DYNAMIC
              || column.kind() == ColumnKind.SHADOW
              || ExpansionStrategy.isHidden(column, strategy))) {
        // Keep the item while Calcite still counts positions (NATURAL JOIN and USING permute
        // the expanded items by index), but let it claim no alias; it goes in
        // validateSelectList.
        super.addToSelectList(
            list, new HashSet<>(aliases), fieldList, exp, scope, includeSystemVars);
        hiddenItems.add(list.get(list.size() - 1));
        return;
      }
    }
    super.addToSelectList(list, aliases, fieldList, exp, scope, includeSystemVars);
  }

  @Override
  protected RelDataType validateSelectList(
      SqlNodeList selectItems, SqlSelect select, RelDataType targetRowType) {
    RelDataType rowType = super.validateSelectList(selectItems, select, targetRowType);
    SelectScope scope = getRawSelectScope(select);
    List<SqlNode> expanded = scope == null ? null : scope.getExpandedSelectList();
    if (hiddenItems.isEmpty() || expanded == null) {
      return rowType;
    }
    List<SqlNode> kept = new ArrayList<>();
    RelDataTypeFactory.Builder fields = getTypeFactory().builder();
    for (int i = 0; i < expanded.size(); i++) {
      if (!hiddenItems.contains(expanded.get(i))) {
        kept.add(expanded.get(i));
        fields.add(rowType.getFieldList().get(i));
      }
    }
    if (kept.size() == expanded.size()) {
      return rowType;
    }
    scope.setExpandedSelectList(kept);
    select.setSelectList(new SqlNodeList(kept, select.getSelectList().getParserPosition()));
    return fields.build();
  }

  /**
   * NATURAL JOIN matches visible columns only: once Calcite has validated the join, it becomes a
   * {@code JOIN ... USING} of the common visible columns, so expansion and conversion agree.
   */
  @Override
  protected void validateFrom(SqlNode node, RelDataType targetRowType, SqlValidatorScope scope) {
    super.validateFrom(node, targetRowType, scope);
    if (node instanceof org.apache.calcite.sql.SqlTableRef ref) {
      Hints.checkOptions(ref, getNamespace(ref.operand(0)), getCatalogReader().getSchemaPaths());
    }
  }

  @Override
  protected void validateJoin(SqlJoin join, SqlValidatorScope scope) {
    super.validateJoin(join, scope);
    if (strategy.isEmpty() || !join.isNatural()) {
      return;
    }
    List<String> left = visibleNames(join.getLeft());
    List<String> right = visibleNames(join.getRight());
    SqlNodeList using = new SqlNodeList(join.getParserPosition());
    for (String name : left) {
      if (right.contains(name)) {
        using.add(new SqlIdentifier(name, join.getParserPosition()));
      }
    }
    join.setOperand(1, SqlLiteral.createBoolean(false, join.getParserPosition()));
    if (using.isEmpty()) {
      join.setOperand(4, JoinConditionType.ON.symbol(join.getParserPosition()));
      join.setOperand(5, SqlLiteral.createBoolean(true, join.getParserPosition()));
    } else {
      join.setOperand(4, JoinConditionType.USING.symbol(join.getParserPosition()));
      join.setOperand(5, using);
    }
  }

  private List<String> visibleNames(SqlNode from) {
    if (from instanceof SqlJoin) {
      List<String> names = new ArrayList<>(visibleNames(((SqlJoin) from).getLeft()));
      names.addAll(visibleNames(((SqlJoin) from).getRight()));
      return names;
    }
    SqlValidatorNamespace ns = java.util.Objects.requireNonNull(getNamespace(from), "namespace");
    SqlValidatorTable table = ns.resolve().getTable();
    CatalogTable bridgeTable = table == null ? null : table.unwrap(CatalogTable.class);
    List<String> names = new ArrayList<>();
    for (String name : ns.getRowType().getFieldNames()) {
      int i = bridgeTable == null ? -1 : bridgeTable.def().indexOf(name);
      if (i < 0 || !ExpansionStrategy.isHidden(bridgeTable.def().columns().get(i), strategy)) {
        names.add(name);
      }
    }
    return names;
  }

  /** The catalog column {@code id} names, when it is a column of a catalog table in scope. */
  private @Nullable ColumnDef catalogColumn(SqlIdentifier id, SelectScope scope) {
    SqlQualified q = scope.fullyQualify(id);
    if (q.namespace == null || q.suffix().size() != 1) {
      return null;
    }
    SqlValidatorTable table = q.namespace.getTable();
    CatalogTable bridgeTable = table == null ? null : table.unwrap(CatalogTable.class);
    if (bridgeTable == null) {
      return null;
    }
    TableDef def = bridgeTable.def();
    String name = q.suffix().get(0);
    int i = def.indexOf(name);
    if (i >= 0) {
      return def.columns().get(i);
    }
    // A column discovered for this statement is in the table's row type but not in its
    // definition; it is dynamic, so `*` leaves it out.
    DiscoveryScope discovery = DiscoveryScope.current();
    List<ColumnDef> found = discovery == null ? null : discovery.discovered(def.name());
    if (found != null) {
      for (ColumnDef c : found) {
        if (c.name().equals(name)) {
          return c;
        }
      }
    }
    return null;
  }
}

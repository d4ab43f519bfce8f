package io.calcitebridge.functions;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.apache.calcite.adapter.enumerable.CallImplementor;
import org.apache.calcite.adapter.enumerable.EnumUtils;
import org.apache.calcite.adapter.enumerable.NullPolicy;
import org.apache.calcite.adapter.enumerable.RexImpTable;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.linq4j.tree.Types;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.schema.FunctionParameter;
import org.apache.calcite.schema.ImplementableFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.SqlOperandCountRanges;
import org.apache.calcite.sql.type.SqlOperandTypeChecker;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A scalar function the user added to an environment (a Python function, through {@code
 * env.create_function} or {@code CREATE FUNCTION ... LANGUAGE PYTHON}). Its implementation is an
 * opaque {@link #handle} that the runtime installed with {@link #setInvoker} calls a batch of rows
 * at a time; Calcite's engine calls it here one row at a time where it cannot batch (the planner's
 * constant reduction, a join condition), and a batch at a time in a projection or a filter.
 *
 * <p>Declared argument types make the validator cast the operands to them (Calcite's coercion of a
 * user-defined function's operands); a function without them takes operands of any type, as many as
 * its Python signature names. The result is always nullable: the function may return None.
 */
public final class UserFunction extends SqlUserDefinedFunction {
  /** Calls the implementation of a function over rows of argument values. */
  public interface Invoker {
    /**
     * The results of {@code function} over {@code rows} (each one argument value a column, in
     * Calcite's runtime representation), whose types are {@code arguments}'s fields.
     */
    Object[] apply(UserFunction function, RelDataType arguments, List<Object[]> rows);
  }

  private static volatile @Nullable Invoker invoker;

  /** The functions whose calls generated code makes, by {@link #key}. */
  private static final ConcurrentMap<String, Site> SITES = new ConcurrentHashMap<>();

  private record Site(UserFunction function, RelDataType arguments) {}

  private static final JavaTypeFactoryImpl JAVA_TYPES = new JavaTypeFactoryImpl();

  /** Kept here: the superclass keeps only checkers that are {@code SqlOperandMetadata}. */
  private final SqlOperandTypeChecker operands;

  private final long id;
  private final Object handle;
  private final RelDataType result;
  private final @Nullable List<RelDataType> parameters;
  private final boolean deterministic;
  private final boolean vectorized;
  private final String language;
  private final String target;

  /**
   * A function {@code name} computed by {@code handle} (known to the runtime by {@code id}), of
   * result {@code result}; {@code parameters} null for operands of any type, {@code arity} of them.
   */
  public UserFunction(
      String name,
      long id,
      Object handle,
      RelDataType result,
      @Nullable List<RelDataType> parameters,
      int arity,
      boolean deterministic,
      boolean vectorized,
      String language,
      String target) {
    this(
        name,
        id,
        handle,
        result,
        parameters,
        arity,
        parameters == null ? arity : parameters.size(),
        deterministic,
        vectorized,
        language,
        target);
  }

  /**
   * A function as above that takes {@code arity} to {@code maxArity} operands ({@code -1}: any
   * number more) of any type when {@code parameters} is null: a Python function with parameters
   * that have defaults, or with {@code *args}.
   */
  public UserFunction(
      String name,
      long id,
      Object handle,
      RelDataType result,
      @Nullable List<RelDataType> parameters,
      int arity,
      int maxArity,
      boolean deterministic,
      boolean vectorized,
      String language,
      String target) {
    this(
        name,
        checker(parameters, arity, maxArity),
        id,
        handle,
        result,
        parameters,
        deterministic,
        vectorized,
        language,
        target);
  }

  @SuppressWarnings("deprecation")
  private UserFunction(
      String name,
      SqlOperandTypeChecker operands,
      long id,
      Object handle,
      RelDataType result,
      @Nullable List<RelDataType> parameters,
      boolean deterministic,
      boolean vectorized,
      String language,
      String target) {
    super(
        new SqlIdentifier(name, SqlParserPos.ZERO),
        b -> b.getTypeFactory().createTypeWithNullability(result, true),
        null,
        operands,
        null,
        new Impl());
    this.operands = operands;
    ((Impl) getFunction()).owner = this;
    this.id = id;
    this.handle = handle;
    this.result = result;
    this.parameters = parameters == null ? null : List.copyOf(parameters);
    this.deterministic = deterministic;
    this.vectorized = vectorized;
    this.language = language;
    this.target = target;
  }

  private static SqlOperandTypeChecker checker(
      @Nullable List<RelDataType> parameters, int arity, int maxArity) {
    if (parameters == null) {
      return OperandTypes.variadic(
          maxArity < 0
              ? SqlOperandCountRanges.from(arity)
              : SqlOperandCountRanges.between(arity, Math.max(arity, maxArity)));
    }
    List<SqlTypeFamily> families = new ArrayList<>();
    for (RelDataType p : parameters) {
      SqlTypeFamily family = p.getSqlTypeName().getFamily();
      families.add(family == null ? SqlTypeFamily.ANY : family);
    }
    List<RelDataType> types = List.copyOf(parameters);
    return OperandTypes.operandMetadata(
        families, (RelDataTypeFactory f) -> types, i -> "arg" + i, i -> false);
  }

  /** Installs the runtime that calls the functions' implementations. */
  public static void setInvoker(Invoker runtime) {
    invoker = runtime;
  }

  public long id() {
    return id;
  }

  public Object handle() {
    return handle;
  }

  /** The declared result type (the call's type is its nullable form). */
  public RelDataType result() {
    return result;
  }

  /** The declared parameter types, or null when the function takes operands of any type. */
  public @Nullable List<RelDataType> parameters() {
    return parameters;
  }

  /** Whether the function is computed from a whole column at once (pyarrow arrays). */
  public boolean isVectorized() {
    return vectorized;
  }

  /** {@code PYTHON} or {@code JAVA}. */
  public String language() {
    return language;
  }

  /** What the function was made from: {@code 'package.module.attr'}, or the Python object. */
  public String target() {
    return target;
  }

  @Override
  public org.apache.calcite.sql.SqlOperandCountRange getOperandCountRange() {
    return operands.getOperandCountRange();
  }

  @Override
  public boolean checkOperandTypes(
      org.apache.calcite.sql.SqlCallBinding callBinding, boolean throwOnFailure) {
    return operands.checkOperandTypes(callBinding, throwOnFailure);
  }

  @Override
  public String getAllowedSignatures(String opNameToUse) {
    return operands.getAllowedSignatures(this, opNameToUse);
  }

  @Override
  public SqlKind getKind() {
    return SqlKind.OTHER_FUNCTION;
  }

  @Override
  public boolean isDeterministic() {
    return deterministic;
  }

  @Override
  public SqlFunctionCategory getFunctionType() {
    return SqlFunctionCategory.USER_DEFINED_FUNCTION;
  }

  /**
   * The results of this function over {@code rows} of arguments of the types of {@code arguments}'
   * fields.
   */
  public Object[] apply(RelDataType arguments, List<Object[]> rows) {
    Invoker runtime = invoker;
    if (runtime == null) {
      throw new IllegalStateException("no runtime calls user-defined functions");
    }
    return runtime.apply(this, arguments, rows);
  }

  /** The key under which generated code finds this function called with {@code arguments}. */
  public String key(RelDataType arguments) {
    String key = id + "|" + arguments.getFullTypeString();
    SITES.putIfAbsent(key, new Site(this, arguments));
    return key;
  }

  /** Generated code's call: the function of {@code key} over one row {@code args}. */
  public static @Nullable Object call(String key, Object[] args) {
    Site site = SITES.get(key);
    if (site == null) {
      throw new IllegalStateException("The function of " + key + " was dropped");
    }
    return site.function().apply(site.arguments(), List.<Object[]>of(args))[0];
  }

  /** Forgets the call sites of this function (it was dropped). */
  public void forget() {
    SITES.values().removeIf(s -> s.function() == this);
  }

  /** The row type of the operands of {@code call}. */
  public static RelDataType argumentType(RelDataTypeFactory factory, List<RelDataType> operands) {
    RelDataTypeFactory.Builder b = factory.builder();
    for (int i = 0; i < operands.size(); i++) {
      b.add("a" + i, operands.get(i));
    }
    return b.build();
  }

  /** One row's call from generated code. */
  private static final class Impl implements ImplementableFunction {
    private @Nullable UserFunction owner;

    @Override
    public List<FunctionParameter> getParameters() {
      return List.of();
    }

    @Override
    public CallImplementor getImplementor() {
      return RexImpTable.createImplementor(
          (translator, call, operands) -> implement(call, operands), NullPolicy.NONE, false);
    }

    private Expression implement(RexCall call, List<Expression> operands) {
      UserFunction f = java.util.Objects.requireNonNull(owner);
      List<RelDataType> types = new ArrayList<>();
      for (org.apache.calcite.rex.RexNode o : call.operands) {
        types.add(o.getType());
      }
      String key = f.key(argumentType(io.calcitebridge.types.BridgeTypeFactory.INSTANCE, types));
      List<Expression> boxed = new ArrayList<>();
      for (Expression o : operands) {
        boxed.add(
            o.getType() instanceof Class<?> c && c.isPrimitive()
                ? Expressions.box(o)
                : EnumUtils.convert(o, Object.class));
      }
      Expression value =
          Expressions.call(
              Types.lookupMethod(UserFunction.class, "call", String.class, Object[].class),
              Expressions.constant(key),
              Expressions.newArrayInit(Object.class, boxed));
      return EnumUtils.convert(value, JAVA_TYPES.getJavaClass(call.getType()));
    }
  }
}

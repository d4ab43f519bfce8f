package io.calcitebridge.functions;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.TimeZone;
import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.enumerable.CallImplementor;
import org.apache.calcite.adapter.enumerable.EnumUtils;
import org.apache.calcite.adapter.enumerable.NullPolicy;
import org.apache.calcite.adapter.enumerable.RexImpTable;
import org.apache.calcite.adapter.enumerable.RexToLixTranslator;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.schema.FunctionParameter;
import org.apache.calcite.schema.ImplementableFunction;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlOperandCountRange;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlOperandTypeChecker;
import org.apache.calcite.sql.type.SqlReturnTypeInference;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeTransforms;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;
import org.apache.calcite.util.BuiltInMethod;

/**
 * A Flink function implemented by public static Java methods of one name: a call runs the one with
 * as many parameters as the call has operands (or a varargs one); of two such methods, the one
 * whose first parameter is a {@code String} takes a character first operand. Operands are converted
 * to the method's parameter types. With {@link NullPolicy#STRICT} a NULL operand gives NULL without
 * calling the method; with {@link NullPolicy#NONE} the method sees the NULLs (its parameters are
 * then boxed or references).
 *
 * <p>The Enumerable engine and the planner's constant reduction both run the method, so a folded
 * constant has the value the engine computes.
 */
final class Fn extends SqlUserDefinedFunction {
  /** Kept here: the superclass keeps only checkers that are {@code SqlOperandMetadata}. */
  private final SqlOperandTypeChecker operands;

  Fn(
      String name,
      SqlReturnTypeInference returnType,
      SqlOperandTypeChecker operands,
      Class<?> impl,
      String method,
      NullPolicy nulls) {
    super(
        new SqlIdentifier(name, SqlParserPos.ZERO),
        returnType,
        null,
        operands,
        null,
        new Impl(methods(impl, method), nulls));
    this.operands = operands;
  }

  /**
   * {@code TRANSLATE3}, whose calls the parser makes with the category {@code STRING}, is looked up
   * in that category only; every other function is found in any.
   */
  @Override
  public SqlFunctionCategory getFunctionType() {
    return getName().equals("TRANSLATE3")
        ? SqlFunctionCategory.STRING
        : SqlFunctionCategory.USER_DEFINED_FUNCTION;
  }

  /**
   * Functions never folded into a constant while planning: {@code UUID()} gives another value each
   * call, the others read the clock or the session time zone, which the planner's constant
   * reduction does not have.
   */
  private static final java.util.Set<String> NOT_CONSTANT =
      java.util.Set.of(
          "UUID",
          "NOW",
          "CURRENT_ROW_TIMESTAMP",
          "UNIX_TIMESTAMP",
          "FROM_UNIXTIME",
          "CAST_TIMESTAMP_TO_LTZ",
          "CAST_LTZ_TO_TIMESTAMP",
          "CAST_LTZ_TO_STRING",
          // WindowFunctions: windows of a TIMESTAMP_LTZ follow the session time zone.
          "$WINDOWS",
          "$WINDOW_START",
          "$WINDOW_END",
          "$WINDOW_TIME",
          "$GROUP_TUMBLE",
          "$GROUP_HOP");

  @Override
  public boolean isDeterministic() {
    return !NOT_CONSTANT.contains(getName());
  }

  @Override
  public SqlOperandCountRange getOperandCountRange() {
    return operands.getOperandCountRange();
  }

  @Override
  public boolean checkOperandTypes(SqlCallBinding callBinding, boolean throwOnFailure) {
    return operands.checkOperandTypes(callBinding, throwOnFailure);
  }

  @Override
  public String getAllowedSignatures(String opNameToUse) {
    return operands.getAllowedSignatures(this, opNameToUse);
  }

  private static List<Method> methods(Class<?> impl, String name) {
    List<Method> out = STATIC_METHODS.get(impl).get(name);
    if (out == null) {
      throw new IllegalArgumentException("no method " + impl.getName() + "." + name);
    }
    return out;
  }

  /**
   * The public static methods of a class by name, read once per class: each {@code getMethods()}
   * copies every method of the class, which for the hundreds of functions a first session's
   * operator table builds from some twenty classes was a tenth of its reflection.
   */
  private static final ClassValue<java.util.Map<String, List<Method>>> STATIC_METHODS =
      new ClassValue<>() {
        @Override
        protected java.util.Map<String, List<Method>> computeValue(Class<?> type) {
          java.util.Map<String, List<Method>> byName = new java.util.HashMap<>();
          for (Method m : type.getMethods()) {
            if (Modifier.isStatic(m.getModifiers())) {
              byName.computeIfAbsent(m.getName(), k -> new ArrayList<>()).add(m);
            }
          }
          return byName;
        }
      };

  /** The methods of one function, one per number of operands. */
  private static final class Impl implements ImplementableFunction {
    /** The Java classes of SQL types in generated code (the type system plays no part). */
    private static final JavaTypeFactoryImpl JAVA_TYPES = new JavaTypeFactoryImpl();

    private final List<Method> methods;
    private final NullPolicy nulls;

    Impl(List<Method> methods, NullPolicy nulls) {
      this.methods = methods;
      this.nulls = nulls;
    }

    @Override
    public List<FunctionParameter> getParameters() {
      return List.of();
    }

    @Override
    public CallImplementor getImplementor() {
      return RexImpTable.createImplementor(
          (translator, call, operands) -> call(translator, call, operands), nulls, false);
    }

    private Expression call(
        RexToLixTranslator translator, RexCall call, List<Expression> operands) {
      Method m =
          pick(
              call.operands.size(),
              !call.operands.isEmpty()
                  && SqlTypeFamily.CHARACTER.contains(call.operands.get(0).getType()));
      Class<?>[] params = m.getParameterTypes();
      List<Expression> args = new ArrayList<>();
      int context = context(m);
      if (context == 1 && params[0] == TimeZone.class) {
        args.add(Expressions.call(BuiltInMethod.TIME_ZONE.method, translator.getRoot()));
      } else if (context == 1) {
        args.add(translator.getRoot());
      }
      int fixed = m.isVarArgs() ? params.length - 1 : params.length;
      for (int i = context; i < fixed; i++) {
        args.add(convert(operands.get(i - context), params[i]));
      }
      if (m.isVarArgs()) {
        Class<?> element = params[fixed].getComponentType();
        List<Expression> rest = new ArrayList<>();
        for (int i = fixed - context; i < operands.size(); i++) {
          rest.add(convert(operands.get(i), element));
        }
        args.add(Expressions.newArrayInit(element, rest));
      }
      Expression result = Expressions.call(m, args);
      if (m.getReturnType() == Object.class) {
        // GREATEST and LEAST: one method for values of every type.
        result = EnumUtils.convert(result, JAVA_TYPES.getJavaClass(call.getType()));
      }
      return result;
    }

    /**
     * {@code e} as a {@code type}; a primitive becomes an {@code Object} by {@code valueOf}: the
     * cast {@code (Object) -1} that a conversion writes is read by the compiler as a subtraction,
     * and {@code LEAST(-1, 5)} failed to compile.
     */
    private static Expression convert(Expression e, Class<?> type) {
      if (type == Object.class && e.getType() instanceof Class<?> c && c.isPrimitive()) {
        return Expressions.box(e);
      }
      return EnumUtils.convert(e, type);
    }

    /**
     * 1 when the method's first parameter is not an operand but the session's {@code TimeZone} or
     * the {@code DataContext} (the query's start time), else 0.
     */
    private static int context(Method m) {
      Class<?>[] params = m.getParameterTypes();
      return params.length > 0 && (params[0] == TimeZone.class || params[0] == DataContext.class)
          ? 1
          : 0;
    }

    private Method pick(int n, boolean string) {
      Method found = null;
      for (Method m : methods) {
        int c = context(m);
        if (!m.isVarArgs() && m.getParameterCount() - c == n) {
          if (found == null || (n > 0 && (m.getParameterTypes()[c] == String.class) == string)) {
            found = m;
          }
        }
      }
      if (found != null) {
        return found;
      }
      for (Method m : methods) {
        if (m.isVarArgs() && n >= m.getParameterCount() - 1 - context(m)) {
          return m;
        }
      }
      throw new IllegalStateException("no implementation for " + n + " operands");
    }
  }

  // ---- factories of the categories' functions and result types ---------------------------

  /** Whether a function's result may be NULL. */
  enum Nulls {
    /** NULL when an operand is NULL: nullable when an operand is. */
    ANY,
    /** May be NULL whatever its operands: always nullable. */
    ALWAYS,
    /** Never NULL. */
    NEVER
  }

  /** A result of type {@code type} (built from the type factory), nullable as {@code nulls}. */
  static SqlReturnTypeInference type(
      java.util.function.Function<RelDataTypeFactory, org.apache.calcite.rel.type.RelDataType> type,
      Nulls nulls) {
    SqlReturnTypeInference base = b -> type.apply(b.getTypeFactory());
    switch (nulls) {
      case ANY:
        return base.andThen(SqlTypeTransforms.TO_NULLABLE);
      case ALWAYS:
        return base.andThen(SqlTypeTransforms.FORCE_NULLABLE);
      default:
        return base.andThen(SqlTypeTransforms.TO_NOT_NULLABLE);
    }
  }

  /** Flink's {@code STRING}. */
  static SqlReturnTypeInference string(Nulls nulls) {
    return type(f -> f.createSqlType(SqlTypeName.VARCHAR, Integer.MAX_VALUE), nulls);
  }

  static SqlReturnTypeInference of(SqlTypeName name, Nulls nulls) {
    return type(f -> f.createSqlType(name), nulls);
  }

  /** A function run by the static methods {@code method} of {@code impl} (see {@link Fn}). */
  static SqlOperator fn(
      String name,
      SqlReturnTypeInference type,
      SqlOperandTypeChecker operands,
      Class<?> impl,
      String method,
      NullPolicy nulls) {
    return new Fn(name, type, operands, impl, method, nulls);
  }

  /** A function that is NULL when any operand is NULL. */
  static SqlOperator strict(
      String name,
      SqlReturnTypeInference type,
      SqlOperandTypeChecker operands,
      Class<?> impl,
      String method) {
    return fn(name, type, operands, impl, method, NullPolicy.STRICT);
  }

  /**
   * {@code checker}, but refusing a {@code DATE} or {@code TIME} first operand before any coercion,
   * as Flink's type checks of {@code JSON_STRING} and {@code DATE_FORMAT} do (Calcite's implicit
   * coercion cast it to what the checker takes).
   */
  static SqlOperandTypeChecker notDateOrTime(SqlOperandTypeChecker checker) {
    return new SqlOperandTypeChecker() {
      @Override
      public boolean checkOperandTypes(SqlCallBinding b, boolean throwOnFailure) {
        SqlTypeName t = b.getOperandType(0).getSqlTypeName();
        if (t == SqlTypeName.DATE || t == SqlTypeName.TIME) {
          if (throwOnFailure) {
            throw b.newValidationSignatureError();
          }
          return false;
        }
        return checker.checkOperandTypes(b, throwOnFailure);
      }

      @Override
      public SqlOperandCountRange getOperandCountRange() {
        return checker.getOperandCountRange();
      }

      @Override
      public String getAllowedSignatures(SqlOperator op, String opName) {
        return checker.getAllowedSignatures(op, opName);
      }
    };
  }
}

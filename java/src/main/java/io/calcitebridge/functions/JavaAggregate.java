package io.calcitebridge.functions;

import io.calcitebridge.errors.SourceException;
import java.io.Closeable;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.apache.calcite.adapter.enumerable.CallImplementor;
import org.apache.calcite.adapter.enumerable.EnumUtils;
import org.apache.calcite.adapter.enumerable.NullPolicy;
import org.apache.calcite.adapter.enumerable.RexImpTable;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.linq4j.tree.Types;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.schema.FunctionParameter;
import org.apache.calcite.schema.ImplementableFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The finisher of an aggregate function written in Java, in Flink's shape: {@code
 * createAccumulator()} returns a new accumulator, {@code accumulate(acc, args...)} adds one row's
 * arguments to it, {@code getValue(acc)} gives the result. As for a Python aggregate ({@link
 * UserAggregateFunction}), a call {@code f(a, b)} becomes {@code f$finish(ARRAY_AGG(ROW(a, b)))};
 * this function then runs the accumulator over a group's rows, called directly by Calcite's engine.
 */
public final class JavaAggregate extends SqlUserDefinedFunction implements Closeable {
  private static final AtomicLong IDS = new AtomicLong();
  private static final ConcurrentMap<String, Site> SITES = new ConcurrentHashMap<>();
  private static final JavaTypeFactoryImpl JAVA_TYPES = new JavaTypeFactoryImpl();

  private record Site(
      JavaAggregate function,
      List<UnaryOperator<@Nullable Object>> arguments,
      UnaryOperator<@Nullable Object> result) {}

  private final long id;
  private final String label;
  private final Class<?> cls;
  private final Object instance;
  private final Method create;
  private final Method accumulate;
  private final Method getValue;
  private final RelDataType result;
  private final @Nullable List<RelDataType> parameters;
  private final List<String> jars;
  private final @Nullable Closeable loader;
  private boolean fromObject;

  /**
   * The finisher of aggregate {@code name} of class {@code cls}, computed on {@code instance};
   * {@link IllegalArgumentException} naming what is wrong with the class's methods.
   */
  @SuppressWarnings("deprecation")
  public JavaAggregate(
      String name,
      Class<?> cls,
      Object instance,
      List<String> jars,
      @Nullable Closeable loader,
      Function<String, RelDataType> types) {
    this(name, cls, instance, jars, loader, types, methods(cls));
  }

  @SuppressWarnings("deprecation")
  private JavaAggregate(
      String name,
      Class<?> cls,
      Object instance,
      List<String> jars,
      @Nullable Closeable loader,
      Function<String, RelDataType> types,
      Method[] methods) {
    super(
        new SqlIdentifier(name + UserAggregateFunction.FINISH, SqlParserPos.ZERO),
        b -> b.getTypeFactory().createTypeWithNullability(resultOf(cls, methods[2], types), true),
        null,
        OperandTypes.ANY,
        null,
        new Impl());
    ((Impl) getFunction()).owner = this;
    this.id = IDS.incrementAndGet();
    this.label = name;
    this.cls = cls;
    this.instance = instance;
    this.create = methods[0];
    this.accumulate = methods[1];
    this.getValue = methods[2];
    this.result = resultOf(cls, getValue, types);
    Class<?>[] params = accumulate.getParameterTypes();
    List<RelDataType> declared = new ArrayList<>();
    for (int i = 1; i < params.length; i++) {
      String t = JavaFunction.typeName(params[i]);
      if (t == null) {
        declared = null;
        break;
      }
      declared.add(types.apply(t));
    }
    this.parameters = declared == null ? null : List.copyOf(declared);
    this.jars = List.copyOf(jars);
    this.loader = loader;
  }

  /** Whether {@code cls} has Flink's aggregate methods. */
  public static boolean isAggregate(Class<?> cls) {
    boolean create = false;
    boolean value = false;
    for (Method m : cls.getMethods()) {
      create |= m.getName().equals("createAccumulator") && m.getParameterCount() == 0;
      value |= m.getName().equals("getValue") && m.getParameterCount() == 1;
    }
    return create && value;
  }

  private static Method[] methods(Class<?> cls) {
    Method create = null;
    Method accumulate = null;
    Method value = null;
    for (Method m : cls.getMethods()) {
      if (m.isBridge() || m.isSynthetic() || Modifier.isStatic(m.getModifiers())) {
        continue;
      }
      switch (m.getName()) {
        case "createAccumulator" -> create = m.getParameterCount() == 0 ? m : create;
        case "getValue" -> value = m.getParameterCount() == 1 ? m : value;
        case "accumulate" -> {
          if (m.getParameterCount() >= 1) {
            if (accumulate != null) {
              throw new IllegalArgumentException(
                  "Aggregate function class '"
                      + cls.getName()
                      + "' has more than one accumulate method; give it one");
            }
            accumulate = m;
          }
        }
        default -> {}
      }
    }
    if (create == null || accumulate == null || value == null) {
      throw new IllegalArgumentException(
          "Aggregate function class '"
              + cls.getName()
              + "' needs public methods createAccumulator(), accumulate(acc, ...) and"
              + " getValue(acc)");
    }
    return new Method[] {create, accumulate, value};
  }

  private static RelDataType resultOf(
      Class<?> cls, Method getValue, Function<String, RelDataType> types) {
    String t = JavaFunction.typeName(getValue.getReturnType());
    if (t == null) {
      throw new IllegalArgumentException(
          "The getValue method of aggregate function class '"
              + cls.getName()
              + "' returns "
              + getValue.getReturnType().getName()
              + ", which has no SQL type");
    }
    return types.apply(t);
  }

  /** The number of arguments a call takes. */
  public int arity() {
    return accumulate.getParameterCount() - 1;
  }

  /** The types the arguments are cast to, or null when a parameter takes any ({@code Object}). */
  public @Nullable List<RelDataType> parameters() {
    return parameters;
  }

  /** The result type. */
  public RelDataType result() {
    return result;
  }

  public String className() {
    return cls.getName();
  }

  /** The id of the function, unique among the Java aggregate functions of the process. */
  public long id() {
    return id;
  }

  /** The name the function was created under. */
  public String label() {
    return label;
  }

  /**
   * The classes of {@code accumulate}'s parameters after the accumulator, as {@link Class#getName}
   * spells them ({@code java.lang.Long}, {@code long}).
   */
  public List<String> parameterClasses() {
    List<String> out = new ArrayList<>();
    Class<?>[] params = accumulate.getParameterTypes();
    for (int i = 1; i < params.length; i++) {
      out.add(params[i].getName());
    }
    return out;
  }

  /** The jars another JVM loads the class from, as {@link JavaFunction#classJars()} gives. */
  public List<String> classJars() {
    return JavaFunction.classJars(jars, cls);
  }

  /** Marks a function made from an object of the application's (Java API), not from a class. */
  public JavaAggregate fromObject() {
    fromObject = true;
    return this;
  }

  /** Whether the function calls an object of the application's, whose state stays in this JVM. */
  public boolean isFromObject() {
    return fromObject;
  }

  public List<String> jars() {
    return jars;
  }

  @Override
  public org.apache.calcite.sql.SqlOperandCountRange getOperandCountRange() {
    return org.apache.calcite.sql.type.SqlOperandCountRanges.of(1);
  }

  @Override
  public boolean checkOperandTypes(
      org.apache.calcite.sql.SqlCallBinding callBinding, boolean throwOnFailure) {
    return true;
  }

  @Override
  public SqlKind getKind() {
    return SqlKind.OTHER_FUNCTION;
  }

  @Override
  public SqlFunctionCategory getFunctionType() {
    return SqlFunctionCategory.USER_DEFINED_FUNCTION;
  }

  /** Forgets the call sites and closes the class loader of the function's jars. */
  @Override
  public void close() {
    SITES.values().removeIf(s -> s.function() == this);
    if (loader != null) {
      try {
        loader.close();
      } catch (IOException e) {
        // Nothing more to release.
      }
    }
  }

  /** Generated code's call: the aggregate of {@code key} over a group's rows. */
  public static @Nullable Object call(String key, @Nullable Object rows) {
    Site site = SITES.get(key);
    if (site == null) {
      throw new IllegalStateException("The function of " + key + " was dropped");
    }
    JavaAggregate f = site.function();
    Class<?>[] params = f.accumulate.getParameterTypes();
    try {
      Object acc = f.create.invoke(f.instance);
      if (rows instanceof Iterable<?> group) {
        rows:
        for (Object row : group) {
          Object[] values = new Object[params.length];
          values[0] = acc;
          for (int i = 1; i < params.length; i++) {
            Object v =
                row instanceof Object[] a
                    ? a[i - 1]
                    : row instanceof List<?> l ? l.get(i - 1) : params.length == 2 ? row : null;
            v = site.arguments().get(i - 1).apply(v);
            if (v == null && params[i].isPrimitive()) {
              continue rows;
            }
            values[i] = v;
          }
          f.accumulate.invoke(f.instance, values);
        }
      }
      return site.result().apply(f.getValue.invoke(f.instance, acc));
    } catch (InvocationTargetException e) {
      throw JavaFunction.failure(f.label, e.getCause() == null ? e : e.getCause());
    } catch (IllegalAccessException | IllegalArgumentException e) {
      throw JavaFunction.failure(f.label, e);
    } catch (SourceException e) {
      throw e;
    }
  }

  private String key(RelDataType rows) {
    String key = id + "|" + rows.getFullTypeString();
    SITES.computeIfAbsent(
        key,
        k -> {
          List<UnaryOperator<@Nullable Object>> args = new ArrayList<>();
          RelDataType row = rows.getComponentType();
          Class<?>[] params = accumulate.getParameterTypes();
          for (int i = 1; i < params.length; i++) {
            RelDataType t =
                row != null && row.isStruct() && row.getFieldCount() >= i
                    ? row.getFieldList().get(i - 1).getType()
                    : result;
            args.add(JavaFunction.argument(t, params[i]));
          }
          return new Site(this, args, JavaFunction.result(result));
        });
    return key;
  }

  /** The call from generated code. */
  private static final class Impl implements ImplementableFunction {
    private @Nullable JavaAggregate owner;

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
      JavaAggregate f = java.util.Objects.requireNonNull(owner);
      String key = f.key(call.operands.get(0).getType());
      Expression value =
          Expressions.call(
              Types.lookupMethod(JavaAggregate.class, "call", String.class, Object.class),
              Expressions.constant(key),
              EnumUtils.convert(operands.get(0), Object.class));
      return EnumUtils.convert(value, JAVA_TYPES.getJavaClass(call.getType()));
    }
  }
}

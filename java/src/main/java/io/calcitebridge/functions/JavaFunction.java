package io.calcitebridge.functions;

import io.calcitebridge.errors.ErrorKind;
import io.calcitebridge.errors.SourceException;
import java.io.Closeable;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
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
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.linq4j.tree.Types;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.schema.FunctionParameter;
import org.apache.calcite.schema.ImplementableFunction;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperandCountRange;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlOperandCountRanges;
import org.apache.calcite.sql.type.SqlOperandTypeChecker;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A scalar function written in Java (or another JVM language), following Flink's convention: a
 * public class with public {@code eval} methods, overloads allowed; {@code CREATE FUNCTION ... AS
 * 'com.acme.Fn' [LANGUAGE JAVA] [USING JAR '...']} or the Java API's {@code createFunction}.
 *
 * <p>The validator picks the {@code eval} overload whose parameters take the operands' types (the
 * closest one when several do) and types the call by that method's return type ({@link #sqlType}).
 * Calcite's engine calls the method directly, a row at a time, through {@link #call}: generated
 * code names the function by a key, never the user's class, so the class may live in a jar of its
 * own class loader, which {@link #close} releases when the function is dropped. A NULL operand
 * passed to a primitive parameter makes the call NULL without calling the method.
 */
public final class JavaFunction extends SqlUserDefinedFunction implements Closeable {
  private static final AtomicLong IDS = new AtomicLong();

  /** The overloads whose calls generated code makes, by {@link Site} key. */
  private static final ConcurrentMap<String, Site> SITES = new ConcurrentHashMap<>();

  private static final JavaTypeFactoryImpl JAVA_TYPES = new JavaTypeFactoryImpl();

  /** The functions not yet closed, by id: another backend's batch call finds its function here. */
  private static final ConcurrentMap<Long, java.lang.ref.WeakReference<JavaFunction>> LIVE =
      new ConcurrentHashMap<>();

  /**
   * The rows a table function's {@code eval} returns: the accessors of a record's components (none
   * for a row of one value) and the SQL types of the columns.
   */
  record Rows(List<Method> accessors, List<RelDataType> types) {}

  /**
   * One {@code eval} method and the SQL type of its result; {@code rows} the shape of its rows when
   * it is a table function's (its result an {@code ARRAY<ROW<...>>}).
   */
  record Overload(Method method, RelDataType result, @Nullable Rows rows) {
    String signature(String name) {
      StringBuilder b = new StringBuilder(name).append('(');
      Class<?>[] params = method.getParameterTypes();
      for (int i = 0; i < params.length; i++) {
        b.append(i == 0 ? "" : ", ").append(params[i].getSimpleName());
      }
      return b.append(')').toString();
    }
  }

  /** A call of an overload from generated code, with its conversions. */
  private record Site(
      JavaFunction function,
      Overload overload,
      List<UnaryOperator<@Nullable Object>> arguments,
      UnaryOperator<@Nullable Object> result) {}

  private final long id;
  private final String label;
  private final String className;
  private final @Nullable Object instance;
  private final List<Overload> overloads;
  private final boolean deterministic;
  private final List<String> jars;
  private final @Nullable Closeable loader;
  private final Checker checker;
  private boolean fromObject;

  /**
   * A function {@code name} of the class {@code cls}, called on {@code instance} (null when every
   * {@code eval} is static); {@code types} parses a SQL type. {@code loader}, the class loader of
   * the function's jars, is closed with the function.
   */
  public JavaFunction(
      String name,
      Class<?> cls,
      @Nullable Object instance,
      List<String> jars,
      @Nullable Closeable loader,
      Function<String, RelDataType> types) {
    this(name, cls, instance, jars, loader, overloads(cls, instance, types, isTable(cls)));
  }

  @SuppressWarnings("deprecation")
  private JavaFunction(
      String name,
      Class<?> cls,
      @Nullable Object instance,
      List<String> jars,
      @Nullable Closeable loader,
      List<Overload> overloads) {
    this(name, cls, instance, jars, loader, overloads, new Checker(name, overloads));
  }

  @SuppressWarnings("deprecation")
  private JavaFunction(
      String name,
      Class<?> cls,
      @Nullable Object instance,
      List<String> jars,
      @Nullable Closeable loader,
      List<Overload> overloads,
      Checker checker) {
    super(
        new SqlIdentifier(name, SqlParserPos.ZERO),
        b -> infer(name, overloads, b),
        null,
        checker,
        null,
        new Impl());
    ((Impl) getFunction()).owner = this;
    this.id = IDS.incrementAndGet();
    this.label =
        name.endsWith(UserAggregateFunction.FINISH)
            ? name.substring(0, name.length() - UserAggregateFunction.FINISH.length())
            : name;
    this.className = cls.getName();
    this.instance = instance;
    this.overloads = overloads;
    this.jars = List.copyOf(jars);
    this.loader = loader;
    this.checker = checker;
    this.deterministic = deterministic(instance);
    LIVE.put(id, new java.lang.ref.WeakReference<>(this));
  }

  /**
   * The public {@code eval} methods of {@code cls} whose types map to SQL, sorted by signature;
   * {@link IllegalArgumentException} naming what is wrong when there is none.
   */
  private static List<Overload> overloads(
      Class<?> cls, @Nullable Object instance, Function<String, RelDataType> types, boolean table) {
    List<Overload> out = new ArrayList<>();
    List<String> skipped = new ArrayList<>();
    String columns = null;
    for (Method m : cls.getMethods()) {
      if (!m.getName().equals("eval") || m.isBridge() || m.isSynthetic()) {
        continue;
      }
      if (instance == null && !Modifier.isStatic(m.getModifiers())) {
        continue;
      }
      Rows rows = null;
      String returned;
      if (table) {
        List<String> names = new ArrayList<>();
        List<String> typeNames = new ArrayList<>();
        List<Method> accessors = new ArrayList<>();
        returned = rowsOf(m, names, typeNames, accessors);
        if (returned != null && columns != null && !columns.equals(returned)) {
          throw new IllegalArgumentException(
              "The eval methods of table function class '"
                  + cls.getName()
                  + "' return rows of different columns: "
                  + columns
                  + " and "
                  + returned);
        }
        if (returned != null) {
          columns = returned;
          List<RelDataType> columnTypes = new ArrayList<>();
          for (String t : typeNames) {
            columnTypes.add(types.apply(t));
          }
          rows = new Rows(List.copyOf(accessors), List.copyOf(columnTypes));
          returned = "ARRAY<ROW<" + returned + "> NOT NULL>";
        }
      } else {
        returned = typeName(m.getReturnType());
      }
      boolean mapped = returned != null && !m.isVarArgs();
      for (Class<?> p : m.getParameterTypes()) {
        mapped &= p == Object.class || typeName(p) != null;
      }
      if (!mapped) {
        skipped.add(m.toGenericString());
        continue;
      }
      out.add(new Overload(m, types.apply(returned), rows));
    }
    if (out.isEmpty()) {
      throw new IllegalArgumentException(
          "Class '"
              + cls.getName()
              + "' has no public eval method of SQL types"
              + (skipped.isEmpty() ? "" : " (not usable: " + String.join("; ", skipped) + ")"));
    }
    out.sort(Comparator.comparing(o -> o.method().toGenericString()));
    return List.copyOf(out);
  }

  /**
   * Whether {@code cls} is a table function: its public {@code eval} methods all return rows, an
   * {@code Iterable}, {@code Iterator}, {@code Stream} or array of records or of single values.
   */
  public static boolean isTable(Class<?> cls) {
    boolean any = false;
    for (Method m : cls.getMethods()) {
      if (m.getName().equals("eval") && !m.isBridge() && !m.isSynthetic()) {
        Class<?> r = m.getReturnType();
        boolean rows =
            (r.isArray() && r != byte[].class)
                || Iterable.class.isAssignableFrom(r)
                || java.util.Iterator.class.isAssignableFrom(r)
                || java.util.stream.Stream.class.isAssignableFrom(r);
        if (!rows) {
          return false;
        }
        any = true;
      }
    }
    return any;
  }

  /**
   * The columns ({@code a STRING, b INT}) of the rows {@code m} returns, filling {@code names},
   * {@code types} and the record's {@code accessors}; null when they have no SQL types.
   */
  private static @Nullable String rowsOf(
      Method m, List<String> names, List<String> types, List<Method> accessors) {
    java.lang.reflect.Type g = m.getGenericReturnType();
    java.lang.reflect.Type element = null;
    if (m.getReturnType().isArray()) {
      element =
          g instanceof java.lang.reflect.GenericArrayType a
              ? a.getGenericComponentType()
              : m.getReturnType().getComponentType();
    } else if (g instanceof java.lang.reflect.ParameterizedType p
        && p.getActualTypeArguments().length == 1) {
      element = p.getActualTypeArguments()[0];
    }
    Class<?> c =
        element instanceof Class<?> k
            ? k
            : element instanceof java.lang.reflect.ParameterizedType p
                    && p.getRawType() instanceof Class<?> k
                ? k
                : null;
    if (c == null) {
      return null;
    }
    if (c.isRecord()) {
      for (java.lang.reflect.RecordComponent rc : c.getRecordComponents()) {
        String t = columnType(rc.getType());
        if (t == null) {
          return null;
        }
        Method accessor = rc.getAccessor();
        accessor.trySetAccessible();
        names.add(rc.getName());
        types.add(t);
        accessors.add(accessor);
      }
    } else {
      String t = columnType(c);
      if (t == null) {
        return null;
      }
      names.add("f0");
      types.add(t);
    }
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < names.size(); i++) {
      b.append(i == 0 ? "" : ", ")
          .append('`')
          .append(names.get(i))
          .append("` ")
          .append(types.get(i));
    }
    return b.toString();
  }

  /** The SQL type of a column of a table function's rows: no time types (they cross as ticks). */
  private static @Nullable String columnType(Class<?> c) {
    String t = typeName(c);
    return t == null || t.startsWith("TIME") ? null : t;
  }

  private static boolean deterministic(@Nullable Object instance) {
    if (instance == null) {
      return true;
    }
    try {
      Method m = instance.getClass().getMethod("isDeterministic");
      if (m.getReturnType() == boolean.class && m.getParameterCount() == 0) {
        return (Boolean) m.invoke(instance);
      }
    } catch (ReflectiveOperationException | RuntimeException e) {
      // Not Flink's UserDefinedFunction: deterministic.
    }
    return true;
  }

  /** The SQL type (as text) of Java class {@code c}, as a parameter or a result; null for none. */
  public static @Nullable String typeName(Class<?> c) {
    if (c == boolean.class || c == Boolean.class) {
      return "BOOLEAN";
    } else if (c == byte.class || c == Byte.class) {
      return "TINYINT";
    } else if (c == short.class || c == Short.class) {
      return "SMALLINT";
    } else if (c == int.class || c == Integer.class) {
      return "INT";
    } else if (c == long.class || c == Long.class) {
      return "BIGINT";
    } else if (c == float.class || c == Float.class) {
      // Calcite's REAL, held as a Float, which Flink names FLOAT; Calcite's own FLOAT is a double.
      return "REAL";
    } else if (c == double.class || c == Double.class) {
      return "DOUBLE";
    } else if (c == String.class) {
      return "STRING";
    } else if (c == BigDecimal.class) {
      return "DECIMAL(38, 18)";
    } else if (c == byte[].class) {
      return "BYTES";
    } else if (c == LocalDate.class || c == java.sql.Date.class) {
      return "DATE";
    } else if (c == LocalTime.class || c == java.sql.Time.class) {
      return "TIME(0)";
    } else if (c == LocalDateTime.class || c == java.sql.Timestamp.class) {
      return "TIMESTAMP(6)";
    } else if (c == Instant.class) {
      return "TIMESTAMP_LTZ(6)";
    }
    return null;
  }

  /** The call's type: the result of the overload its operands pick, nullable. */
  private static RelDataType infer(String name, List<Overload> overloads, SqlOperatorBinding b) {
    Overload o = choose(overloads, b.collectOperandTypes());
    if (o == null) {
      throw new IllegalStateException("No eval method of " + name + " takes these operands");
    }
    return b.getTypeFactory().createTypeWithNullability(o.result(), true);
  }

  /** The overload that takes operands of {@code types} at the least cost; null when none does. */
  static @Nullable Overload choose(List<Overload> overloads, List<RelDataType> types) {
    Overload best = null;
    int bestCost = Integer.MAX_VALUE;
    for (Overload o : overloads) {
      Class<?>[] params = o.method().getParameterTypes();
      if (params.length != types.size()) {
        continue;
      }
      int total = 0;
      for (int i = 0; i < params.length && total >= 0; i++) {
        int c = cost(types.get(i), params[i]);
        total = c < 0 ? -1 : total + c;
      }
      if (total >= 0 && total < bestCost) {
        best = o;
        bestCost = total;
      }
    }
    return best;
  }

  private static Class<?> boxed(Class<?> c) {
    if (!c.isPrimitive()) {
      return c;
    }
    return org.apache.calcite.linq4j.tree.Primitive.box(c);
  }

  /**
   * What passing an operand of {@code type} to a parameter of class {@code param} costs (0 for the
   * class of the type, more for a widening, most for {@code Object}); -1 when it cannot be passed.
   */
  static int cost(RelDataType type, Class<?> param) {
    SqlTypeName n = type.getSqlTypeName();
    if (n == SqlTypeName.NULL) {
      return 0;
    }
    if (param == Object.class) {
      return 20;
    }
    Class<?> p = boxed(param);
    int rank = integerRank(n);
    if (rank >= 0) {
      int target = integerRank(p);
      if (target >= rank) {
        return target - rank;
      }
      return p == Double.class ? 5 : p == Float.class ? 6 : p == BigDecimal.class ? 7 : -1;
    }
    return switch (n) {
      case BOOLEAN -> p == Boolean.class ? 0 : -1;
      case DECIMAL -> p == BigDecimal.class ? 0 : p == Double.class ? 3 : -1;
        // Flink's FLOAT, a Float: Calcite's REAL, and Calcite's FLOAT (a double in Calcite's
        // engine) of a DDL's FLOAT column or a CAST to FLOAT.
      case REAL, FLOAT -> p == Float.class ? 0 : p == Double.class ? 1 : -1;
      case DOUBLE -> p == Double.class ? 0 : -1;
      case CHAR, VARCHAR -> p == String.class ? 0 : -1;
      case BINARY, VARBINARY -> p == byte[].class ? 0 : -1;
      case DATE -> p == LocalDate.class ? 0 : p == java.sql.Date.class ? 1 : -1;
      case TIME -> p == LocalTime.class ? 0 : p == java.sql.Time.class ? 1 : -1;
      case TIMESTAMP -> p == LocalDateTime.class ? 0 : p == java.sql.Timestamp.class ? 1 : -1;
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> p == Instant.class ? 0 : -1;
      default -> -1;
    };
  }

  private static int integerRank(SqlTypeName n) {
    return switch (n) {
      case TINYINT -> 0;
      case SMALLINT -> 1;
      case INTEGER -> 2;
      case BIGINT -> 3;
      default -> -1;
    };
  }

  private static int integerRank(Class<?> c) {
    if (c == Byte.class) {
      return 0;
    } else if (c == Short.class) {
      return 1;
    } else if (c == Integer.class) {
      return 2;
    } else if (c == Long.class) {
      return 3;
    }
    return -1;
  }

  /**
   * Converts Calcite's runtime value of an operand of {@code type} to a {@code param}: a time or
   * timestamp from its milliseconds, a binary from its {@code ByteString}, anything else as {@link
   * JavaValues} converts it (a date from its day number).
   */
  static UnaryOperator<@Nullable Object> argument(RelDataType type, Class<?> param) {
    Class<?> p = boxed(param);
    if (p == LocalTime.class) {
      return v -> v == null ? null : LocalTime.ofNanoOfDay(((Number) v).longValue() * 1_000_000L);
    } else if (p == java.sql.Time.class) {
      return v ->
          v == null
              ? null
              : java.sql.Time.valueOf(LocalTime.ofNanoOfDay(((Number) v).longValue() * 1_000_000L));
    } else if (p == LocalDateTime.class || p == java.sql.Timestamp.class || p == Instant.class) {
      long perMilli = MILLIS;
      return v -> {
        if (v == null) {
          return null;
        }
        Instant i = instant(((Number) v).longValue(), perMilli);
        if (p == Instant.class) {
          return i;
        }
        LocalDateTime t = LocalDateTime.ofInstant(i, ZoneOffset.UTC);
        return p == LocalDateTime.class ? t : java.sql.Timestamp.valueOf(t);
      };
    }
    UnaryOperator<Object> converted = JavaValues.argument(p);
    return v -> v instanceof ByteString s ? s.getBytes() : converted.apply(v);
  }

  /**
   * Ticks a millisecond of the timestamps a function gets and returns: the planner gives every
   * function its timestamps in milliseconds and widens its results from them ({@code $TS_RESCALE},
   * {@code $TS_WIDEN}), whatever their precision.
   */
  private static final long MILLIS = 1L;

  private static Instant instant(long ticks, long perMilli) {
    long millis = Math.floorDiv(ticks, perMilli);
    long rest = Math.floorMod(ticks, perMilli);
    return Instant.ofEpochMilli(millis).plusNanos(rest * (1_000_000L / perMilli));
  }

  private static long ticks(Instant i, long perMilli) {
    return Math.multiplyExact(i.getEpochSecond(), 1000L * perMilli)
        + i.getNano() / (1_000_000L / perMilli);
  }

  /** Converts a value the method returned to Calcite's runtime value of {@code type}. */
  static UnaryOperator<@Nullable Object> result(RelDataType type) {
    SqlTypeName n = type.getSqlTypeName();
    return switch (n) {
      case VARBINARY, BINARY -> v -> v instanceof byte[] b ? new ByteString(b) : v;
      case DATE ->
          v ->
              v instanceof LocalDate d
                  ? (Object) (int) d.toEpochDay()
                  : v instanceof java.sql.Date d ? (Object) (int) d.toLocalDate().toEpochDay() : v;
      case TIME ->
          v ->
              v instanceof LocalTime t
                  ? (Object) (int) (t.toNanoOfDay() / 1_000_000L)
                  : v instanceof java.sql.Time t
                      ? (Object) (int) (t.toLocalTime().toNanoOfDay() / 1_000_000L)
                      : v;
      case TIMESTAMP, TIMESTAMP_WITH_LOCAL_TIME_ZONE -> {
        long perMilli = MILLIS;
        yield v ->
            v instanceof LocalDateTime t
                ? (Object) ticks(t.toInstant(ZoneOffset.UTC), perMilli)
                : v instanceof java.sql.Timestamp t
                    ? (Object) ticks(t.toLocalDateTime().toInstant(ZoneOffset.UTC), perMilli)
                    : v instanceof Instant i ? (Object) ticks(i, perMilli) : v;
      }
      default -> v -> v;
    };
  }

  /** Converts the rows a table function returned to Calcite's value of an ARRAY of ROWs. */
  private static UnaryOperator<@Nullable Object> rows(Rows shape) {
    List<UnaryOperator<@Nullable Object>> columns = new ArrayList<>();
    for (RelDataType t : shape.types()) {
      columns.add(result(t));
    }
    return v -> {
      List<Object[]> out = new ArrayList<>();
      if (v == null) {
        return out;
      }
      java.util.Iterator<?> it;
      if (v instanceof Iterable<?> i) {
        it = i.iterator();
      } else if (v instanceof java.util.Iterator<?> i) {
        it = i;
      } else if (v instanceof java.util.stream.Stream<?> st) {
        it = st.iterator();
      } else {
        List<Object> items = new ArrayList<>();
        for (int i = 0; i < java.lang.reflect.Array.getLength(v); i++) {
          items.add(java.lang.reflect.Array.get(v, i));
        }
        it = items.iterator();
      }
      while (it.hasNext()) {
        Object e = it.next();
        Object[] row = new Object[columns.size()];
        if (shape.accessors().isEmpty()) {
          row[0] = columns.get(0).apply(e);
        } else if (e != null) {
          for (int i = 0; i < row.length; i++) {
            try {
              row[i] = columns.get(i).apply(shape.accessors().get(i).invoke(e));
            } catch (IllegalAccessException | InvocationTargetException x) {
              throw new IllegalStateException(x.getCause() == null ? x : x.getCause());
            }
          }
        }
        out.add(row);
      }
      return out;
    };
  }

  /** Whether this function returns rows: a table function's finisher. */
  public boolean isTable() {
    return overloads.get(0).rows() != null;
  }

  /** The type of the rows of a table function, {@code ARRAY<ROW<...>>}; else the first result. */
  public RelDataType rowsType() {
    return overloads.get(0).result();
  }

  /** The id of the function, unique in the process. */
  public long id() {
    return id;
  }

  /** The name the function was created under (without a table function's suffix). */
  public String label() {
    return label;
  }

  /** Marks a function made from an object of the application's (Java API), not from a class. */
  public JavaFunction fromObject() {
    fromObject = true;
    return this;
  }

  /** Whether the function calls an object of the application's, whose state stays in this JVM. */
  public boolean isFromObject() {
    return fromObject;
  }

  /**
   * The parameter classes of the {@code eval} overload that operands of {@code types} pick, as
   * {@link Class#getName} spells them ({@code java.lang.Long}, {@code long}, {@code [B}); null when
   * none takes them.
   */
  public @Nullable List<String> parameterClasses(List<RelDataType> types) {
    Overload o = choose(overloads, types);
    if (o == null) {
      return null;
    }
    List<String> out = new ArrayList<>();
    for (Class<?> c : o.method().getParameterTypes()) {
      out.add(c.getName());
    }
    return out;
  }

  /**
   * The jars another JVM loads the class from: the function's own ({@code USING JAR}), else the jar
   * of the class path the class came from; empty when the class is not in a jar file.
   */
  public List<String> classJars() {
    return classJars(jars, overloads.get(0).method().getDeclaringClass());
  }

  /**
   * The jars another JVM loads {@code cls} from: {@code jars} ({@code USING JAR}), else the jar of
   * the class path the class came from; empty when the class is not in a jar file.
   */
  static List<String> classJars(List<String> jars, Class<?> cls) {
    if (!jars.isEmpty()) {
      List<String> out = new ArrayList<>();
      for (String j : jars) {
        out.add(
            j.startsWith("file:") ? java.nio.file.Path.of(java.net.URI.create(j)).toString() : j);
      }
      return out;
    }
    try {
      java.security.CodeSource source = cls.getProtectionDomain().getCodeSource();
      if (source != null && source.getLocation() != null) {
        java.nio.file.Path p = java.nio.file.Path.of(source.getLocation().toURI());
        if (java.nio.file.Files.isRegularFile(p)) {
          return List.of(p.toString());
        }
      }
    } catch (java.net.URISyntaxException | RuntimeException e) {
      // Not a file: no jar to give.
    }
    return List.of();
  }

  /** The name of the function's class. */
  public String className() {
    return className;
  }

  /** The jars the class was loaded from (empty for the class path or an instance). */
  public List<String> jars() {
    return jars;
  }

  /** The signatures of the {@code eval} methods SQL can call, as {@code f(Long, String)}. */
  public List<String> signatures() {
    List<String> out = new ArrayList<>();
    for (Overload o : overloads) {
      out.add(o.signature(label) + " -> " + io.calcitebridge.types.TypeNames.render(o.result()));
    }
    return out;
  }

  @Override
  public SqlOperandCountRange getOperandCountRange() {
    return checker.getOperandCountRange();
  }

  @Override
  public boolean checkOperandTypes(SqlCallBinding callBinding, boolean throwOnFailure) {
    return checker.checkOperandTypes(callBinding, throwOnFailure);
  }

  @Override
  public String getAllowedSignatures(String opNameToUse) {
    return checker.getAllowedSignatures(this, opNameToUse);
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

  /** Forgets the call sites of this function and closes the class loader of its jars. */
  @Override
  public void close() {
    SITES.values().removeIf(s -> s.function() == this);
    LIVE.remove(id);
    if (loader != null) {
      try {
        loader.close();
      } catch (IOException e) {
        // Nothing more to release.
      }
    }
  }

  /** The function of {@code id} while it is not closed; null once it is (or never was). */
  public static @Nullable JavaFunction live(long id) {
    java.lang.ref.WeakReference<JavaFunction> ref = LIVE.get(id);
    JavaFunction f = ref == null ? null : ref.get();
    if (f == null && ref != null) {
      LIVE.remove(id);
    }
    return f;
  }

  /**
   * The {@code eval} method whose parameter classes {@link #parameterClasses} named {@code params};
   * null when none has them.
   */
  public @Nullable Method overload(List<String> params) {
    for (Overload o : overloads) {
      Class<?>[] classes = o.method().getParameterTypes();
      if (classes.length == params.size()) {
        boolean same = true;
        for (int i = 0; i < classes.length && same; i++) {
          same = classes[i].getName().equals(params.get(i));
        }
        if (same && o.rows() == null) {
          return o.method();
        }
      }
    }
    return null;
  }

  /**
   * Calls {@code m}, one of this function's {@code eval} methods, over one row of {@code values}
   * already of its parameter classes: null without a call when a primitive parameter gets a NULL,
   * as on Calcite's engine; a failure of the method as the {@link SourceException} that names the
   * function.
   */
  public @Nullable Object invoke(Method m, @Nullable Object[] values) {
    Class<?>[] params = m.getParameterTypes();
    for (int i = 0; i < values.length; i++) {
      if (values[i] == null && params[i].isPrimitive()) {
        return null;
      }
    }
    try {
      return m.invoke(Modifier.isStatic(m.getModifiers()) ? null : instance, values);
    } catch (InvocationTargetException e) {
      throw failure(label, e.getCause() == null ? e : e.getCause());
    } catch (IllegalAccessException | IllegalArgumentException e) {
      throw failure(label, e);
    }
  }

  /**
   * A handle of {@code m}, one of this function's {@code eval} methods, bound to the function's
   * instance and taking its arguments as one {@code Object[]} (of the parameter classes, no NULL
   * for a primitive one): the call a batch makes once a row, without reflection's per-call checks.
   */
  public MethodHandle handle(Method m) {
    MethodHandle h = bound(m);
    return h.asType(h.type().generic()).asSpreader(Object[].class, m.getParameterCount());
  }

  /** A handle of {@code m}, one of this function's {@code eval} methods, bound to its instance. */
  public MethodHandle bound(Method m) {
    try {
      // A public method of a class that is not (inherited from a package-private base) too.
      m.trySetAccessible();
      MethodHandle h = MethodHandles.lookup().unreflect(m);
      return Modifier.isStatic(m.getModifiers()) ? h : h.bindTo(instance);
    } catch (IllegalAccessException e) {
      throw failure(label, e);
    }
  }

  /** A failure of this function's, naming it, for a value of its result it cannot convert. */
  public SourceException failure(Throwable cause) {
    return failure(label, cause);
  }

  /** Generated code's call: the overload of {@code key} over one row {@code args}. */
  public static @Nullable Object call(String key, @Nullable Object[] args) {
    Site site = SITES.get(key);
    if (site == null) {
      throw new IllegalStateException("The function of " + key + " was dropped");
    }
    Method m = site.overload().method();
    Class<?>[] params = m.getParameterTypes();
    Object[] values = new Object[args.length];
    for (int i = 0; i < args.length; i++) {
      Object v = site.arguments().get(i).apply(args[i]);
      if (v == null && params[i].isPrimitive()) {
        return null;
      }
      values[i] = v;
    }
    JavaFunction f = site.function();
    Object out;
    try {
      out = m.invoke(Modifier.isStatic(m.getModifiers()) ? null : f.instance, values);
    } catch (InvocationTargetException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      throw failure(f.label, cause);
    } catch (IllegalAccessException | IllegalArgumentException e) {
      throw failure(f.label, e);
    }
    try {
      return site.result().apply(out);
    } catch (IllegalStateException e) {
      throw failure(f.label, e.getCause() == null ? e : e.getCause());
    } catch (SourceException e) {
      throw e;
    } catch (RuntimeException e) {
      throw failure(f.label, e);
    }
  }

  static SourceException failure(String name, Throwable cause) {
    StringWriter trace = new StringWriter();
    cause.printStackTrace(new PrintWriter(trace));
    String message = cause.getMessage();
    return new SourceException(
        "The function "
            + name
            + " failed: "
            + cause.getClass().getName()
            + (message == null ? "" : ": " + message),
        ErrorKind.EXECUTION,
        trace.toString());
  }

  /**
   * The key under which generated code finds the overload {@code o} with operands {@code types}.
   */
  private String key(Overload o, List<RelDataType> types) {
    StringBuilder key = new StringBuilder().append(id).append('#').append(overloads.indexOf(o));
    for (RelDataType t : types) {
      key.append('|').append(t.getFullTypeString());
    }
    String k = key.toString();
    SITES.computeIfAbsent(
        k,
        x -> {
          Class<?>[] params = o.method().getParameterTypes();
          List<UnaryOperator<@Nullable Object>> args = new ArrayList<>();
          for (int i = 0; i < params.length; i++) {
            args.add(argument(types.get(i), params[i]));
          }
          Rows shape = o.rows();
          return new Site(this, o, args, shape != null ? rows(shape) : result(o.result()));
        });
    return k;
  }

  /** Validates the operands of a call: their types must pick an {@code eval} overload. */
  private static final class Checker implements SqlOperandTypeChecker {
    private final String name;
    private final List<Overload> overloads;

    Checker(String name, List<Overload> overloads) {
      this.name = name;
      this.overloads = overloads;
    }

    @Override
    public boolean checkOperandTypes(SqlCallBinding binding, boolean throwOnFailure) {
      if (choose(overloads, binding.collectOperandTypes()) != null) {
        return true;
      }
      if (throwOnFailure) {
        throw binding.newValidationSignatureError();
      }
      return false;
    }

    @Override
    public SqlOperandCountRange getOperandCountRange() {
      int min = Integer.MAX_VALUE;
      int max = 0;
      for (Overload o : overloads) {
        min = Math.min(min, o.method().getParameterCount());
        max = Math.max(max, o.method().getParameterCount());
      }
      return SqlOperandCountRanges.between(min, max);
    }

    @Override
    public String getAllowedSignatures(SqlOperator op, String opName) {
      List<String> out = new ArrayList<>();
      for (Overload o : overloads) {
        StringBuilder b = new StringBuilder(opName).append('(');
        Class<?>[] params = o.method().getParameterTypes();
        for (int i = 0; i < params.length; i++) {
          String t = typeName(params[i]);
          b.append(i == 0 ? "" : ", ").append('<').append(t == null ? "ANY" : t).append('>');
        }
        out.add(b.append(')').toString());
      }
      return String.join("\n", out);
    }

    @Override
    public boolean isOptional(int i) {
      return false;
    }
  }

  /** One row's call from generated code. */
  private static final class Impl implements ImplementableFunction {
    private @Nullable JavaFunction owner;

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
      JavaFunction f = java.util.Objects.requireNonNull(owner);
      List<RelDataType> types = new ArrayList<>();
      for (RexNode o : call.operands) {
        types.add(o.getType());
      }
      Overload o = choose(f.overloads, types);
      if (o == null) {
        throw new IllegalStateException("No eval method of " + f.getName() + " takes " + types);
      }
      String key = f.key(o, types);
      List<Expression> boxed = new ArrayList<>();
      for (Expression e : operands) {
        boxed.add(
            e.getType() instanceof Class<?> c && c.isPrimitive()
                ? Expressions.box(e)
                : EnumUtils.convert(e, Object.class));
      }
      Expression value =
          Expressions.call(
              Types.lookupMethod(JavaFunction.class, "call", String.class, Object[].class),
              Expressions.constant(key),
              Expressions.newArrayInit(Object.class, boxed));
      return EnumUtils.convert(value, JAVA_TYPES.getJavaClass(call.getType()));
    }
  }
}

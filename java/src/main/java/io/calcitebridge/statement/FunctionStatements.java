package io.calcitebridge.statement;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.calcitebridge.errors.ConfigException;
import io.calcitebridge.errors.ErrorKind;
import io.calcitebridge.errors.PositionedException;
import io.calcitebridge.errors.SourceException;
import io.calcitebridge.functions.FlinkFunctions;
import io.calcitebridge.functions.JavaFunction;
import io.calcitebridge.functions.UserFunction;
import io.calcitebridge.functions.UserFunctionTable;
import io.calcitebridge.functions.UserFunctionTable.Entry;
import io.calcitebridge.functions.UserFunctionTable.Scope;
import io.calcitebridge.plan.PlannerContext;
import io.calcitebridge.sql.SqlCreateFunction;
import io.calcitebridge.sql.SqlDropFunction;
import io.calcitebridge.sql.SqlShowFunctions;
import io.calcitebridge.udf.FunctionLoader;
import io.calcitebridge.udf.PythonFunction;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The function DDL ({@code CREATE|DROP [TEMPORARY [SYSTEM]] FUNCTION}, {@code SHOW [USER]
 * FUNCTIONS}, {@code DESCRIBE FUNCTION}) and the Python API's {@code create_function}, over the
 * environment's {@link UserFunctionTable}. Messages are Flink's.
 */
public final class FunctionStatements {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final SessionState session;
  private final PlannerContext context;

  public FunctionStatements(SessionState session) {
    this.session = session;
    this.context = session.planner();
  }

  /** Runs a function statement. */
  public RowSet run(SqlNode node) {
    if (node instanceof SqlCreateFunction create) {
      create(create);
      return RowSet.ok("ddl", context.typeFactory());
    } else if (node instanceof SqlDropFunction drop) {
      drop(drop);
      return RowSet.ok("ddl", context.typeFactory());
    }
    SqlShowFunctions show = (SqlShowFunctions) node;
    if (show.described() != null) {
      return describe(show.described(), show.isExtended());
    }
    return show(show);
  }

  private void create(SqlCreateFunction create) {
    String name = create.name().names.get(create.name().names.size() - 1);
    Scope scope =
        create.isSystem()
            ? Scope.TEMPORARY_SYSTEM
            : create.isTemporary() ? Scope.TEMPORARY : Scope.CATALOG;
    Entry old = context.userFunctions().get(name);
    if (old != null) {
      if (create.ifNotExists()) {
        return;
      }
      throw exists(scope, fullName(create.name(), scope), create.name().getParserPosition());
    }
    String key = name.toLowerCase(java.util.Locale.ROOT);
    if (scope == Scope.TEMPORARY_SYSTEM) {
      session.functionHomes().remove(key);
    } else {
      String full = fullName(create.name(), scope);
      session.functionHomes().put(key, full.substring(0, full.lastIndexOf('.')));
    }
    String language = create.language() == null ? "JAVA" : create.language();
    if (language.equals("JAVA") || language.equals("SCALA")) {
      createJava(create, name, scope, language);
      return;
    }
    if (!language.equals("PYTHON")) {
      throw new PositionedException(
          ErrorKind.UNSUPPORTED,
          "Functions of language "
              + language
              + " are not supported: write the function in Java, Scala or Python",
          create.targetLiteral().getParserPosition());
    }
    if (create.jars().size() > 0) {
      throw new PositionedException(
          ErrorKind.UNSUPPORTED,
          "USING JAR applies to Java functions only",
          create.jars().get(0).getParserPosition());
    }
    FunctionLoader loader = session.functionLoader();
    if (loader == null) {
      throw new PositionedException(
          ErrorKind.UNSUPPORTED,
          "Python functions need the environment's Python process",
          create.targetLiteral().getParserPosition());
    }
    Object loaded = loader.load(name, create.target());
    if (!(loaded instanceof PythonFunction fn)) {
      RuntimeException e = failure(String.valueOf(loaded));
      SqlParserPos pos = create.targetLiteral().getParserPosition();
      ErrorKind kind =
          e instanceof SourceException s && s.kind() != ErrorKind.EXECUTION
              ? s.kind()
              : ErrorKind.VALIDATION;
      throw new PositionedException(kind, e.getMessage(), pos);
    }
    add(name, scope, fn, "PYTHON", create.target(), false);
  }

  /** {@code CREATE FUNCTION ... AS 'class' [LANGUAGE JAVA | SCALA] [USING JAR ...]}. */
  private void createJava(SqlCreateFunction create, String name, Scope scope, String language) {
    List<String> jars = new ArrayList<>();
    List<java.net.URL> urls = new ArrayList<>();
    for (SqlNode jar : create.jars().getList()) {
      SqlParserPos pos = jar.getParserPosition();
      String path = ((org.apache.calcite.sql.SqlLiteral) jar).getValueAs(String.class);
      java.nio.file.Path file = jarPath(path, pos);
      checkJarAllowed(path, file, pos);
      jars.add(path);
      try {
        urls.add(file.toUri().toURL());
      } catch (java.net.MalformedURLException e) {
        throw new PositionedException(ErrorKind.CONFIG, "Invalid jar path '" + path + "'", pos);
      }
    }
    SqlParserPos at = create.targetLiteral().getParserPosition();
    java.net.URLClassLoader loader =
        urls.isEmpty()
            ? null
            : new java.net.URLClassLoader(
                urls.toArray(new java.net.URL[0]), FunctionStatements.class.getClassLoader());
    try {
      Class<?> cls;
      try {
        cls =
            Class.forName(
                create.target(),
                true,
                loader != null ? loader : FunctionStatements.class.getClassLoader());
      } catch (ClassNotFoundException | LinkageError e) {
        throw new PositionedException(
            ErrorKind.VALIDATION,
            "Cannot find the class '"
                + create.target()
                + "' of function "
                + name
                + (jars.isEmpty() ? " on the class path" : " in " + String.join(", ", jars))
                + (e instanceof LinkageError ? ": " + e : ""),
            at);
      }
      SqlOperator function;
      try {
        function = javaFunction(name, cls, null, jars, loader);
      } catch (IllegalArgumentException e) {
        throw new PositionedException(ErrorKind.VALIDATION, e.getMessage(), at);
      } catch (PositionedException e) {
        throw e.pos().equals(SqlParserPos.ZERO)
            ? new PositionedException(e.kind(), e.getMessage(), at)
            : e;
      }
      put(name, scope, function, false);
      loader = null;
    } finally {
      if (loader != null) {
        try {
          loader.close();
        } catch (IOException e) {
          // The function was not created; nothing else holds the loader.
        }
      }
    }
  }

  /**
   * The Java function {@code name} of class {@code cls}: called on {@code instance}, or on a new
   * instance of the class when null and an {@code eval} is not static; {@link
   * IllegalArgumentException} naming what is wrong with the class.
   */
  public SqlOperator javaFunction(
      String name,
      Class<?> cls,
      @Nullable Object instance,
      List<String> jars,
      java.io.@Nullable Closeable loader) {
    if (isBuiltIn(name)) {
      throw new io.calcitebridge.errors.CatalogException(
          "Could not register the function "
              + name
              + ": a built-in function has that name; choose another");
    }
    for (Class<?> c = cls; c != null; c = c.getSuperclass()) {
      String n = c.getName();
      if (n.equals("org.apache.flink.table.functions.TableFunction")
          || n.equals("org.apache.flink.table.functions.TableAggregateFunction")
          || n.equals("org.apache.flink.table.functions.AsyncTableFunction")) {
        throw new PositionedException(
            ErrorKind.UNSUPPORTED,
            "The function "
                + name
                + " is a "
                + c.getSimpleName()
                + ": a Java function's eval returns its value, or a table function's its rows"
                + " (docs/functions.md)",
            SqlParserPos.ZERO);
      }
    }
    if (!java.lang.reflect.Modifier.isPublic(cls.getModifiers())) {
      throw new IllegalArgumentException(
          "Class '" + cls.getName() + "' of function " + name + " is not public");
    }
    Object target = instance;
    if (target == null) {
      boolean needed = io.calcitebridge.functions.JavaAggregate.isAggregate(cls);
      for (java.lang.reflect.Method m : cls.getMethods()) {
        needed |=
            m.getName().equals("eval") && !java.lang.reflect.Modifier.isStatic(m.getModifiers());
      }
      if (needed) {
        try {
          target = cls.getConstructor().newInstance();
        } catch (NoSuchMethodException | InstantiationException | IllegalAccessException e) {
          throw new IllegalArgumentException(
              "Class '"
                  + cls.getName()
                  + "' of function "
                  + name
                  + " cannot be instantiated: it needs a public constructor without arguments");
        } catch (java.lang.reflect.InvocationTargetException e) {
          Throwable cause = e.getCause() == null ? e : e.getCause();
          throw new IllegalArgumentException(
              "The constructor of class '" + cls.getName() + "' failed: " + cause);
        }
      }
    }
    if (io.calcitebridge.functions.JavaAggregate.isAggregate(cls)) {
      io.calcitebridge.functions.JavaAggregate agg =
          new io.calcitebridge.functions.JavaAggregate(
              name, cls, java.util.Objects.requireNonNull(target), jars, loader, this::javaType);
      return new io.calcitebridge.functions.UserAggregateFunction(
          name, agg, agg.result(), agg.arity(), agg.parameters());
    }
    if (JavaFunction.isTable(cls)) {
      JavaFunction rows =
          new JavaFunction(
              name + io.calcitebridge.functions.UserAggregateFunction.FINISH,
              cls,
              target,
              jars,
              loader,
              this::javaType);
      return new io.calcitebridge.functions.UserTableFunction(name, rows, rows.rowsType());
    }
    return new JavaFunction(name, cls, target, jars, loader, this::javaType);
  }

  private RelDataType javaType(String text) {
    return context.typeFactory().createTypeWithNullability(context.parseType(text), true);
  }

  /**
   * Adds the Java function {@code function} (a {@link JavaFunction}, or a table function of one),
   * replacing a function of its name when asked.
   */
  public void put(String name, Scope scope, SqlOperator function, boolean replace) {
    UserFunctionTable table = context.userFunctions();
    synchronized (table) {
      Entry entry = new Entry(name, scope, null, function);
      if (!replace && table.get(name) != null) {
        entry.release();
        throw exists(scope, name, SqlParserPos.ZERO);
      }
      table.put(entry);
    }
    session.catalog().touched();
  }

  private static java.nio.file.Path jarPath(String path, SqlParserPos pos) {
    if (path.contains("://") && !path.startsWith("file://")) {
      throw new PositionedException(
          ErrorKind.UNSUPPORTED,
          "USING JAR takes a jar file of this machine, not '" + path + "'",
          pos);
    }
    java.nio.file.Path file =
        path.startsWith("file:")
            ? java.nio.file.Path.of(java.net.URI.create(path))
            : java.nio.file.Path.of(path);
    if (!java.nio.file.Files.isRegularFile(file)) {
      throw new PositionedException(
          ErrorKind.CONFIG, "The jar '" + path + "' does not exist or is not a file", pos);
    }
    return file;
  }

  /**
   * Refuses a jar outside {@code java.allowed-jars} when external access is off or the
   * configuration is locked.
   */
  private void checkJarAllowed(String path, java.nio.file.Path file, SqlParserPos pos) {
    SessionConfig config = session.config();
    boolean confined = config.locked() || "false".equals(config.get(SessionConfig.EXTERNAL_ACCESS));
    if (!confined) {
      return;
    }
    String allowed = config.get(SessionConfig.JAVA_ALLOWED_JARS);
    java.nio.file.Path real;
    try {
      real = file.toRealPath();
    } catch (IOException e) {
      real = file.toAbsolutePath().normalize();
    }
    for (String entry : allowed.split(";")) {
      if (entry.isEmpty()) {
        continue;
      }
      java.nio.file.Path root;
      try {
        root = java.nio.file.Path.of(entry).toRealPath();
      } catch (IOException | RuntimeException e) {
        continue;
      }
      if (real.equals(root) || real.startsWith(root)) {
        return;
      }
    }
    throw new PositionedException(
        ErrorKind.ACCESS,
        "jar '"
            + path
            + "' is not allowed; add it, or a directory above it, to '"
            + SessionConfig.JAVA_ALLOWED_JARS
            + "' (now: "
            + (allowed.isEmpty() ? "empty" : allowed)
            + ")",
        pos);
  }

  /**
   * Adds the Python function {@code fn} as {@code name} (replacing a function of that name when
   * {@code replace}); the Python API's {@code create_function}.
   */
  public void add(
      String name,
      Scope scope,
      PythonFunction fn,
      String language,
      String target,
      boolean replace) {
    JsonNode spec;
    try {
      spec = JSON.readTree(fn.spec());
    } catch (IOException e) {
      throw new ConfigException("The function " + name + " has no readable signature");
    }
    if (spec.has("error")) {
      throw failure(spec.toString());
    }
    RelDataType result = type(name, "return type", spec.path("return_type").asText());
    List<RelDataType> parameters = null;
    if (spec.path("arg_types").isArray()) {
      parameters = new ArrayList<>();
      for (JsonNode t : spec.path("arg_types")) {
        parameters.add(type(name, "argument type", t.asText()));
      }
    }
    if (isBuiltIn(name)) {
      throw new io.calcitebridge.errors.CatalogException(
          "Could not register the function "
              + name
              + ": a built-in function has that name; choose another");
    }
    UserFunction function =
        new UserFunction(
            name,
            spec.path("id").asLong(),
            fn,
            result,
            parameters,
            spec.path("arity").asInt(parameters == null ? 0 : parameters.size()),
            spec.path("max_arity")
                .asInt(spec.path("arity").asInt(parameters == null ? 0 : parameters.size())),
            spec.path("deterministic").asBoolean(true),
            spec.path("vectorized").asBoolean(false),
            language,
            target);
    SqlOperator wrapper = null;
    if (spec.path("table").asBoolean(false)) {
      function =
          new UserFunction(
              name + io.calcitebridge.functions.UserAggregateFunction.FINISH,
              function.id(),
              fn,
              result,
              parameters,
              function.getOperandCountRange().getMin(),
              function.getOperandCountRange().getMax(),
              function.isDeterministic(),
              false,
              language,
              target);
      wrapper = new io.calcitebridge.functions.UserTableFunction(name, function);
    } else if (spec.has("aggregate_arity")) {
      function =
          new UserFunction(
              name + io.calcitebridge.functions.UserAggregateFunction.FINISH,
              function.id(),
              fn,
              result,
              null,
              1,
              function.isDeterministic(),
              false,
              language,
              target);
      List<RelDataType> types = null;
      if (spec.path("aggregate_types").isArray()) {
        types = new ArrayList<>();
        for (JsonNode t : spec.path("aggregate_types")) {
          types.add(type(name, "argument type", t.asText()));
        }
      }
      wrapper =
          new io.calcitebridge.functions.UserAggregateFunction(
              name, function, spec.path("aggregate_arity").asInt(), types);
    }
    UserFunctionTable table = context.userFunctions();
    synchronized (table) {
      if (!replace && table.get(name) != null) {
        throw exists(scope, name, SqlParserPos.ZERO);
      }
      table.put(new Entry(name, scope, function, wrapper));
    }
    session.catalog().touched();
  }

  /** Drops function {@code name}; false when there is none. */
  public boolean remove(String name) {
    Entry old = context.userFunctions().remove(name);
    session.functionHomes().remove(name.toLowerCase(java.util.Locale.ROOT));
    if (old != null) {
      session.catalog().touched();
    }
    return old != null;
  }

  private void drop(SqlDropFunction drop) {
    String name = drop.name().names.get(drop.name().names.size() - 1);
    Scope scope =
        drop.isSystem()
            ? Scope.TEMPORARY_SYSTEM
            : drop.isTemporary() ? Scope.TEMPORARY : Scope.CATALOG;
    Entry old = context.userFunctions().get(name);
    if (old == null || old.scope() != scope) {
      if (drop.ifExists()) {
        return;
      }
      String full = fullName(drop.name(), scope);
      String message =
          switch (scope) {
            case TEMPORARY_SYSTEM ->
                "Could not drop temporary system function. A function named '"
                    + full
                    + "' doesn't exist.";
            case TEMPORARY -> "Temporary catalog function " + full + " doesn't exist";
            default ->
                "Function "
                    + full
                    + " does not exist in Catalog "
                    + session.catalog().currentCatalog()
                    + ".";
          };
      throw new PositionedException(ErrorKind.CATALOG, message, drop.name().getParserPosition());
    }
    remove(name);
  }

  private RowSet show(SqlShowFunctions show) {
    String database = showDatabase(show.database());
    TreeSet<String> names = new TreeSet<>();
    for (Entry e : context.userFunctions().entries()) {
      String home = session.functionHomes().get(e.name().toLowerCase(java.util.Locale.ROOT));
      if (home == null || home.equals(database)) {
        names.add(e.name());
      }
    }
    if (!show.isUser() && context.catalog().usedModules().contains("core")) {
      // As Flink: the names of its core module's function definitions (upper, upperCase,
      // JSON_OBJECT, ...), not the SQL names of our operators.
      names.addAll(CoreModuleNames.NAMES);
    }
    List<Object[]> rows = new ArrayList<>();
    Pattern like = null;
    if (show.pattern() != null) {
      like = FlinkTables.likePattern(show.pattern());
      if (show.isIlike()) {
        like = Pattern.compile(like.pattern(), Pattern.DOTALL | Pattern.CASE_INSENSITIVE);
      }
    }
    for (String n : names) {
      if (like == null || like.matcher(n).matches() != show.isNotLike()) {
        rows.add(new Object[] {n});
      }
    }
    return RowSet.of("show", RowSet.strings(context.typeFactory(), "function name"), rows);
  }

  /**
   * The database ({@code catalog.database}) whose functions SHOW FUNCTIONS lists: the one {@code
   * FROM db} or {@code FROM catalog.db} names, else the current one. As Flink, a database that does
   * not exist is no error (it has no functions of its own).
   */
  private String showDatabase(@Nullable SqlIdentifier db) {
    List<String> current = session.catalog().currentPath();
    if (db == null) {
      return String.join(".", current);
    }
    if (db.names.size() > 2) {
      throw new PositionedException(
          ErrorKind.VALIDATION,
          "SHOW FUNCTIONS FROM names a database with at most 2 parts (catalog.database): " + db,
          db.getParserPosition());
    }
    return db.names.size() == 1
        ? current.get(0) + "." + db.getSimple()
        : String.join(".", db.names);
  }

  private RowSet describe(SqlIdentifier id, boolean extended) {
    String name = id.names.get(id.names.size() - 1);
    Entry e = context.userFunctions().get(name);
    if (e == null) {
      throw new PositionedException(
          ErrorKind.VALIDATION,
          "Function " + id + " does not exist or you do not have permission to access it.",
          id.getParserPosition());
    }
    UserFunction f = e.function();
    List<Object[]> rows = new ArrayList<>();
    rows.add(
        new Object[] {"is system function", String.valueOf(e.scope() == Scope.TEMPORARY_SYSTEM)});
    rows.add(new Object[] {"is temporary", String.valueOf(e.scope() != Scope.CATALOG)});
    JavaFunction jvm =
        e.wrapper() instanceof JavaFunction j
            ? j
            : e.wrapper() instanceof io.calcitebridge.functions.UserTableFunction t
                    && t.finisher() instanceof JavaFunction j
                ? j
                : null;
    if (f == null
        && e.wrapper() instanceof io.calcitebridge.functions.UserAggregateFunction agg
        && agg.finisher() instanceof io.calcitebridge.functions.JavaAggregate j) {
      rows.add(new Object[] {"class name", j.className()});
      rows.add(new Object[] {"function language", "JAVA"});
      rows.add(new Object[] {"resource uris", resources(j.jars())});
      if (extended) {
        rows.add(new Object[] {"kind", "AGGREGATE"});
        rows.add(new Object[] {"is deterministic", "true"});
        rows.add(new Object[] {"is vectorized", "false"});
        StringBuilder b = new StringBuilder(e.name()).append('(');
        List<RelDataType> params = j.parameters();
        for (int i = 0; i < j.arity(); i++) {
          b.append(i == 0 ? "" : ", ")
              .append(
                  params == null ? "ANY" : io.calcitebridge.types.TypeNames.render(params.get(i)));
        }
        b.append(") -> ").append(io.calcitebridge.types.TypeNames.render(j.result()));
        rows.add(new Object[] {"signature", b.toString()});
      }
      return RowSet.of(
          "show", RowSet.strings(context.typeFactory(), "info name", "info value"), rows);
    }
    if (f == null && jvm != null) {
      JavaFunction j = jvm;
      rows.add(new Object[] {"class name", j.className()});
      rows.add(new Object[] {"function language", "JAVA"});
      rows.add(new Object[] {"resource uris", resources(j.jars())});
      if (extended) {
        rows.add(new Object[] {"kind", j.isTable() ? "TABLE" : "SCALAR"});
        rows.add(new Object[] {"is deterministic", String.valueOf(j.isDeterministic())});
        rows.add(new Object[] {"is vectorized", "false"});
        rows.add(new Object[] {"signature", String.join("; ", j.signatures())});
      }
      return RowSet.of(
          "show", RowSet.strings(context.typeFactory(), "info name", "info value"), rows);
    }
    f = java.util.Objects.requireNonNull(f);
    rows.add(new Object[] {"class name", f.target()});
    rows.add(new Object[] {"function language", f.language()});
    rows.add(new Object[] {"resource uris", "[]"});
    if (extended) {
      rows.add(
          new Object[] {
            "kind",
            e.wrapper() instanceof io.calcitebridge.functions.UserAggregateFunction
                ? "AGGREGATE"
                : e.wrapper() != null ? "TABLE" : "SCALAR"
          });
      rows.add(new Object[] {"is deterministic", String.valueOf(f.isDeterministic())});
      rows.add(new Object[] {"is vectorized", String.valueOf(f.isVectorized())});
      rows.add(new Object[] {"signature", signature(e)});
    }
    return RowSet.of(
        "show", RowSet.strings(context.typeFactory(), "info name", "info value"), rows);
  }

  /** Flink's rendering of a function's resources: {@code [ResourceUri{resourceType=JAR, ...}]}. */
  private static String resources(List<String> jars) {
    List<String> out = new ArrayList<>();
    for (String j : jars) {
      out.add("ResourceUri{resourceType=JAR, uri='" + j + "'}");
    }
    return out.toString();
  }

  private static String signature(Entry e) {
    UserFunction f = java.util.Objects.requireNonNull(e.function());
    StringBuilder b = new StringBuilder(e.name()).append('(');
    List<RelDataType> params = f.parameters();
    if (e.wrapper() instanceof io.calcitebridge.functions.UserAggregateFunction agg) {
      params = agg.parameters();
    }
    if (params == null) {
      b.append("ANY...");
    } else {
      for (int i = 0; i < params.size(); i++) {
        b.append(i == 0 ? "" : ", ").append(io.calcitebridge.types.TypeNames.render(params.get(i)));
      }
    }
    return b.append(") -> ").append(io.calcitebridge.types.TypeNames.render(f.result())).toString();
  }

  private RelDataType type(String name, String what, String text) {
    try {
      return context.typeFactory().createTypeWithNullability(context.parseType(text), true);
    } catch (RuntimeException e) {
      throw new ConfigException(
          "The " + what + " of function " + name + " is not a SQL type: '" + text + "'");
    }
  }

  /** The names of Flink's core module's functions, read once from the bundled list. */
  private static final class CoreModuleNames {
    static final List<String> NAMES = read();

    private static List<String> read() {
      String resource = "flink-functions.txt";
      try (java.io.InputStream in = FunctionStatements.class.getResourceAsStream(resource)) {
        if (in == null) {
          throw new IllegalStateException("missing resource " + resource);
        }
        return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)
            .lines()
            .filter(l -> !l.isBlank() && !l.startsWith("#"))
            .toList();
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }
  }

  private static List<SqlOperator> builtIns() {
    List<SqlOperator> out = new ArrayList<>(SqlStdOperatorTable.instance().getOperatorList());
    out.addAll(FlinkFunctions.table().getOperatorList());
    return out;
  }

  private static boolean isBuiltIn(String name) {
    for (SqlOperator op : builtIns()) {
      if (op instanceof SqlFunction && op.getName().equalsIgnoreCase(name)) {
        return true;
      }
    }
    return false;
  }

  private String fullName(SqlIdentifier id, Scope scope) {
    if (scope == Scope.TEMPORARY_SYSTEM || id.names.size() >= 3) {
      return String.join(".", id.names);
    }
    List<String> path = session.catalog().currentPath();
    if (id.names.size() == 2) {
      return path.get(0) + "." + String.join(".", id.names);
    }
    return String.join(".", path) + "." + id.names.get(0);
  }

  private RuntimeException exists(Scope scope, String full, SqlParserPos pos) {
    String message =
        switch (scope) {
          case TEMPORARY_SYSTEM ->
              "Could not register temporary system function. A function named '"
                  + full
                  + "' does already exist.";
          case TEMPORARY ->
              "Could not register temporary catalog function. A function '"
                  + full
                  + "' does already exist.";
          default ->
              "Function "
                  + full
                  + " already exists in Catalog "
                  + session.catalog().currentCatalog()
                  + ".";
        };
    return new PositionedException(ErrorKind.CATALOG, message, pos);
  }

  private static RuntimeException failure(@Nullable String error) {
    try {
      JsonNode e = JSON.readTree(error == null ? "{}" : error).path("error");
      ErrorKind kind = ErrorKind.VALIDATION;
      try {
        kind = ErrorKind.valueOf(e.path("kind").asText("VALIDATION"));
      } catch (IllegalArgumentException ignored) {
        // VALIDATION
      }
      return new SourceException(
          e.path("message").asText("The function could not be loaded"),
          kind,
          e.path("traceback").asText(""));
    } catch (IOException e) {
      return new ConfigException("The function could not be loaded: " + error);
    }
  }
}

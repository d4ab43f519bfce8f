package io.calcitebridge.translate;

import io.calcitebridge.functions.UserFunction;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * A Python function in DuckDB: each call becomes a call of a DuckDB Python function that the
 * backend registers on its connection before the query runs ({@code calcite_bridge._udf}). The name
 * {@code cb_py_<id>_<result>_<arg>...} gives the function (by the id Python gave it) and DuckDB's
 * types, the result's first; each operand is cast to its code's type. Codes: {@code bo} BOOLEAN,
 * {@code i4} INTEGER, {@code i8} BIGINT, {@code f8} DOUBLE, {@code n<p>x<s>} DECIMAL(p, s), {@code
 * s} VARCHAR, {@code b} BLOB, {@code dt} DATE, {@code ts} TIMESTAMP. A function of another type is
 * refused (it runs on Calcite's engine under {@code auto}).
 */
final class DuckDbPython {
  /** The prefix of the functions' names. */
  static final String PREFIX = "cb_py_";

  private DuckDbPython() {}

  /** The DuckDB call of {@code call}, whose operands were rewritten into {@code operands}. */
  static RexNode rewrite(RexBuilder rex, RexCall call, List<RexNode> operands) {
    return rewrite(rex, call, operands, "duckdb");
  }

  /**
   * The call of {@code call} on {@code backend} ({@code duckdb}, or {@code spark}, which registers
   * the function under the same name as a Spark UDF), its operands rewritten into {@code operands};
   * a {@link Refusal} by {@code backend} of a function of a type not covered.
   */
  static RexNode rewrite(RexBuilder rex, RexCall call, List<RexNode> operands, String backend) {
    UserFunction f = (UserFunction) call.getOperator();
    RelDataTypeFactory types = rex.getTypeFactory();
    StringBuilder name = new StringBuilder(PREFIX).append(f.id());
    // On Spark a table function's rows (an ARRAY<ROW>): code "tb", the Spark type from the
    // function's own return type (_udf.py), the rows read by LATERAL inline(...).
    name.append('_')
        .append(
            backend.equals("spark") && isRows(f.result()) ? "tb" : code(f.result(), f, backend));
    List<RexNode> args = new ArrayList<>();
    List<RelDataType> params = f.parameters();
    for (int i = 0; i < operands.size(); i++) {
      RexNode o = operands.get(i);
      RelDataType declared = params == null ? o.getType() : params.get(i);
      if (backend.equals("spark") && isRows(o.getType())) {
        // An aggregate function's rows (collect_list of structs): a list of Rows in Python.
        name.append("_rw");
        args.add(o);
        continue;
      }
      String code = code(declared, f, backend);
      name.append('_').append(code);
      RelDataType target =
          types.createTypeWithNullability(typeOf(types, declared, code), o.getType().isNullable());
      args.add(
          o.getType().getSqlTypeName() == target.getSqlTypeName()
                  && o.getType().getPrecision() == target.getPrecision()
                  && o.getType().getScale() == target.getScale()
              ? o
              : rex.makeCast(target, o, true, false));
    }
    return rex.makeCall(call.getType(), new BackendUdf(name.toString(), call.getType()), args);
  }

  /** Whether {@code type} is an {@code ARRAY<ROW<...>>}: an aggregate function's rows. */
  private static boolean isRows(RelDataType type) {
    return type.getSqlTypeName() == SqlTypeName.ARRAY
        && type.getComponentType() != null
        && type.getComponentType().getSqlTypeName() == SqlTypeName.ROW;
  }

  private static RelDataType typeOf(RelDataTypeFactory types, RelDataType declared, String code) {
    switch (code) {
      case "i4":
        return types.createSqlType(SqlTypeName.INTEGER);
      case "i8":
        return types.createSqlType(SqlTypeName.BIGINT);
      case "f8":
        return types.createSqlType(SqlTypeName.DOUBLE);
      case "s":
        return types.createSqlType(SqlTypeName.VARCHAR, Integer.MAX_VALUE);
      case "b":
        return types.createSqlType(SqlTypeName.VARBINARY, Integer.MAX_VALUE);
      default:
        return declared;
    }
  }

  /**
   * The Spark or DuckDB call of the Java function {@code f}: {@code
   * cb_java_<id>_<result>_<arg>...(spec, operands...)}, named and its operands cast as a Python
   * function's, where the string {@code spec} is {@code name;class;parameter classes
   * (comma-separated);jar;jar...}. Spark's backend adds the jars to the session and registers the
   * name as our generic Java UDF ({@code io.calcitebridge.sparkudf.JavaCall}), which calls that
   * {@code eval} overload (the one the validator chose) on the executors. DuckDB's (no jars in the
   * spec) registers an Arrow function that hands each batch to this JVM ({@code
   * io.calcitebridge.udf.JavaUdf}), where the function of that id calls the overload.
   */
  static RexNode rewriteJava(RexBuilder rex, RexCall call, List<RexNode> operands, String backend) {
    io.calcitebridge.functions.JavaFunction f =
        (io.calcitebridge.functions.JavaFunction) call.getOperator();
    String label = f.label();
    boolean duckdb = backend.equals("duckdb");
    if (f.isTable() && duckdb) {
      throw new Refusal(backend, "the table function " + label);
    }
    if (f.isFromObject() && !duckdb) {
      throw new Refusal(
          backend,
          "the function "
              + label
              + ", made from an object of the application's (its state stays in this JVM)");
    }
    List<RelDataType> operandTypes = new ArrayList<>();
    for (RexNode o : operands) {
      operandTypes.add(o.getType());
    }
    List<String> params = f.parameterClasses(operandTypes);
    // DuckDB runs in this process: its batches call the function in this JVM, jars or none.
    List<String> jars = duckdb ? List.of() : f.classJars();
    if (params == null) {
      throw new Refusal(backend, "the function " + label);
    }
    String spec = spec(label, f.className(), params, jars, backend);
    RelDataTypeFactory types = rex.getTypeFactory();
    StringBuilder name =
        new StringBuilder("cb_java_")
            .append(f.id())
            .append('_')
            // A table function's rows on Spark: an array of structs (JavaUdf#sparkRowsType).
            .append(f.isTable() ? "tb" : code(call.getType(), label, backend));
    List<RexNode> args = new ArrayList<>();
    args.add(rex.makeLiteral(spec));
    for (RexNode o : operands) {
      String code = code(o.getType(), label, backend);
      name.append('_').append(code);
      RelDataType target =
          types.createTypeWithNullability(
              typeOf(types, o.getType(), code), o.getType().isNullable());
      args.add(
          o.getType().getSqlTypeName() == target.getSqlTypeName()
                  && o.getType().getPrecision() == target.getPrecision()
                  && o.getType().getScale() == target.getScale()
              ? o
              : rex.makeCast(target, o, true, false));
    }
    return rex.makeCall(call.getType(), new BackendUdf(name.toString(), call.getType()), args);
  }

  /**
   * The spec string of a Java function's call, {@code name;class;parameter classes
   * (comma-separated);jar;jar...}; a {@link Refusal} when another JVM must load the class ({@code
   * jars} is then the jars to load it from) and it is in no jar, or when a jar's path holds a
   * character the spec cannot.
   */
  private static String spec(
      String label, String className, List<String> params, List<String> jars, String backend) {
    if (jars.isEmpty() && !backend.equals("duckdb")) {
      throw new Refusal(
          backend, "the function " + label + " (its class " + className + " is in no jar)");
    }
    StringBuilder spec =
        new StringBuilder(label)
            .append(';')
            .append(className)
            .append(';')
            .append(String.join(",", params));
    for (String j : jars) {
      spec.append(';').append(j);
    }
    if (spec.indexOf("'") >= 0
        || spec.indexOf("\\") >= 0
        || spec.chars().filter(c -> c == ';').count() != 2 + jars.size()) {
      throw new Refusal(backend, "the function " + label + " of a jar path with ' \\ or ;");
    }
    return spec.toString();
  }

  /**
   * The Spark call of the Java aggregate function whose finisher {@code call} is, over its group's
   * rows ({@code collect_list} of the argument structs, as for a Python aggregate): {@code
   * cb_javaagg_<id>_<result>_rw(spec, rows)}, with the spec of {@link #rewriteJava} (its parameter
   * classes those of {@code accumulate} after the accumulator). Spark's backend registers the name
   * as our generic Java aggregate runner ({@code io.calcitebridge.sparkudf.JavaCall$Agg}), which
   * runs the accumulator over each group's rows on the executors.
   */
  static RexNode rewriteJavaAggregate(RexBuilder rex, RexCall call, String backend) {
    io.calcitebridge.functions.JavaAggregate f =
        (io.calcitebridge.functions.JavaAggregate) call.getOperator();
    String label = f.label();
    if (f.isFromObject()) {
      throw new Refusal(
          backend,
          "the function "
              + label
              + ", made from an object of the application's (its state stays in this JVM)");
    }
    String spec = spec(label, f.className(), f.parameterClasses(), f.classJars(), backend);
    String name = "cb_javaagg_" + f.id() + "_" + code(call.getType(), label, backend) + "_rw";
    return rex.makeCall(
        call.getType(),
        new BackendUdf(name, call.getType()),
        List.of(rex.makeLiteral(spec), call.operands.get(0)));
  }

  private static String code(RelDataType type, UserFunction f, String backend) {
    return code(
        type,
        f.getName().replace(io.calcitebridge.functions.UserAggregateFunction.FINISH, ""),
        backend);
  }

  private static String code(RelDataType type, String label, String backend) {
    switch (type.getSqlTypeName()) {
      case TINYINT:
      case SMALLINT:
      case INTEGER:
        return "i4";
      case BIGINT:
        return "i8";
      case BOOLEAN:
        return "bo";
      case FLOAT:
      case REAL:
      case DOUBLE:
        return "f8";
      case DECIMAL:
        if (type.getPrecision() <= 38) {
          return "n" + type.getPrecision() + "x" + type.getScale();
        }
        break;
      case CHAR:
      case VARCHAR:
        return "s";
      case BINARY:
      case VARBINARY:
        return "b";
      case DATE:
        return "dt";
      case TIMESTAMP:
        return "ts";
      default:
        break;
    }
    throw new Refusal(
        backend, "the function " + label + " with a value of type " + type.getFullTypeString());
  }
}

package io.calcitebridge.functions;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.adapter.enumerable.NullPolicy;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlOperandTypeChecker;
import org.apache.calcite.sql.type.SqlReturnTypeInference;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeTransforms;
import org.apache.calcite.sql.util.SqlOperatorTables;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Flink's built-in functions that Calcite's standard operator table lacks, one class per category
 * of Flink's documentation: {@link StringFunctions}, {@link ConditionalFunctions}, {@link
 * HashFunctions}, {@link MathFunctions}. Their names, argument types, result types and NULL
 * handling are Flink 2.3's, checked against PyFlink's answers in {@code tests/flink/}.
 */
public final class FlinkFunctions {
  private FlinkFunctions() {}

  /** The operator table of every function of every category. */
  public static SqlOperatorTable table() {
    List<SqlOperator> all = new ArrayList<>();
    all.addAll(StringFunctions.ALL);
    all.addAll(ConditionalFunctions.ALL);
    all.addAll(HashFunctions.ALL);
    all.addAll(MathFunctions.ALL);
    return SqlOperatorTables.of(all);
  }

  /**
   * The function that replaces a standard one whose Calcite implementation gives another answer
   * than Flink's ({@code LOG10(1000)} is 3.0, {@code REPLACE('ab', '', 'x')} is {@code 'xaxbx'}),
   * or null. SQL conversion makes the swap, keeping the validated type.
   */
  public static @Nullable SqlOperator replacing(SqlOperator standard) {
    if (standard == SqlStdOperatorTable.LOG10) {
      return MathFunctions.LOG10;
    }
    if (standard == SqlStdOperatorTable.REPLACE) {
      return StringFunctions.REPLACE;
    }
    return null;
  }

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
}

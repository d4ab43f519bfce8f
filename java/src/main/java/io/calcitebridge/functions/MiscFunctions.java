package io.calcitebridge.functions;

import static io.calcitebridge.functions.Fn.Nulls.ALWAYS;
import static io.calcitebridge.functions.Fn.Nulls.NEVER;
import static io.calcitebridge.functions.Fn.strict;
import static io.calcitebridge.functions.Fn.string;

import java.util.List;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.SqlTypeFamily;

/**
 * Flink's functions that tell of the session and of types: {@code CURRENT_DATABASE()} and {@code
 * TYPEOF(x [, force_serializable])}.
 */
public final class MiscFunctions {
  private MiscFunctions() {}

  private static final Class<?> C = MiscFunctions.class;

  /**
   * The database an environment starts in, as Flink names its default one. SQL conversion replaces
   * {@code CURRENT_DATABASE()} by the name of the database current when the statement is planned
   * (see Convertlets); this method answers only where no statement is (an expression alone).
   */
  public static final String DATABASE = "default_database";

  /** {@code CURRENT_DATABASE()}: {@link #DATABASE}. */
  public static final SqlOperator CURRENT_DATABASE =
      strict("CURRENT_DATABASE", string(NEVER), OperandTypes.NILADIC, C, "currentDatabase");

  /**
   * {@code TYPEOF(x [, force_serializable])}: the type of {@code x} as Flink writes it ({@code INT
   * NOT NULL}, {@code CHAR(1) NOT NULL}). SQL conversion replaces the call by that string, typed
   * {@code STRING} (nullable, as Flink types it); the method is never run.
   */
  public static final SqlOperator TYPEOF =
      strict(
          "TYPEOF",
          string(ALWAYS),
          OperandTypes.or(
              OperandTypes.ANY, OperandTypes.family(SqlTypeFamily.ANY, SqlTypeFamily.BOOLEAN)),
          C,
          "typeOf");

  static final List<SqlOperator> ALL = List.of(CURRENT_DATABASE, TYPEOF);

  public static String currentDatabase() {
    return DATABASE;
  }

  public static String typeOf(Object value) {
    throw new IllegalStateException("TYPEOF is replaced by its operand's type while planning");
  }

  public static String typeOf(Object value, Boolean forceSerializable) {
    return typeOf(value);
  }
}

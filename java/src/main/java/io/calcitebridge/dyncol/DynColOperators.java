package io.calcitebridge.dyncol;

import io.calcitebridge.types.TypeNames;
import java.util.List;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperandCountRange;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.SqlOperandCountRanges;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.util.SqlOperatorTables;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorScope;

/**
 * MariaDB's eight dynamic-columns functions as Calcite operators. {@code COLUMN_CREATE} and {@code
 * COLUMN_ADD} take (name, value, type) triples, the type being a character literal ('' when the SQL
 * gave no {@code AS type}); {@code COLUMN_GET} takes (blob, name, type). The parser builds the
 * calls through {@link DynColCalls}; {@link DynColImplementor} turns them into generated code.
 */
public final class DynColOperators {
  private DynColOperators() {}

  /** One of the functions. */
  public static final class DynColFunction extends SqlUserDefinedFunction {
    private final DynColShape shape;

    private DynColFunction(String name, DynColShape shape) {
      super(
          new SqlIdentifier(name, SqlParserPos.ZERO),
          opBinding -> returnType(name, shape, opBinding),
          null,
          OperandTypes.VARIADIC,
          null,
          new DynColImplementor(name, shape));
      this.shape = shape;
    }

    @Override
    public RelDataType deriveType(SqlValidator validator, SqlValidatorScope scope, SqlCall call) {
      for (SqlNode operand : call.getOperandList()) {
        validator.deriveType(scope, operand);
      }
      checkCount(call.operandCount());
      checkValues(validator, scope, call);
      return validateOperands(validator, scope, call);
    }

    /**
     * Refuses a value that a dynamic column cannot hold (MariaDB has no such type): a ROW, an
     * ARRAY, a MAP, an INTERVAL, a TIMESTAMP_LTZ. Stored as their Java text, they were wrong
     * answers.
     */
    private void checkValues(SqlValidator validator, SqlValidatorScope scope, SqlCall call) {
      if (shape != DynColShape.CREATE && shape != DynColShape.ADD) {
        return;
      }
      List<SqlNode> ops = call.getOperandList();
      for (int i = shape == DynColShape.ADD ? 2 : 1; i < ops.size(); i += 3) {
        RelDataType type = validator.deriveType(scope, ops.get(i));
        if (!storable(type.getSqlTypeName())) {
          throw validator.newValidationError(
              ops.get(i),
              DynColResource.RESOURCE.badCall(
                  getName()
                      + " cannot store a value of type "
                      + TypeNames.render(type)
                      + ": a dynamic column holds numbers, strings, binary strings, dates, times"
                      + " and timestamps (cast the value, for example to STRING)"));
        }
      }
    }

    private static boolean storable(SqlTypeName type) {
      switch (type) {
        case TINYINT:
        case SMALLINT:
        case INTEGER:
        case BIGINT:
        case BOOLEAN:
        case FLOAT:
        case REAL:
        case DOUBLE:
        case DECIMAL:
        case CHAR:
        case VARCHAR:
        case BINARY:
        case VARBINARY:
        case DATE:
        case TIME:
        case TIMESTAMP:
        case NULL:
          return true;
        default:
          return false;
      }
    }

    @Override
    public SqlOperandCountRange getOperandCountRange() {
      return SqlOperandCountRanges.from(1);
    }

    @Override
    public boolean checkOperandTypes(SqlCallBinding callBinding, boolean throwOnFailure) {
      return true;
    }

    /** How the function's arguments are laid out. */
    DynColShape shape() {
      return shape;
    }

    /** Throws when the function cannot take {@code n} arguments. */
    void checkCount(int n) {
      boolean ok;
      switch (shape) {
        case CREATE:
          ok = n >= 3 && n % 3 == 0;
          break;
        case ADD:
          ok = n >= 4 && (n - 1) % 3 == 0;
          break;
        case GET:
          ok = n == 3;
          break;
        case DELETE:
          ok = n >= 2;
          break;
        case EXISTS:
          ok = n == 2;
          break;
        default:
          ok = n == 1;
      }
      if (!ok) {
        throw new IllegalArgumentException(
            "Incorrect parameter count in the call to native function '" + getName() + "'");
      }
    }

    @Override
    public void unparse(SqlWriter writer, SqlCall call, int leftPrec, int rightPrec) {
      writer.print(getName());
      SqlWriter.Frame frame = writer.startList("(", ")");
      List<SqlNode> ops = call.getOperandList();
      int i = 0;
      if (shape == DynColShape.ADD || shape == DynColShape.GET) {
        writer.sep(",");
        ops.get(i++).unparse(writer, 0, 0);
      }
      if (shape == DynColShape.CREATE || shape == DynColShape.ADD) {
        while (i < ops.size()) {
          writer.sep(",");
          ops.get(i++).unparse(writer, 0, 0);
          writer.sep(",");
          ops.get(i++).unparse(writer, 0, 0);
          String type = ((SqlLiteral) ops.get(i++)).getValueAs(String.class);
          if (!type.isEmpty()) {
            writer.keyword("AS");
            writer.print(type);
            writer.print(" ");
          }
        }
      } else if (shape == DynColShape.GET) {
        writer.sep(",");
        ops.get(i++).unparse(writer, 0, 0);
        writer.keyword("AS");
        writer.print(((SqlLiteral) ops.get(i)).getValueAs(String.class));
        writer.print(" ");
      } else {
        for (SqlNode op : ops) {
          writer.sep(",");
          op.unparse(writer, 0, 0);
        }
      }
      writer.endList(frame);
    }
  }

  private static RelDataType returnType(String name, DynColShape shape, SqlOperatorBinding b) {
    RelDataTypeFactory f = b.getTypeFactory();
    RelDataType t;
    switch (shape) {
      case CREATE:
      case ADD:
      case DELETE:
        t = f.createSqlType(SqlTypeName.VARBINARY);
        break;
      case EXISTS:
        t = f.createSqlType(SqlTypeName.INTEGER);
        break;
      case GET:
        t = getType(f, DynType.parse(b.getOperandLiteralValue(2, String.class)));
        break;
      default:
        t =
            name.equals("COLUMN_CHECK")
                ? f.createSqlType(SqlTypeName.INTEGER)
                : f.createSqlType(SqlTypeName.VARCHAR);
    }
    return f.createTypeWithNullability(t, true);
  }

  /** The SQL type of {@code COLUMN_GET(... AS type)}. */
  public static RelDataType getType(RelDataTypeFactory f, DynType t) {
    switch (t.kind) {
      case INT:
        return f.createSqlType(SqlTypeName.BIGINT);
      case UNSIGNED:
        return f.createSqlType(
            SqlTypeName.DECIMAL,
            Math.min(20, f.getTypeSystem().getMaxPrecision(SqlTypeName.DECIMAL)),
            0);
      case DOUBLE:
        return f.createSqlType(SqlTypeName.DOUBLE);
      case DECIMAL:
        return f.createSqlType(SqlTypeName.DECIMAL, t.length, t.scale);
      case CHAR:
        return t.length >= 0
            ? f.createSqlType(SqlTypeName.VARCHAR, t.length)
            : f.createSqlType(SqlTypeName.VARCHAR);
      case BINARY:
        return t.length >= 0
            ? f.createSqlType(SqlTypeName.VARBINARY, t.length)
            : f.createSqlType(SqlTypeName.VARBINARY);
      case DATE:
        return f.createSqlType(SqlTypeName.DATE);
      case TIME:
        return f.createSqlType(SqlTypeName.TIME, Math.max(t.length, 0));
      case DATETIME:
        return f.createSqlType(SqlTypeName.TIMESTAMP, Math.max(t.length, 0));
      default:
        throw new AssertionError(t);
    }
  }

  public static final DynColFunction COLUMN_CREATE =
      new DynColFunction("COLUMN_CREATE", DynColShape.CREATE);
  public static final DynColFunction COLUMN_ADD = new DynColFunction("COLUMN_ADD", DynColShape.ADD);
  public static final DynColFunction COLUMN_GET = new DynColFunction("COLUMN_GET", DynColShape.GET);
  public static final DynColFunction COLUMN_DELETE =
      new DynColFunction("COLUMN_DELETE", DynColShape.DELETE);
  public static final DynColFunction COLUMN_EXISTS =
      new DynColFunction("COLUMN_EXISTS", DynColShape.EXISTS);
  public static final DynColFunction COLUMN_LIST =
      new DynColFunction("COLUMN_LIST", DynColShape.UNARY);
  public static final DynColFunction COLUMN_CHECK =
      new DynColFunction("COLUMN_CHECK", DynColShape.UNARY);
  public static final DynColFunction COLUMN_JSON =
      new DynColFunction("COLUMN_JSON", DynColShape.UNARY);

  private static final List<SqlOperator> ALL =
      List.of(
          COLUMN_CREATE,
          COLUMN_ADD,
          COLUMN_GET,
          COLUMN_DELETE,
          COLUMN_EXISTS,
          COLUMN_LIST,
          COLUMN_CHECK,
          COLUMN_JSON);

  private static final SqlOperatorTable TABLE = SqlOperatorTables.of(ALL);

  /** The operator table of the eight functions (one per JVM). */
  public static SqlOperatorTable table() {
    return TABLE;
  }

  /**
   * How COLUMN_CREATE and COLUMN_ADD type a value operand ({@link DynColRuntime#INT}, ...): from
   * its SQL type, {@link DynColRuntime#DYNCOL} for the blob of a nested dynamic-columns call.
   */
  public static String kind(RexNode operand) {
    return DynColImplementor.kind(operand);
  }

  /** Whether a function's arguments start with a dynamic-columns blob. */
  public static boolean takesBlob(DynColFunction f) {
    return f.shape() != DynColShape.CREATE;
  }

  /** Whether a function's arguments are (name, value, type) triples: COLUMN_CREATE, COLUMN_ADD. */
  public static boolean takesPairs(DynColFunction f) {
    return f.shape() == DynColShape.CREATE || f.shape() == DynColShape.ADD;
  }

  /** The function of a name (any case), or null. */
  public static DynColFunction byName(String name) {
    for (SqlOperator op : ALL) {
      if (op.getName().equalsIgnoreCase(name)) {
        return (DynColFunction) op;
      }
    }
    return null;
  }
}

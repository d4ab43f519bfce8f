package io.calcitebridge.dyncol;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.calcite.adapter.enumerable.CallImplementor;
import org.apache.calcite.adapter.enumerable.NullPolicy;
import org.apache.calcite.adapter.enumerable.RexImpTable;
import org.apache.calcite.adapter.enumerable.RexToLixTranslator;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.linq4j.tree.Primitive;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.schema.FunctionParameter;
import org.apache.calcite.schema.ImplementableFunction;
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
 * gave no {@code AS type}); {@code COLUMN_GET} takes (blob, name, type).
 */
public final class DynColOperators {
  private DynColOperators() {}

  /** How an operator's arguments are laid out. */
  private enum Shape {
    CREATE,
    ADD,
    GET,
    DELETE,
    EXISTS,
    UNARY
  }

  /** One of the functions. */
  public static final class DynColFunction extends SqlUserDefinedFunction {
    private final Shape shape;

    private DynColFunction(String name, Shape shape, Impl impl) {
      super(
          new SqlIdentifier(name, SqlParserPos.ZERO),
          opBinding -> returnType(name, shape, opBinding),
          null,
          OperandTypes.VARIADIC,
          null,
          impl);
      this.shape = shape;
      impl.function = this;
    }

    @Override
    public RelDataType deriveType(SqlValidator validator, SqlValidatorScope scope, SqlCall call) {
      for (SqlNode operand : call.getOperandList()) {
        validator.deriveType(scope, operand);
      }
      checkCount(call.operandCount());
      return validateOperands(validator, scope, call);
    }

    @Override
    public SqlOperandCountRange getOperandCountRange() {
      return SqlOperandCountRanges.from(1);
    }

    @Override
    public boolean checkOperandTypes(SqlCallBinding callBinding, boolean throwOnFailure) {
      return true;
    }

    private void checkCount(int n) {
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
      if (shape == Shape.ADD || shape == Shape.GET) {
        writer.sep(",");
        ops.get(i++).unparse(writer, 0, 0);
      }
      if (shape == Shape.CREATE || shape == Shape.ADD) {
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
      } else if (shape == Shape.GET) {
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

  private static RelDataType returnType(String name, Shape shape, SqlOperatorBinding b) {
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

  /** The generated-code side of one function. */
  private static final class Impl implements ImplementableFunction {
    DynColFunction function;

    @Override
    public List<FunctionParameter> getParameters() {
      return List.of();
    }

    @Override
    public CallImplementor getImplementor() {
      return RexImpTable.createImplementor(
          (translator, call, operands) ->
              implement(translator, function.shape, function.getName(), call, operands),
          NullPolicy.NONE,
          false);
    }
  }

  private static Expression boxed(Expression e) {
    Primitive p = Primitive.of(e.getType());
    return p != null
        ? Expressions.convert_(Expressions.box(e), Object.class)
        : Expressions.convert_(e, Object.class);
  }

  private static Expression blob(Expression e) {
    return Expressions.convert_(e, ByteString.class);
  }

  /** How COLUMN_CREATE types a value operand, from its SQL type. */
  static String kind(RexNode node) {
    if (node instanceof RexCall
        && ((RexCall) node).getOperator() instanceof DynColFunction
        && ((DynColFunction) ((RexCall) node).getOperator()).shape != Shape.GET
        && node.getType().getSqlTypeName() == SqlTypeName.VARBINARY) {
      return DynColRuntime.DYNCOL;
    }
    switch (node.getType().getSqlTypeName()) {
      case TINYINT:
      case SMALLINT:
      case INTEGER:
      case BIGINT:
        return DynColRuntime.INT;
      case BOOLEAN:
        return DynColRuntime.BOOLEAN;
      case FLOAT:
      case REAL:
      case DOUBLE:
        return DynColRuntime.DOUBLE;
      case DECIMAL:
        return DynColRuntime.DECIMAL;
      case BINARY:
      case VARBINARY:
        return DynColRuntime.BINARY;
      case DATE:
        return DynColRuntime.DATE;
      case TIME:
        return DynColRuntime.TIME;
      case TIMESTAMP:
        return DynColRuntime.TIMESTAMP;
      default:
        return DynColRuntime.STRING;
    }
  }

  private static Expression str(Expression e) {
    return Expressions.convert_(e, String.class);
  }

  private static Expression implement(
      RexToLixTranslator translator,
      Shape shape,
      String name,
      RexCall call,
      List<Expression> operands) {
    List<RexNode> rex = call.getOperands();
    switch (shape) {
      case CREATE:
      case ADD:
        {
          int start = shape == Shape.ADD ? 1 : 0;
          List<Expression> keys = new ArrayList<>();
          List<Expression> values = new ArrayList<>();
          List<Expression> kinds = new ArrayList<>();
          List<Expression> types = new ArrayList<>();
          for (int i = start; i < operands.size(); i += 3) {
            keys.add(boxed(operands.get(i)));
            values.add(boxed(operands.get(i + 1)));
            kinds.add(Expressions.constant(kind(translator.deref(rex.get(i + 1)))));
            types.add(str(operands.get(i + 2)));
          }
          Expression k = Expressions.newArrayInit(Object.class, keys);
          Expression v = Expressions.newArrayInit(Object.class, values);
          Expression kd = Expressions.newArrayInit(String.class, kinds);
          Expression ty = Expressions.newArrayInit(String.class, types);
          return shape == Shape.CREATE
              ? Expressions.call(DynColRuntime.class, "create", k, v, kd, ty)
              : Expressions.call(DynColRuntime.class, "add", blob(operands.get(0)), k, v, kd, ty);
        }
      case DELETE:
        {
          List<Expression> keys = new ArrayList<>();
          for (int i = 1; i < operands.size(); i++) {
            keys.add(boxed(operands.get(i)));
          }
          return Expressions.call(
              DynColRuntime.class,
              "delete",
              blob(operands.get(0)),
              Expressions.newArrayInit(Object.class, keys));
        }
      case GET:
        {
          String method;
          switch (call.getType().getSqlTypeName()) {
            case BIGINT:
              method = "getLong";
              break;
            case DECIMAL:
              method = "getDecimal";
              break;
            case DOUBLE:
              method = "getDouble";
              break;
            case VARCHAR:
              method = "getString";
              break;
            case VARBINARY:
              method = "getBinary";
              break;
            case DATE:
              method = "getDate";
              break;
            case TIME:
              method = "getTime";
              break;
            default:
              method = "getTimestamp";
          }
          return Expressions.call(
              DynColRuntime.class,
              method,
              blob(operands.get(0)),
              boxed(operands.get(1)),
              str(operands.get(2)));
        }
      case EXISTS:
        return Expressions.call(
            DynColRuntime.class, "exists", blob(operands.get(0)), boxed(operands.get(1)));
      default:
        return Expressions.call(
            DynColRuntime.class,
            name.substring("COLUMN_".length()).toLowerCase(Locale.ROOT),
            blob(operands.get(0)));
    }
  }

  public static final DynColFunction COLUMN_CREATE =
      new DynColFunction("COLUMN_CREATE", Shape.CREATE, new Impl());
  public static final DynColFunction COLUMN_ADD =
      new DynColFunction("COLUMN_ADD", Shape.ADD, new Impl());
  public static final DynColFunction COLUMN_GET =
      new DynColFunction("COLUMN_GET", Shape.GET, new Impl());
  public static final DynColFunction COLUMN_DELETE =
      new DynColFunction("COLUMN_DELETE", Shape.DELETE, new Impl());
  public static final DynColFunction COLUMN_EXISTS =
      new DynColFunction("COLUMN_EXISTS", Shape.EXISTS, new Impl());
  public static final DynColFunction COLUMN_LIST =
      new DynColFunction("COLUMN_LIST", Shape.UNARY, new Impl());
  public static final DynColFunction COLUMN_CHECK =
      new DynColFunction("COLUMN_CHECK", Shape.UNARY, new Impl());
  public static final DynColFunction COLUMN_JSON =
      new DynColFunction("COLUMN_JSON", Shape.UNARY, new Impl());

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

  /** The operator table of the eight functions. */
  public static SqlOperatorTable table() {
    return SqlOperatorTables.of(ALL);
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

  /**
   * Builds a call from parsed arguments: {@code parts} holds SqlNodes and, after a value, the type
   * name that followed {@code AS} (a String).
   */
  public static SqlCall call(String name, List<Object> parts, SqlParserPos pos) {
    DynColFunction f = byName(name);
    List<SqlNode> ops = new ArrayList<>();
    int i = 0;
    if (f.shape == Shape.ADD || f.shape == Shape.GET) {
      i = take(parts, i, ops, name);
      if (i >= parts.size()) {
        throw new IllegalArgumentException(
            "Incorrect parameter count in the call to native function '" + name + "'");
      }
    }
    if (f.shape == Shape.CREATE || f.shape == Shape.ADD || f.shape == Shape.GET) {
      while (i < parts.size()) {
        i = take(parts, i, ops, name);
        if (f.shape == Shape.GET) {
          if (i >= parts.size() || !(parts.get(i) instanceof String)) {
            throw new IllegalArgumentException("COLUMN_GET needs 'AS type' after the column name");
          }
          ops.add(typeLiteral((String) parts.get(i++), pos));
          break;
        }
        if (i >= parts.size() || parts.get(i) instanceof String) {
          throw new IllegalArgumentException(
              "Incorrect parameter count in the call to native function '" + name + "'");
        }
        i = take(parts, i, ops, name);
        if (i < parts.size() && parts.get(i) instanceof String) {
          ops.add(typeLiteral((String) parts.get(i++), pos));
        } else {
          ops.add(SqlLiteral.createCharString("", pos));
        }
      }
      if (i < parts.size()) {
        throw new IllegalArgumentException(
            "Incorrect parameter count in the call to native function '" + name + "'");
      }
    } else {
      while (i < parts.size()) {
        i = take(parts, i, ops, name);
      }
    }
    f.checkCount(ops.size());
    return f.createCall(pos, ops);
  }

  private static int take(List<Object> parts, int i, List<SqlNode> ops, String name) {
    Object p = parts.get(i);
    if (!(p instanceof SqlNode)) {
      throw new IllegalArgumentException("Unexpected 'AS " + p + "' in " + name);
    }
    ops.add((SqlNode) p);
    return i + 1;
  }

  private static SqlLiteral typeLiteral(String text, SqlParserPos pos) {
    return SqlLiteral.createCharString(DynType.parse(text).toString(), pos);
  }
}

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
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.schema.FunctionParameter;
import org.apache.calcite.schema.ImplementableFunction;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;

/**
 * The generated-code side of one dynamic-columns function: a call becomes a call of the matching
 * {@link DynColRuntime} method, COLUMN_CREATE and COLUMN_ADD passing each value's kind (see {@link
 * #kind}) and type.
 */
final class DynColImplementor implements ImplementableFunction {
  /** The name of the function this implements. */
  private final String name;

  /** How that function's arguments are laid out. */
  final DynColShape shape;

  DynColImplementor(String name, DynColShape shape) {
    this.name = name;
    this.shape = shape;
  }

  @Override
  public List<FunctionParameter> getParameters() {
    return List.of();
  }

  @Override
  public CallImplementor getImplementor() {
    return RexImpTable.createImplementor(
        (translator, call, operands) -> implement(translator, shape, name, call, operands),
        NullPolicy.NONE,
        false);
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
        && ((RexCall) node).getOperator() instanceof SqlUserDefinedFunction function
        && function.getFunction() instanceof DynColImplementor impl
        && impl.shape != DynColShape.GET
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
      DynColShape shape,
      String name,
      RexCall call,
      List<Expression> operands) {
    List<RexNode> rex = call.getOperands();
    switch (shape) {
      case CREATE:
      case ADD:
        {
          int start = shape == DynColShape.ADD ? 1 : 0;
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
          return shape == DynColShape.CREATE
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
}

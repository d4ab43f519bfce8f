package io.calcitebridge.translate;

import io.calcitebridge.dyncol.DynColOperators;
import io.calcitebridge.dyncol.DynColOperators.DynColFunction;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.fun.SqlLibraryOperators;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The dynamic-columns functions in Spark: each call becomes a call of a Java UDF of the second jar
 * ({@code io.calcitebridge.sparkudf}), which the spark backend registers in the session under the
 * name written here, computing what the reference computes with the same codec.
 *
 * <ul>
 *   <li>{@code COLUMN_GET(blob, key AS type)} becomes {@code cb_dyncol_get_<code>('<type>', blob,
 *       key)}; the code names the UDF's Spark return type, that of the call: {@code i8} BIGINT,
 *       {@code f8} DOUBLE, {@code n<p>x<s>} DECIMAL(p, s), {@code s} STRING, {@code b} BINARY,
 *       {@code dt} DATE, {@code ts} TIMESTAMP_NTZ. {@code AS TIME} is refused (Spark has no TIME).
 *   <li>{@code COLUMN_JSON}, {@code COLUMN_LIST}, {@code COLUMN_CHECK} and {@code COLUMN_EXISTS}
 *       become {@code cb_dyncol_json}, ... of the same arguments.
 *   <li>{@code COLUMN_CREATE}, {@code COLUMN_ADD} and {@code COLUMN_DELETE}, which return a blob
 *       (BINARY), become {@code cb_dyncol_create}, {@code cb_dyncol_add} and {@code
 *       cb_dyncol_delete}, their keys and values packed into one STRUCT ({@link Packed}).
 * </ul>
 *
 * The blob must be a binary column (or NULL); a key an integer or a string.
 */
final class SparkDynCol {
  /** The prefix of the UDFs' names. */
  static final String PREFIX = "cb_dyncol_";

  private static final int MAX_DECIMAL = 38;

  private static final Map<DynColFunction, String> UNARY =
      Map.of(
          DynColOperators.COLUMN_JSON, "json",
          DynColOperators.COLUMN_LIST, "list",
          DynColOperators.COLUMN_CHECK, "check",
          DynColOperators.COLUMN_EXISTS, "exists");

  private SparkDynCol() {}

  /** Whether {@code call} is a call of one of the UDFs. */
  static boolean isUdf(RexCall call) {
    return call.getOperator() instanceof BackendUdf;
  }

  /**
   * The Spark call of {@code call}, a COLUMN_* call whose operands are already rewritten, {@code
   * original} before that (the kinds of COLUMN_CREATE's values are read from it); throws {@link
   * Refusal} for a function or a form not covered.
   */
  static RexNode rewrite(RexBuilder rex, RexCall original, RexCall call) {
    DynColFunction f = (DynColFunction) call.getOperator();
    List<RexNode> operands = call.getOperands();
    String unary = UNARY.get(f);
    if (unary != null) {
      checkBlob(f, operands.get(0));
      if (operands.size() > 1) {
        checkKey(f, operands.get(1));
      }
      return rex.makeCall(call.getType(), new BackendUdf(PREFIX + unary, call.getType()), operands);
    }
    if (f != DynColOperators.COLUMN_GET) {
      return writing(rex, f, original.getOperands(), call);
    }
    checkBlob(f, operands.get(0));
    checkKey(f, operands.get(1));
    String type = ((RexLiteral) operands.get(2)).getValueAs(String.class);
    String code = code(call.getType());
    if (code == null || type == null) {
      throw refuse(
          "COLUMN_GET returning a value of type "
              + io.calcitebridge.types.TypeNames.renderNullable(call.getType()));
    }
    List<RexNode> args = new ArrayList<>();
    args.add(rex.makeLiteral(type));
    args.add(operands.get(0));
    args.add(operands.get(1));
    return rex.makeCall(
        call.getType(), new BackendUdf(PREFIX + "get_" + code, call.getType()), args);
  }

  /**
   * COLUMN_CREATE, COLUMN_ADD or COLUMN_DELETE: {@code cb_dyncol_create(spec, named_struct(...))},
   * {@code cb_dyncol_add(spec, blob, named_struct(...))}, {@code cb_dyncol_delete(blob,
   * named_struct(...))}. The keys and values travel in one STRUCT, in order (Spark's Java UDFs have
   * a fixed arity); the spec gives each value's kind and {@code AS} type, {@code kind:type;...},
   * the kind read from the value's SQL type as Calcite's engine reads it ({@link
   * DynColOperators#kind}).
   */
  private static RexNode writing(
      RexBuilder rex, DynColFunction f, List<RexNode> originals, RexCall call) {
    List<RexNode> operands = call.getOperands();
    int start = DynColOperators.takesBlob(f) ? 1 : 0;
    List<RexNode> head = new ArrayList<>();
    List<RexNode> packed = new ArrayList<>();
    if (start == 1) {
      checkBlob(f, operands.get(0));
      head.add(operands.get(0));
    }
    if (!DynColOperators.takesPairs(f)) {
      for (int i = start; i < operands.size(); i++) {
        checkKey(f, operands.get(i));
        packed.add(typedNull(rex, operands.get(i)));
      }
      return rex.makeCall(
          call.getType(),
          new Packed(PREFIX + "delete", call.getType(), head.size()),
          concat(head, packed));
    }
    List<String> spec = new ArrayList<>();
    for (int i = start; i < operands.size(); i += 3) {
      checkKey(f, operands.get(i));
      packed.add(typedNull(rex, operands.get(i)));
      RexNode value = originals.get(i + 1);
      String kind = DynColOperators.kind(value);
      String type = ((RexLiteral) originals.get(i + 2)).getValueAs(String.class);
      if (type == null || type.indexOf(';') >= 0 || type.indexOf(':') >= 0) {
        throw refuse(f.getName() + " with the type " + type);
      }
      spec.add(kind + ":" + type);
      packed.add(value(rex, f, value, operands.get(i + 1)));
    }
    head.add(0, rex.makeLiteral(String.join(";", spec)));
    String name = PREFIX + (f == DynColOperators.COLUMN_CREATE ? "create" : "add");
    return rex.makeCall(
        call.getType(), new Packed(name, call.getType(), head.size()), concat(head, packed));
  }

  private static List<RexNode> concat(List<RexNode> a, List<RexNode> b) {
    List<RexNode> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }

  /** A NULL literal typed as a STRING: a STRUCT field of Spark's NULL type reaches no UDF. */
  private static RexNode typedNull(RexBuilder rex, RexNode node) {
    if (node.getType().getSqlTypeName() == SqlTypeName.NULL) {
      return rex.makeNullLiteral(rex.getTypeFactory().createSqlType(SqlTypeName.VARCHAR));
    }
    return node;
  }

  /**
   * A value of COLUMN_CREATE or COLUMN_ADD as it goes to Spark (a DATE as its days, {@code
   * unix_date}; a TIME literal as its milliseconds of the day, Calcite's runtime value: Spark has
   * no TIME); refuses types whose values Spark holds otherwise than Calcite's engine.
   */
  private static RexNode value(RexBuilder rex, DynColFunction f, RexNode original, RexNode value) {
    RelDataType t = value.getType();
    switch (t.getSqlTypeName()) {
      case TINYINT:
      case SMALLINT:
      case INTEGER:
      case BIGINT:
      case BOOLEAN:
      case REAL:
      case FLOAT:
      case DOUBLE:
      case CHAR:
      case VARCHAR:
      case BINARY:
      case VARBINARY:
      case TIMESTAMP:
        return value;
      case DATE:
        // As its days, Calcite's runtime value: a java.sql.Date, which a Java UDF receives,
        // cannot hold a day of the Julian-Gregorian gap (1582-10-05 to 1582-10-14).
        return rex.makeCall(SqlLibraryOperators.UNIX_DATE, value);
      case DECIMAL:
        if (t.getPrecision() <= MAX_DECIMAL) {
          return value;
        }
        break;
      case NULL:
        return typedNull(rex, value);
      case TIME:
        if (value instanceof RexLiteral literal) {
          Integer millis = literal.getValueAs(Integer.class);
          return rex.makeLiteral(
              millis, rex.getTypeFactory().createSqlType(SqlTypeName.INTEGER), false);
        }
        break;
      default:
        break;
    }
    throw refuse(
        f.getName()
            + " over a value of type "
            + io.calcitebridge.types.TypeNames.renderNullable(t));
  }

  /**
   * A UDF whose operands from {@code packFrom} on are written as one {@code named_struct('p0', a,
   * 'p1', b, ...)} argument.
   */
  static final class Packed extends BackendUdf {
    private final int packFrom;

    Packed(String name, RelDataType type, int packFrom) {
      super(name, type);
      this.packFrom = packFrom;
    }

    @Override
    public void unparse(SqlWriter writer, SqlCall call, int leftPrec, int rightPrec) {
      SqlWriter.Frame frame = writer.startFunCall(getName());
      List<SqlNode> ops = call.getOperandList();
      for (int i = 0; i < packFrom; i++) {
        writer.sep(",");
        ops.get(i).unparse(writer, 0, 0);
      }
      writer.sep(",");
      SqlWriter.Frame struct = writer.startFunCall("named_struct");
      for (int i = packFrom; i < ops.size(); i++) {
        writer.sep(",");
        writer.literal("'p" + (i - packFrom) + "'");
        writer.sep(",");
        ops.get(i).unparse(writer, 0, 0);
      }
      writer.endFunCall(struct);
      writer.endFunCall(frame);
    }
  }

  private static void checkBlob(DynColFunction f, RexNode blob) {
    SqlTypeName t = blob.getType().getSqlTypeName();
    if (t != SqlTypeName.VARBINARY && t != SqlTypeName.BINARY && t != SqlTypeName.NULL) {
      throw refuse(
          f.getName()
              + " over a blob of type "
              + io.calcitebridge.types.TypeNames.renderNullable(blob.getType()));
    }
  }

  private static void checkKey(DynColFunction f, RexNode key) {
    RelDataType t = key.getType();
    if (!SqlTypeFamily.INTEGER.contains(t)
        && !SqlTypeFamily.CHARACTER.contains(t)
        && t.getSqlTypeName() != SqlTypeName.NULL) {
      throw refuse(
          f.getName()
              + " with a key of type "
              + io.calcitebridge.types.TypeNames.renderNullable(t));
    }
  }

  /** The code of COLUMN_GET's result type, or null when it is not run in Spark. */
  private static @Nullable String code(RelDataType type) {
    switch (type.getSqlTypeName()) {
      case BIGINT:
        return "i8";
      case DOUBLE:
        return "f8";
      case DECIMAL:
        return type.getPrecision() > MAX_DECIMAL
            ? null
            : "n" + type.getPrecision() + "x" + type.getScale();
      case VARCHAR:
        return "s";
      case VARBINARY:
        return "b";
      case DATE:
        return "dt";
      case TIMESTAMP:
        return "ts";
      default:
        return null;
    }
  }

  private static Refusal refuse(String construct) {
    return new Refusal(SparkTranslator.BACKEND, construct);
  }
}

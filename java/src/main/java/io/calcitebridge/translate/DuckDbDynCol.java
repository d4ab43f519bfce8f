package io.calcitebridge.translate;

import io.calcitebridge.dyncol.DynColOperators;
import io.calcitebridge.dyncol.DynColOperators.DynColFunction;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * The dynamic-columns functions ({@code COLUMN_GET}, ...) in DuckDB: each call becomes a call of a
 * user-defined function that the DuckDB backend registers, computing it in the JVM one batch at a
 * time ({@code io.calcitebridge.udf.DynColUdf}).
 *
 * <p>{@code COLUMN_GET(blob, 'a' AS INT)} becomes {@code
 * cb_dyncol_i8_s_b_s('COLUMN_GET;i8;INT;b;s', blob, 'a')}. The function's name gives DuckDB's
 * types, the result's first and then each argument's, the spec literal (always VARCHAR) aside; the
 * spec ({@code io.calcitebridge.dyncol.DynColBatch}) gives the function, the result's code,
 * COLUMN_GET's type and, for each argument, its code and, for a COLUMN_CREATE/COLUMN_ADD value, its
 * kind and {@code AS} type. The {@code AS} type literals are no arguments of the DuckDB function.
 * Codes: {@code b} BLOB, {@code s} VARCHAR, {@code h} VARCHAR hex digits of a binary literal,
 * {@code bo} BOOLEAN, {@code i4} INTEGER, {@code i8} BIGINT, {@code f8} DOUBLE, {@code n<p>x<s>}
 * DECIMAL(p, s), {@code dt} DATE, {@code ts} TIMESTAMP.
 */
final class DuckDbDynCol {
  /** The prefix of the user-defined functions' names. */
  static final String PREFIX = "cb_dyncol_";

  /** DuckDB's widest DECIMAL. */
  private static final int MAX_DECIMAL = 38;

  private DuckDbDynCol() {}

  /**
   * The DuckDB call of {@code call}, a COLUMN_* call whose operands were rewritten into {@code
   * operands}; throws {@link Refusal} for a form it does not cover.
   */
  static RexNode rewrite(RexBuilder rex, RexCall call, List<RexNode> operands) {
    DynColFunction f = (DynColFunction) call.getOperator();
    String name = f.getName();
    List<RexNode> original = call.getOperands();
    String result =
        call.getType().getSqlTypeName() == SqlTypeName.INTEGER
            ? "i4"
            : code(call.getType(), name + " returning a value");
    String getType = "";
    List<RexNode> args = new ArrayList<>();
    List<String> descriptors = new ArrayList<>();
    StringBuilder udf = new StringBuilder(PREFIX).append(result);
    boolean pairs = DynColOperators.takesPairs(f);
    int start = DynColOperators.takesBlob(f) ? 1 : 0;
    for (int i = 0; i < original.size(); i++) {
      RexNode o = original.get(i);
      String descriptor;
      RexNode arg = operands.get(i);
      if (f == DynColOperators.COLUMN_GET && i == 2) {
        getType = typeText(o);
        continue;
      }
      if (pairs && i >= start && (i - start) % 3 == 2) {
        continue; // an AS type: in the value's descriptor
      }
      if (o instanceof RexLiteral literal
          && (o.getType().getSqlTypeName() == SqlTypeName.BINARY
              || o.getType().getSqlTypeName() == SqlTypeName.VARBINARY)) {
        // DuckDB reads no X'..' literal: the hex digits travel as a string.
        ByteString bytes = literal.getValueAs(ByteString.class);
        arg =
            rex.makeLiteral(
                bytes == null ? null : bytes.toString(16).toUpperCase(Locale.ROOT),
                rex.getTypeFactory().createSqlType(SqlTypeName.VARCHAR),
                false);
        descriptor = "h";
      } else if (o instanceof RexLiteral literal
          && o.getType().getSqlTypeName() == SqlTypeName.TIME) {
        // DuckDB's TIME is no type of the translation: a TIME literal travels as its
        // milliseconds of the day, Calcite's runtime value.
        Integer millis = literal.getValueAs(Integer.class);
        arg =
            rex.makeLiteral(millis, rex.getTypeFactory().createSqlType(SqlTypeName.INTEGER), false);
        descriptor = "tm";
      } else {
        if (i < start
            && o.getType().getSqlTypeName() != SqlTypeName.VARBINARY
            && o.getType().getSqlTypeName() != SqlTypeName.NULL) {
          throw refuse(name + " over a blob of type " + o.getType().getFullTypeString());
        }
        descriptor = code(o.getType(), name + " over a value");
        arg = cast(rex, arg, descriptor);
      }
      udf.append('_').append(descriptor);
      if (pairs && i >= start && (i - start) % 3 == 1) {
        String kind = DynColOperators.kind(o);
        descriptor += ":" + kind + ":" + typeText(original.get(i + 1));
      }
      descriptors.add(descriptor);
      args.add(arg);
    }
    String spec = name + ";" + result + ";" + getType + ";" + String.join(";", descriptors);
    List<RexNode> all = new ArrayList<>();
    all.add(rex.makeLiteral(spec));
    all.addAll(args);
    return rex.makeCall(call.getType(), new BackendUdf(udf.toString(), call.getType()), all);
  }

  private static String typeText(RexNode typeLiteral) {
    String text = ((RexLiteral) typeLiteral).getValueAs(String.class);
    if (text == null || text.indexOf(';') >= 0 || text.indexOf(':') >= 0) {
      throw refuse("a dynamic-columns type " + text);
    }
    return text;
  }

  /** The code of a value of {@code type}; refuses types the functions do not take here. */
  private static String code(RelDataType type, String what) {
    switch (type.getSqlTypeName()) {
      case TINYINT:
      case SMALLINT:
      case INTEGER:
      case BIGINT:
        return "i8";
      case BOOLEAN:
        return "bo";
      case REAL:
      case FLOAT:
      case DOUBLE:
        return "f8";
      case DECIMAL:
        if (type.getPrecision() > MAX_DECIMAL) {
          throw refuse(what + " of type " + type.getFullTypeString());
        }
        return "n" + type.getPrecision() + "x" + type.getScale();
      case CHAR:
      case VARCHAR:
      case NULL:
        return "s";
      case VARBINARY:
        return "b";
      case DATE:
        return "dt";
      case TIMESTAMP:
        return "ts";
      default:
        throw refuse(what + " of type " + type.getFullTypeString());
    }
  }

  /** {@code node} as the DuckDB type of {@code code}, cast where its SQL type differs. */
  private static RexNode cast(RexBuilder rex, RexNode node, String code) {
    RelDataTypeFactory f = rex.getTypeFactory();
    SqlTypeName from = node.getType().getSqlTypeName();
    SqlTypeName to;
    switch (code) {
      case "i8":
        to = SqlTypeName.BIGINT;
        break;
      case "f8":
        to = SqlTypeName.DOUBLE;
        break;
      case "s":
        to = SqlTypeName.VARCHAR;
        break;
      default:
        return node;
    }
    if (from == to || (to == SqlTypeName.VARCHAR && from == SqlTypeName.CHAR)) {
      return node;
    }
    RelDataType type =
        f.createTypeWithNullability(f.createSqlType(to), node.getType().isNullable());
    return rex.makeAbstractCast(type, node, false);
  }

  private static Refusal refuse(String construct) {
    return new Refusal(DuckDbTranslator.BACKEND, construct);
  }
}

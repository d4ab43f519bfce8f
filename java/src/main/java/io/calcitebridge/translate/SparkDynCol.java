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
 *       {@code f8} DOUBLE, {@code n<p>x<s>} DECIMAL(p, s), {@code s} STRING, {@code dt} DATE,
 *       {@code ts} TIMESTAMP_NTZ. {@code AS BINARY} and {@code AS TIME} are refused (Spark has no
 *       TIME; binary values are refused on Spark).
 *   <li>{@code COLUMN_JSON}, {@code COLUMN_LIST}, {@code COLUMN_CHECK} and {@code COLUMN_EXISTS}
 *       become {@code cb_dyncol_json}, ... of the same arguments.
 *   <li>{@code COLUMN_CREATE}, {@code COLUMN_ADD} and {@code COLUMN_DELETE}, whose results are
 *       binary, are refused.
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
   * The Spark call of {@code call}, a COLUMN_* call (operands already rewritten); throws {@link
   * Refusal} for a function or a form not covered.
   */
  static RexNode rewrite(RexBuilder rex, RexCall call) {
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
      throw refuse("the function " + f.getName() + " (it returns a blob)");
    }
    checkBlob(f, operands.get(0));
    checkKey(f, operands.get(1));
    String type = ((RexLiteral) operands.get(2)).getValueAs(String.class);
    String code = code(call.getType());
    if (code == null || type == null) {
      throw refuse("COLUMN_GET returning a value of type " + call.getType().getFullTypeString());
    }
    List<RexNode> args = new ArrayList<>();
    args.add(rex.makeLiteral(type));
    args.add(operands.get(0));
    args.add(operands.get(1));
    return rex.makeCall(
        call.getType(), new BackendUdf(PREFIX + "get_" + code, call.getType()), args);
  }

  private static void checkBlob(DynColFunction f, RexNode blob) {
    SqlTypeName t = blob.getType().getSqlTypeName();
    if (t != SqlTypeName.VARBINARY && t != SqlTypeName.NULL) {
      throw refuse(f.getName() + " over a blob of type " + blob.getType().getFullTypeString());
    }
  }

  private static void checkKey(DynColFunction f, RexNode key) {
    RelDataType t = key.getType();
    if (!SqlTypeFamily.INTEGER.contains(t)
        && !SqlTypeFamily.CHARACTER.contains(t)
        && t.getSqlTypeName() != SqlTypeName.NULL) {
      throw refuse(f.getName() + " with a key of type " + t.getFullTypeString());
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

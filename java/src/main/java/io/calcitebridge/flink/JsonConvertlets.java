package io.calcitebridge.flink;

import io.calcitebridge.functions.JsonFunctions;
import io.calcitebridge.types.TypeNames;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql2rel.SqlRexContext;
import org.apache.calcite.sql2rel.SqlRexConvertlet;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Calcite's JSON functions with Flink's result type: {@code JSON_VALUE}, {@code JSON_QUERY}, {@code
 * JSON_OBJECT} and {@code JSON_ARRAY} are {@code STRING} ({@link JsonFunctions#STRING_RESULTS}), so
 * their calls are cast to it. Inside {@code JSON_OBJECT} and {@code JSON_ARRAY} that cast is left
 * out, so Calcite still sees a nested JSON value (and does not quote it as a string), and Flink's
 * {@code JSON(text)} there becomes Calcite's {@code FORMAT JSON}.
 */
final class JsonConvertlets {
  private JsonConvertlets() {}

  static @Nullable SqlRexConvertlet wrap(SqlCall call, @Nullable SqlRexConvertlet base) {
    if (base != null && JsonFunctions.IS_JSON.contains(call.getOperator())) {
      // FALSE for NULL, as in Flink.
      return (cx, c) ->
          cx.getRexBuilder().makeCall(SqlStdOperatorTable.IS_TRUE, base.convertCall(cx, c));
    }
    if (base == null || !JsonFunctions.STRING_RESULTS.contains(call.getOperator())) {
      return base;
    }
    return (cx, c) -> {
      RexBuilder rb = cx.getRexBuilder();
      RexNode converted = base.convertCall(cx, c);
      SqlOperator op = c.getOperator();
      if ((op == SqlStdOperatorTable.JSON_OBJECT || op == SqlStdOperatorTable.JSON_ARRAY)
          && converted instanceof RexCall rc) {
        List<RexNode> operands = new ArrayList<>();
        List<RexNode> given = rc.getOperands();
        for (int i = 0; i < given.size(); i++) {
          RexNode o = given.get(i);
          SqlNode node = given.size() == c.operandCount() ? c.operand(i) : c;
          operands.add(temporal(cx, node, nested(rb, o)));
        }
        converted = rb.makeCall(rc.getType(), op, operands);
      }
      RelDataType type = cx.getValidator().getValidatedNodeType(c);
      if (op == SqlStdOperatorTable.JSON_VALUE) {
        converted = returning(cx, c, type, converted);
      }
      return type.equals(converted.getType())
          ? converted
          : rb.makeAbstractCast(type, converted, false);
    };
  }

  /**
   * {@code JSON_VALUE} as Flink types its value: {@code STRING} (the text of the value, {@code
   * 1.50} of a JSON {@code 1.50}; cut to n characters for a {@code VARCHAR(n)}), {@code BOOLEAN}
   * and {@code INT} (the value as it is, an error for another), {@code DOUBLE} (of a JSON number
   * with a fraction or an exponent, see {@link JsonFunctions#JSON_VALUE_DOUBLE}). Flink refuses any
   * other {@code RETURNING} type, and so does this; Calcite's {@code DECIMAL} or {@code BIGINT}
   * would have computed it otherwise.
   */
  private static RexNode returning(
      SqlRexContext cx, SqlCall call, RelDataType type, RexNode converted) {
    switch (type.getSqlTypeName()) {
      case BOOLEAN, INTEGER -> {
        return converted;
      }
      case VARCHAR -> {
        // The text of the value as a STRING, then cast to a VARCHAR(n): Flink cuts it to n.
        RelDataTypeFactory f = cx.getTypeFactory();
        return converted instanceof RexCall rc
            ? cx.getRexBuilder()
                .makeCall(
                    f.createTypeWithNullability(
                        f.createSqlType(SqlTypeName.VARCHAR, Integer.MAX_VALUE), true),
                    rc.getOperator(),
                    rc.getOperands())
            : converted;
      }
      case DOUBLE -> {
        if (converted instanceof RexCall rc) {
          RelDataTypeFactory f = cx.getTypeFactory();
          RexNode value =
              cx.getRexBuilder()
                  .makeCall(
                      f.createTypeWithNullability(f.createSqlType(SqlTypeName.ANY), true),
                      rc.getOperator(),
                      rc.getOperands());
          return cx.getRexBuilder()
              .makeCall(
                  f.createTypeWithNullability(type, true),
                  JsonFunctions.JSON_VALUE_DOUBLE,
                  List.of(value));
        }
        return converted;
      }
      default ->
          throw cx.getValidator()
              .newValidationError(
                  call,
                  JsonFunctions.Messages.RESOURCE.jsonValueReturning(
                      TypeNames.renderNullable(type)));
    }
  }

  /**
   * A temporal value of JSON_OBJECT or JSON_ARRAY as Flink writes it: a {@code TIMESTAMP} as its
   * ISO text ({@code "2024-02-29T10:00:00.123"}), a {@code TIMESTAMP_LTZ} as an instant ({@code
   * ...Z}). Flink refuses a {@code DATE} or {@code TIME} there (not a scalar JSON value); Calcite's
   * would write its internal number (the day, the millisecond of the day).
   */
  private static RexNode temporal(SqlRexContext cx, SqlNode node, RexNode o) {
    return switch (o.getType().getSqlTypeName()) {
      case TIMESTAMP -> cx.getRexBuilder().makeCall(JsonFunctions.isoText(false), o);
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE ->
          cx.getRexBuilder().makeCall(JsonFunctions.isoText(true), o);
      case DATE, TIME ->
          throw cx.getValidator()
              .newValidationError(
                  node,
                  org.apache.calcite.util.Static.RESOURCE.typeNotSupported(
                      o.getType().getSqlTypeName().getName()
                          + " as a JSON value (cast it to STRING)"));
      default -> o;
    };
  }

  /** An operand of JSON_OBJECT or JSON_ARRAY without the cast above, JSON(text) as JSON. */
  private static RexNode nested(RexBuilder rb, RexNode o) {
    if (o.getKind() == SqlKind.CAST
        && ((RexCall) o).getOperands().get(0) instanceof RexCall inner
        && JsonFunctions.STRING_RESULTS.contains(inner.getOperator())) {
      return inner;
    }
    if (o instanceof RexCall call && call.getOperator() == JsonFunctions.JSON) {
      return rb.makeCall(SqlStdOperatorTable.JSON_TYPE_OPERATOR, call.getOperands().get(0));
    }
    return o;
  }
}

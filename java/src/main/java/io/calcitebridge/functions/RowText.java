package io.calcitebridge.functions;

import java.util.List;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.fun.SqlCastFunction;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql2rel.SqlRexContext;

/**
 * Flink's {@code CAST(r AS STRING)} of a ROW: {@code (Bob, 42)}, each field as its own cast to
 * STRING gives it, {@code NULL} for a NULL field, a nested ROW in parentheses; NULL for a NULL row.
 * Calcite's cast refuses a ROW to a character type, so the validator gives such a cast the operator
 * {@link #CAST}, which accepts it, and SQL conversion builds the text from the fields. An ARRAY or
 * MAP field is written as Flink writes it ({@code [1, NULL]}, {@code {k=1}}) when its values are
 * numbers, booleans, strings, DATEs, TIMESTAMPs, bytes, ROWs of them ({@code [(1, x)]}) or such
 * collections; a MULTISET as its elements with their counts ({@code {1=2, 2=1}}). An ARRAY, MAP or
 * MULTISET cast to STRING itself is written the same way; a VARIANT in a ROW as its JSON text.
 */
public final class RowText {
  private RowText() {}

  /** CAST of a ROW to a character type; the validator sets it on such a call. */
  public static final SqlCastFunction CAST =
      new SqlCastFunction() {
        @Override
        public boolean checkOperandTypes(SqlCallBinding callBinding, boolean throwOnFailure) {
          return true;
        }

        /** The character type, NULL where the ROW is. */
        @Override
        public RelDataType inferReturnType(org.apache.calcite.sql.SqlOperatorBinding binding) {
          return binding
              .getTypeFactory()
              .createTypeWithNullability(
                  binding.getOperandType(1), binding.getOperandType(0).isNullable());
        }

        /** As validated, without looking CAST up again (which would give Calcite's operator). */
        @Override
        public RelDataType deriveType(
            org.apache.calcite.sql.validate.SqlValidator validator,
            org.apache.calcite.sql.validate.SqlValidatorScope scope,
            SqlCall call) {
          for (org.apache.calcite.sql.SqlNode operand : call.getOperandList()) {
            validator.deriveType(scope, operand);
          }
          return validateOperands(validator, scope, call);
        }
      };

  /**
   * Whether a ROW value is NULL itself; SQL's {@code IS NULL} of a ROW is also TRUE for a row whose
   * fields are all NULL, which Flink writes as {@code (NULL)}.
   */
  private static final SqlOperator ROW_IS_NULL =
      Fn.fn(
          "IS NULL",
          org.apache.calcite.sql.type.ReturnTypes.BOOLEAN,
          org.apache.calcite.sql.type.OperandTypes.ANY,
          RowText.class,
          "rowIsNull",
          org.apache.calcite.adapter.enumerable.NullPolicy.NONE);

  /** Whether {@code op} is the test of a ROW value being NULL itself (not its fields). */
  public static boolean isRowIsNull(SqlOperator op) {
    return op == ROW_IS_NULL;
  }

  public static boolean rowIsNull(@org.checkerframework.checker.nullness.qual.Nullable Object row) {
    return row == null;
  }

  /** Whether a CAST of a value of {@code source} to a character type is a ROW's text. */
  public static boolean formats(RelDataType source) {
    if (collection(source) && source.getSqlTypeName() != SqlTypeName.VARIANT) {
      return true;
    }
    if (!source.isStruct() || source.getSqlTypeName() != SqlTypeName.ROW) {
      return false;
    }
    for (RelDataTypeField field : source.getFieldList()) {
      RelDataType t = field.getType();
      if (t.isStruct() ? !formats(t) : !scalar(t) && !collection(t)) {
        return false;
      }
    }
    return true;
  }

  /**
   * The description of the values of {@code t} that {@link #collectionText} reads: {@code I} an
   * integer or a floating-point number, {@code B} a BOOLEAN, {@code S} a string, {@code D<s>;} a
   * DECIMAL of scale {@code s}, {@code d} a DATE, {@code T<p>;} a TIMESTAMP(p), {@code t<p>;} a
   * TIME(p), {@code X} bytes, {@code A<e>} an ARRAY, {@code U<e>} a MULTISET, {@code M<k><v>} a
   * MAP, {@code R<n>;<f1>...<fn>} a ROW of n fields, {@code J} a VARIANT; null for another type.
   */
  static @org.checkerframework.checker.nullness.qual.Nullable String spec(RelDataType t) {
    switch (t.getSqlTypeName()) {
      case TINYINT:
      case SMALLINT:
      case INTEGER:
      case BIGINT:
      case REAL:
      case FLOAT:
      case DOUBLE:
        return "I";
      case BOOLEAN:
        return "B";
      case CHAR:
      case VARCHAR:
        return "S";
      case DECIMAL:
        return "D" + t.getScale() + ";";
      case DATE:
        return "d";
      case TIMESTAMP:
        return "T" + t.getPrecision() + ";";
      case TIME:
        return "t" + t.getPrecision() + ";";
      case BINARY:
      case VARBINARY:
        return "X";
      case ARRAY:
      case MULTISET:
        {
          RelDataType e = t.getComponentType();
          String inner = e == null ? null : spec(e);
          String kind = t.getSqlTypeName() == SqlTypeName.ARRAY ? "A" : "U";
          return inner == null ? null : kind + inner;
        }
      case VARIANT:
        return "J";
      case ROW:
        {
          StringBuilder fields = new StringBuilder("R").append(t.getFieldCount()).append(';');
          for (RelDataTypeField f : t.getFieldList()) {
            String inner = spec(f.getType());
            if (inner == null) {
              return null;
            }
            fields.append(inner);
          }
          return fields.toString();
        }
      case MAP:
        {
          RelDataType k = t.getKeyType();
          RelDataType v = t.getValueType();
          String ks = k == null ? null : spec(k);
          String vs = v == null ? null : spec(v);
          return ks == null || vs == null ? null : "M" + ks + vs;
        }
      default:
        return null;
    }
  }

  /**
   * The text of an ARRAY or MAP as Flink's CAST to STRING writes it: {@code [1, NULL]}, {@code
   * {k=1}}, its values as their own casts write them ({@code spec} describes them, see {@link
   * #spec}).
   */
  static final SqlOperator COLLECTION_TEXT =
      Fn.fn(
          "$COLLECTION_TEXT",
          b ->
              b.getTypeFactory()
                  .createTypeWithNullability(
                      b.getTypeFactory().createSqlType(SqlTypeName.VARCHAR, Integer.MAX_VALUE),
                      b.getOperandType(0).isNullable()),
          org.apache.calcite.sql.type.OperandTypes.ANY_ANY,
          RowText.class,
          "collectionText",
          org.apache.calcite.adapter.enumerable.NullPolicy.STRICT);

  public static String collectionText(Object value, String spec) {
    StringBuilder out = new StringBuilder();
    int end = write(out, value, spec, 0);
    if (end != spec.length()) {
      throw new IllegalArgumentException("bad value description " + spec);
    }
    return out.toString();
  }

  /** Writes {@code value} described at {@code spec[at...]}; the index after its description. */
  private static int write(
      StringBuilder out,
      @org.checkerframework.checker.nullness.qual.Nullable Object value,
      String spec,
      int at) {
    char kind = spec.charAt(at);
    int next = skip(spec, at);
    if (value == null) {
      out.append("NULL");
      return next;
    }
    switch (kind) {
      case 'B':
        out.append(((Boolean) value) ? "TRUE" : "FALSE");
        break;
      case 'D':
        out.append(
            ((java.math.BigDecimal) value)
                .setScale(
                    Integer.parseInt(spec.substring(at + 1, next - 1)),
                    java.math.RoundingMode.HALF_UP)
                .toPlainString());
        break;
      case 'd':
        out.append(java.time.LocalDate.ofEpochDay(((Number) value).longValue()));
        break;
      case 'T':
        out.append(
            TemporalFunctions.timestampToString(
                ((Number) value).longValue(),
                Integer.parseInt(spec.substring(at + 1, next - 1)),
                io.calcitebridge.types.ArrowTypes.ticksPerMilli(
                    Integer.parseInt(spec.substring(at + 1, next - 1)))));
        break;
      case 't':
        out.append(
            TemporalFunctions.timeToString(
                ((Number) value).intValue(), Integer.parseInt(spec.substring(at + 1, next - 1))));
        break;
      case 'X':
        byte[] bytes =
            value instanceof org.apache.calcite.avatica.util.ByteString b
                ? b.getBytes()
                : (byte[]) value;
        out.append(new String(bytes, java.nio.charset.StandardCharsets.UTF_8));
        break;
      case 'A':
        {
          out.append('[');
          boolean first = true;
          for (Object e : (List<?>) value) {
            out.append(first ? "" : ", ");
            first = false;
            write(out, e, spec, at + 1);
          }
          out.append(']');
          break;
        }
      case 'J':
        out.append(value); // a VARIANT's JSON text (a Jackson tree)
        break;
      case 'U':
        {
          // a MULTISET as Flink writes it: each distinct element with its count
          java.util.Map<@org.checkerframework.checker.nullness.qual.Nullable Object, Integer>
              counts = new java.util.LinkedHashMap<>();
          for (Object e : (List<?>) value) {
            counts.merge(e, 1, Integer::sum);
          }
          out.append('{');
          boolean first = true;
          for (java.util.Map.Entry<?, Integer> e : counts.entrySet()) {
            out.append(first ? "" : ", ");
            first = false;
            write(out, e.getKey(), spec, at + 1);
            out.append('=').append(e.getValue());
          }
          out.append('}');
          break;
        }
      case 'R':
        {
          int semicolon = spec.indexOf(';', at);
          int n = Integer.parseInt(spec.substring(at + 1, semicolon));
          List<?> fields =
              value instanceof Object[] a ? java.util.Arrays.asList(a) : (List<?>) value;
          out.append('(');
          int field = semicolon + 1;
          for (int i = 0; i < n; i++) {
            out.append(i == 0 ? "" : ", ");
            field = write(out, fields.get(i), spec, field);
          }
          out.append(')');
          break;
        }
      case 'M':
        {
          int valueAt = skip(spec, at + 1);
          out.append('{');
          boolean first = true;
          for (java.util.Map.Entry<?, ?> e : ((java.util.Map<?, ?>) value).entrySet()) {
            out.append(first ? "" : ", ");
            first = false;
            write(out, e.getKey(), spec, at + 1);
            out.append('=');
            write(out, e.getValue(), spec, valueAt);
          }
          out.append('}');
          break;
        }
      default:
        out.append(value);
    }
    return next;
  }

  /** The index after the description that starts at {@code at}. */
  private static int skip(String spec, int at) {
    switch (spec.charAt(at)) {
      case 'D':
      case 'T':
      case 't':
        return spec.indexOf(';', at) + 1;
      case 'A':
      case 'U':
        return skip(spec, at + 1);
      case 'R':
        {
          int semicolon = spec.indexOf(';', at);
          int n = Integer.parseInt(spec.substring(at + 1, semicolon));
          int next = semicolon + 1;
          for (int i = 0; i < n; i++) {
            next = skip(spec, next);
          }
          return next;
        }
      case 'M':
        return skip(spec, skip(spec, at + 1));
      default:
        return at + 1;
    }
  }

  private static boolean collection(RelDataType t) {
    return (t.getSqlTypeName() == SqlTypeName.ARRAY
            || t.getSqlTypeName() == SqlTypeName.MAP
            || t.getSqlTypeName() == SqlTypeName.MULTISET
            || t.getSqlTypeName() == SqlTypeName.VARIANT)
        && spec(t) != null;
  }

  private static boolean scalar(RelDataType t) {
    SqlTypeName n = t.getSqlTypeName();
    return n != SqlTypeName.ARRAY
        && n != SqlTypeName.MAP
        && n != SqlTypeName.MULTISET
        && n != SqlTypeName.VARIANT
        && n != SqlTypeName.ANY
        && n != SqlTypeName.OTHER
        && n != SqlTypeName.NULL
        && SqlTypeUtil.canCastFrom(
            new org.apache.calcite.sql.type.BasicSqlType(
                org.apache.calcite.rel.type.RelDataTypeSystem.DEFAULT, SqlTypeName.VARCHAR),
            t,
            true);
  }

  /** The conversion of {@code CAST(r AS <character type>)} with the operator {@link #CAST}. */
  public static RexNode convert(SqlRexContext cx, SqlCall c) {
    RexBuilder rex = cx.getRexBuilder();
    RelDataType target = cx.getValidator().getValidatedNodeType(c);
    RexNode row = cx.convertExpression(c.operand(0));
    return rex.makeCast(target, text(rex, row), false, false);
  }

  private static RelDataType string(RelDataTypeFactory f, boolean nullable) {
    return f.createTypeWithNullability(
        f.createSqlType(SqlTypeName.VARCHAR, Integer.MAX_VALUE), nullable);
  }

  /**
   * The text of {@code x} as Flink's CAST to STRING writes it, a {@code VARCHAR}; NULL for NULL. A
   * {@code TIMESTAMP(p)} has {@code p} digits of fraction, a {@code TIME(p)} its fraction without
   * trailing zeros ({@link TemporalFunctions#TIME_TO_STRING}).
   */
  public static RexNode text(RexBuilder rex, RexNode x) {
    RelDataTypeFactory f = rex.getTypeFactory();
    RelDataType type = x.getType();
    if (!type.isStruct()) {
      if (type.getSqlTypeName() == SqlTypeName.TIMESTAMP && type.getPrecision() > 0) {
        return rex.makeCall(
            string(f, type.isNullable()),
            TemporalFunctions.TIMESTAMP_TO_STRING,
            List.of(x, rex.makeExactLiteral(java.math.BigDecimal.valueOf(type.getPrecision()))));
      }
      if (type.getSqlTypeName() == SqlTypeName.TIME && type.getPrecision() > 0) {
        return rex.makeCall(
            string(f, type.isNullable()),
            TemporalFunctions.TIME_TO_STRING,
            List.of(x, rex.makeExactLiteral(java.math.BigDecimal.valueOf(type.getPrecision()))));
      }
      if (collection(type)) {
        return rex.makeCall(
            string(f, type.isNullable()),
            COLLECTION_TEXT,
            List.of(x, rex.makeLiteral(java.util.Objects.requireNonNull(spec(type)))));
      }
      if (io.calcitebridge.types.BitmapType.is(type)) {
        return rex.makeCall(
            string(f, type.isNullable()), BitmapFunctions.BITMAP_TO_STRING, List.of(x));
      }
      if (SqlTypeFamily.BINARY.contains(type)) {
        return rex.makeCall(string(f, type.isNullable()), NumberFunctions.DECODE_UTF8, List.of(x));
      }
      return rex.makeCast(string(f, type.isNullable()), x, false, false);
    }
    RelDataType text = string(f, false);
    RexNode out = rex.makeLiteral("(");
    List<RelDataTypeField> fields = type.getFieldList();
    for (int i = 0; i < fields.size(); i++) {
      RexNode field = text(rex, rex.makeFieldAccess(x, i));
      if (field.getType().isNullable()) {
        field =
            rex.makeCall(
                text,
                SqlStdOperatorTable.CASE,
                List.of(
                    rex.makeCall(SqlStdOperatorTable.IS_NULL, field),
                    rex.makeLiteral("NULL"),
                    rex.makeCast(text, field, false, false)));
      }
      if (i > 0) {
        out = rex.makeCall(text, SqlStdOperatorTable.CONCAT, List.of(out, rex.makeLiteral(", ")));
      }
      out = rex.makeCall(text, SqlStdOperatorTable.CONCAT, List.of(out, field));
    }
    out = rex.makeCall(text, SqlStdOperatorTable.CONCAT, List.of(out, rex.makeLiteral(")")));
    if (!type.isNullable()) {
      return out;
    }
    if (org.apache.calcite.rex.RexUtil.isNullLiteral(x, true)) {
      return rex.makeNullLiteral(string(f, true));
    }
    return rex.makeCall(
        string(f, true),
        SqlStdOperatorTable.CASE,
        List.of(
            rex.makeCall(ROW_IS_NULL, x),
            rex.makeNullLiteral(string(f, true)),
            rex.makeCast(string(f, true), out, false, false)));
  }
}

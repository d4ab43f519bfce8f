package io.calcitebridge.translate;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.SqlAbstractDateTimeLiteral;
import org.apache.calcite.sql.SqlAlienSystemTypeNameSpec;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlDialect;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.dialect.SparkSqlDialect;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Calcite's Spark dialect with the spellings our translation needs: identifiers always in
 * backticks, Spark's own type names in casts ({@code TIMESTAMP_NTZ}, {@code TIMESTAMP_LTZ}, {@code
 * STRING}, {@code STRUCT<...>}), timestamp literals of the right kind, and string literals with
 * Spark's backslash escapes.
 */
final class SparkDialect extends SparkSqlDialect {
  /**
   * An OFFSET or LIMIT past the largest INT as the largest INT: Spark takes an INT there and
   * refused {@code LIMIT 9223372036854775807} ("must be integer type"). The rows are the same, as
   * no Spark result brought back here reaches 2^31 rows.
   */
  /**
   * {@code ARRAY_AGG} as Spark's {@code collect_list}: the whitelist lets it through only over a
   * ROW, which is never NULL, so that Spark's dropping of NULL elements changes nothing (a Python
   * aggregate function's rows, {@code f$finish(ARRAY_AGG(ROW(a, b)))}).
   */
  @Override
  public void unparseCall(
      SqlWriter writer, org.apache.calcite.sql.SqlCall call, int leftPrec, int rightPrec) {
    if (call.getOperator().getKind() == org.apache.calcite.sql.SqlKind.ARRAY_AGG
        || (call.getOperator() instanceof org.apache.calcite.sql.SqlAggFunction
            && call.getOperator().getName().equals("ARRAY_AGG"))) {
      writer.print("collect_list");
      SqlWriter.Frame frame = writer.startList("(", ")");
      if (call.getFunctionQuantifier() != null) {
        call.getFunctionQuantifier().unparse(writer, 0, 0);
      }
      for (SqlNode operand : call.getOperandList()) {
        writer.sep(",");
        operand.unparse(writer, 0, 0);
      }
      writer.endList(frame);
      return;
    }
    super.unparseCall(writer, call, leftPrec, rightPrec);
  }

  @Override
  public void unparseOffsetFetch(
      org.apache.calcite.sql.SqlWriter writer,
      org.apache.calcite.sql.@org.checkerframework.checker.nullness.qual.Nullable SqlNode offset,
      org.apache.calcite.sql.@org.checkerframework.checker.nullness.qual.Nullable SqlNode fetch) {
    super.unparseOffsetFetch(writer, intCount(offset), intCount(fetch));
  }

  private static org.apache.calcite.sql.SqlNode intCount(org.apache.calcite.sql.SqlNode n) {
    if (n instanceof org.apache.calcite.sql.SqlNumericLiteral literal
        && literal.getValue() instanceof java.math.BigDecimal value
        && value.compareTo(java.math.BigDecimal.valueOf(Integer.MAX_VALUE)) > 0) {
      return org.apache.calcite.sql.SqlLiteral.createExactNumeric(
          String.valueOf(Integer.MAX_VALUE), n.getParserPosition());
    }
    return n;
  }

  static final SparkDialect INSTANCE = new SparkDialect();

  private SparkDialect() {
    super(SparkSqlDialect.DEFAULT_CONTEXT.withIdentifierQuoteString("`"));
  }

  /** Spark's name of {@code type}, or null when the translation does not cast to it. */
  static @Nullable String typeName(RelDataType type) {
    switch (type.getSqlTypeName()) {
      case BOOLEAN:
        return "BOOLEAN";
      case TINYINT:
        return "TINYINT";
      case SMALLINT:
        return "SMALLINT";
      case INTEGER:
        return "INT";
      case BIGINT:
        return "BIGINT";
      case REAL:
        return "FLOAT";
      case FLOAT:
      case DOUBLE:
        return "DOUBLE";
      case DECIMAL:
        return "DECIMAL(" + type.getPrecision() + ", " + type.getScale() + ")";
      case VARCHAR:
        return "STRING";
      case DATE:
        return "DATE";
      case TIMESTAMP:
        return "TIMESTAMP_NTZ";
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
        return "TIMESTAMP_LTZ";
      case ARRAY:
        {
          RelDataType component = type.getComponentType();
          String inner = component == null ? null : typeName(component);
          return inner == null ? null : "ARRAY<" + inner + ">";
        }
      case ROW:
        {
          List<String> fields = new ArrayList<>();
          for (RelDataTypeField f : type.getFieldList()) {
            String inner = typeName(f.getType());
            if (inner == null) {
              return null;
            }
            fields.add(quote(f.getName()) + ": " + inner);
          }
          return "STRUCT<" + String.join(", ", fields) + ">";
        }
      default:
        return null;
    }
  }

  /** {@code name} as a Spark identifier, in backticks. */
  static String quote(String name) {
    return "`" + name.replace("`", "``") + "`";
  }

  @Override
  public @Nullable SqlNode getCastSpec(RelDataType type) {
    String name = typeName(type);
    if (name == null) {
      throw new Refusal(
          SparkTranslator.BACKEND,
          "a cast to " + io.calcitebridge.types.TypeNames.renderNullable(type));
    }
    return new SqlDataTypeSpec(new VerbatimTypeName(name, type), SqlParserPos.ZERO);
  }

  /**
   * A type name written as it is given. {@link SqlAlienSystemTypeNameSpec} writes its name as a
   * keyword, which upper-cases it: the field names of a {@code STRUCT<`a`: INT>} would become
   * {@code `A`}, and Spark's case-sensitive {@code .`a`} would not find them.
   */
  private static final class VerbatimTypeName extends SqlAlienSystemTypeNameSpec {
    private final String name;

    VerbatimTypeName(String name, RelDataType type) {
      super(name, type.getSqlTypeName(), SqlParserPos.ZERO);
      this.name = name;
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
      writer.print(name);
      writer.setNeedWhitespace(true);
    }
  }

  /**
   * A TIMESTAMP literal is a {@code TIMESTAMP_NTZ} in Spark; a TIMESTAMP WITH LOCAL TIME ZONE
   * literal, an instant written in UTC, is a {@code TIMESTAMP_LTZ} with the zone spelled out (Spark
   * reads a bare one in the session's zone).
   */
  @Override
  public void unparseDateTimeLiteral(
      SqlWriter writer, SqlAbstractDateTimeLiteral literal, int leftPrec, int rightPrec) {
    switch (literal.getTypeName()) {
      case TIMESTAMP:
        writer.literal("TIMESTAMP_NTZ '" + literal.toFormattedString() + "'");
        return;
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
        writer.literal("TIMESTAMP_LTZ '" + literal.toFormattedString() + "+00:00'");
        return;
      default:
        super.unparseDateTimeLiteral(writer, literal, leftPrec, rightPrec);
    }
  }

  /** Spark reads a backslash in a string literal as an escape: both it and quotes are escaped. */
  @Override
  public void quoteStringLiteral(StringBuilder buf, @Nullable String charsetName, String val) {
    buf.append('\'').append(val.replace("\\", "\\\\").replace("'", "\\'")).append('\'');
  }

  @Override
  public void quoteStringLiteralUnicode(StringBuilder buf, String val) {
    quoteStringLiteral(buf, null, val);
  }

  static SqlDialect dialect() {
    return INSTANCE;
  }
}

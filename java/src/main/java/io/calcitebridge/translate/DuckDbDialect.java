package io.calcitebridge.translate;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlAlienSystemTypeNameSpec;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.dialect.DuckDBSqlDialect;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Calcite's DuckDB dialect with the spellings our translation needs: DuckDB's own type names in
 * casts (no lengths or character sets on strings). Integer division ({@link
 * DuckDbOperators#INT_DIVIDE}) is a binary operator named {@code //}, written with the precedence
 * of {@code /}.
 */
final class DuckDbDialect extends DuckDBSqlDialect {
  static final DuckDbDialect INSTANCE = new DuckDbDialect();

  private DuckDbDialect() {
    super(DuckDBSqlDialect.DEFAULT_CONTEXT);
  }

  /**
   * A TIMESTAMP literal finer than microseconds is DuckDB's TIMESTAMP_NS, which keeps them; a
   * TIMESTAMP_LTZ literal, an instant written in UTC, is a TIMESTAMPTZ at offset 0.
   */
  @Override
  public void unparseDateTimeLiteral(
      org.apache.calcite.sql.SqlWriter writer,
      org.apache.calcite.sql.SqlAbstractDateTimeLiteral literal,
      int leftPrec,
      int rightPrec) {
    if (literal.getTypeName() == org.apache.calcite.sql.type.SqlTypeName.TIMESTAMP
        && literal.getPrec() > 6) {
      writer.literal("TIMESTAMP_NS '" + literal.toFormattedString() + "'");
      return;
    }
    if (literal.getTypeName()
        == org.apache.calcite.sql.type.SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE) {
      writer.literal("TIMESTAMPTZ '" + literal.toFormattedString() + "+00'");
      return;
    }
    super.unparseDateTimeLiteral(writer, literal, leftPrec, rightPrec);
  }

  /** DuckDB's name of {@code type}, or null when the translation does not cast to it. */
  static @Nullable String typeName(RelDataType type) {
    switch (type.getSqlTypeName()) {
      case BOOLEAN:
        return "BOOLEAN";
      case TINYINT:
        return "TINYINT";
      case SMALLINT:
        return "SMALLINT";
      case INTEGER:
        return "INTEGER";
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
        return "VARCHAR";
      case DATE:
        return "DATE";
      case TIME:
        // DuckDB's TIME keeps microseconds; ours, milliseconds (Whitelist#time).
        return "TIME";
      case TIMESTAMP:
        // DuckDB's TIMESTAMP keeps microseconds; TIMESTAMP_NS nanoseconds.
        return type.getPrecision() > 6 ? "TIMESTAMP_NS" : "TIMESTAMP";
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
        // An instant; DuckDB's TIMESTAMPTZ keeps microseconds (Whitelist#instant).
        return type.getPrecision() > 6 ? null : "TIMESTAMPTZ";
      case VARBINARY:
        return "BLOB";
      case ARRAY:
        {
          RelDataType element = type.getComponentType();
          String name = element == null ? null : typeName(element);
          return name == null ? null : name + "[]";
        }
      case ROW:
        {
          // For a NULL of a ROW type only (Whitelist#checkCast): fields DuckDB names apart.
          StringBuilder struct = new StringBuilder("STRUCT(");
          java.util.Set<String> seen = new java.util.HashSet<>();
          for (org.apache.calcite.rel.type.RelDataTypeField f : type.getFieldList()) {
            String name = typeName(f.getType());
            if (name == null || !seen.add(f.getName().toLowerCase(java.util.Locale.ROOT))) {
              return null;
            }
            struct
                .append(seen.size() == 1 ? "" : ", ")
                .append('"')
                .append(f.getName().replace("\"", "\"\""))
                .append("\" ")
                .append(name);
          }
          return seen.isEmpty() ? null : struct.append(')').toString();
        }
      default:
        return null;
    }
  }

  @Override
  public @Nullable SqlNode getCastSpec(RelDataType type) {
    String name = typeName(type);
    if (name == null) {
      throw new Refusal(
          "duckdb", "a cast to " + io.calcitebridge.types.TypeNames.renderNullable(type));
    }
    return new SqlDataTypeSpec(
        new SqlAlienSystemTypeNameSpec(name, type.getSqlTypeName(), SqlParserPos.ZERO),
        SqlParserPos.ZERO);
  }
}

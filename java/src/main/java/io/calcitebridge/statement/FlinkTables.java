package io.calcitebridge.statement;

import io.calcitebridge.catalog.ColumnDef;
import io.calcitebridge.catalog.ColumnKind;
import io.calcitebridge.catalog.FlinkSpec;
import io.calcitebridge.errors.ErrorKind;
import io.calcitebridge.errors.PositionedException;
import io.calcitebridge.plan.PlannerContext;
import io.calcitebridge.sql.FlinkTableClauses;
import io.calcitebridge.sql.SqlCreateTable;
import io.calcitebridge.sql.SqlTableColumn;
import io.calcitebridge.sql.SqlTableConstraint;
import io.calcitebridge.sql.SqlWatermark;
import io.calcitebridge.types.TypeNames;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlValidatorUtil;
import org.apache.calcite.util.Pair;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Flink's clauses of {@code CREATE TABLE} (primary key, watermark, {@code PROCTIME()}, comments,
 * {@code PARTITIONED BY}), checked as Flink checks them, and Flink's column listing ({@code SHOW
 * COLUMNS}).
 */
final class FlinkTables {
  private FlinkTables() {}

  private static final String ENFORCED_MESSAGE =
      "Flink doesn't support ENFORCED mode for PRIMARY KEY constraint. ENFORCED/NOT ENFORCED"
          + " controls if the constraint checks are performed on the incoming/outgoing data."
          + " Flink does not own the data therefore the only supported mode is the NOT ENFORCED"
          + " mode";

  private static final String TIME_TYPES =
      "The field must be of type TIMESTAMP(p) or TIMESTAMP_LTZ(p), the supported precision 'p'"
          + " is from 0 to 3";

  /**
   * Checks the key constraints and PARTITIONED BY of {@code create}, and makes the key columns NOT
   * NULL in {@code columns} (whose computed columns are still null). Returns the table's Flink
   * declarations without the watermark.
   */
  static FlinkSpec keyAndPartitions(
      SqlCreateTable create, List<ColumnDef> columns, RelDataTypeFactory tf) {
    FlinkTableClauses clauses = create.flink();
    List<SqlTableColumn> declared = create.columns();
    String keyName = null;
    List<String> key = List.of();
    SqlTableConstraint primary = null;
    for (SqlTableConstraint c : clauses.constraintList()) {
      if (c.isUnique()) {
        throw validation("UNIQUE constraint is not supported yet", c);
      }
      if (c.isEnforced()) {
        throw validation(ENFORCED_MESSAGE, c);
      }
      if (primary != null) {
        throw validation("Duplicate primary key definition", c);
      }
      primary = c;
      key = c.columnNames();
      keyName = c.name() != null ? c.name() : "PK_" + String.join("_", key);
      for (String col : key) {
        int i = indexOf(declared, col);
        if (i < 0) {
          throw validation(
              "Invalid primary key '" + keyName + "'. Column '" + col + "' does not exist.", c);
        }
        ColumnDef def = columns.get(i);
        if (def == null || def.kind() != ColumnKind.PHYSICAL) {
          throw validation(
              "Invalid primary key '"
                  + keyName
                  + "'. Column '"
                  + col
                  + "' is not a physical column.",
              c);
        }
      }
    }
    for (String col : key) {
      int i = indexOf(declared, col);
      ColumnDef def = columns.get(i);
      columns.set(
          i, ColumnDef.physical(def.name(), tf.createTypeWithNullability(def.type(), false)));
    }
    List<String> partitions = clauses.partitionNames();
    for (int p = 0; p < partitions.size(); p++) {
      String col = partitions.get(p);
      if (indexOf(declared, col) < 0) {
        throw new PositionedException(
            ErrorKind.VALIDATION,
            "Partition column '"
                + col
                + "' not defined in the table schema. Available columns: ["
                + declared.stream().map(d -> "'" + d.name() + "'").collect(Collectors.joining(", "))
                + "]",
            clauses.partitionKeys().get(p).getParserPosition());
      }
    }
    Map<String, String> comments = new LinkedHashMap<>();
    for (SqlTableColumn c : declared) {
      if (c.comment() != null) {
        comments.put(c.name(), c.comment());
      }
    }
    return new FlinkSpec(
        clauses.temporary(), keyName, key, null, null, clauses.commentText(), comments, partitions);
  }

  /**
   * Checks {@code WATERMARK FOR col AS expr} against the typed {@code columns} and returns {@code
   * spec} with it; the column must be a TIMESTAMP(p) or TIMESTAMP_LTZ(p) with p from 0 to 3, and so
   * must the expression.
   */
  static FlinkSpec watermark(
      SqlCreateTable create, List<ColumnDef> columns, FlinkSpec spec, PlannerContext context) {
    List<SqlWatermark> watermarks = create.flink().watermarkList();
    if (watermarks.isEmpty()) {
      return spec;
    }
    if (watermarks.size() > 1) {
      throw new PositionedException(
          ErrorKind.VALIDATION,
          "Multiple watermark definition is not supported yet.",
          watermarks.get(1).getParserPosition());
    }
    SqlWatermark w = watermarks.get(0);
    String column = w.column().getSimple();
    ColumnDef rowtime = null;
    for (ColumnDef c : columns) {
      if (c.name().equals(column)) {
        rowtime = c;
      }
    }
    if (rowtime == null) {
      throw new PositionedException(
          ErrorKind.VALIDATION,
          "The rowtime attribute field '"
              + column
              + "' is not defined in the table schema. Available fields: ["
              + columns.stream().map(c -> "'" + c.name() + "'").collect(Collectors.joining(", "))
              + "]",
          w.column().getParserPosition());
    }
    if (!isTimeAttributeType(rowtime.type())) {
      throw new PositionedException(
          ErrorKind.VALIDATION,
          "Invalid data type of time field for watermark definition. "
              + TIME_TYPES
              + ", but the time field type is "
              + TypeNames.renderNullable(rowtime.type()),
          w.column().getParserPosition());
    }
    String text = context.unparse(w.expression());
    RelDataType rowType =
        io.calcitebridge.catalog.TableDef.rowTypeOf(context.typeFactory(), columns);
    Pair<SqlNode, RelDataType> validated =
        SqlValidatorUtil.validateExprWithRowType(
            true,
            context.operatorTable(),
            context.typeFactory(),
            rowType,
            context.parseExpression(text));
    if (!isTimeAttributeType(validated.right)) {
      throw new PositionedException(
          ErrorKind.VALIDATION,
          "Invalid data type of expression for watermark definition. "
              + TIME_TYPES
              + ", but the watermark expression type is "
              + TypeNames.renderNullable(validated.right),
          w.expression().getParserPosition());
    }
    return new FlinkSpec(
        spec.temporary(),
        spec.primaryKeyName(),
        spec.primaryKey(),
        column,
        text,
        spec.comment(),
        spec.columnComments(),
        spec.partitionKeys());
  }

  private static boolean isTimeAttributeType(RelDataType type) {
    SqlTypeName name = type.getSqlTypeName();
    return (name == SqlTypeName.TIMESTAMP || name == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE)
        && type.getPrecision() <= 3;
  }

  /** Whether {@code expr} is {@code PROCTIME()}, which makes a processing-time attribute. */
  static boolean isProctime(SqlNode expr) {
    return expr instanceof SqlCall call
        && call.operandCount() == 0
        && call.getOperator().getName().equalsIgnoreCase("PROCTIME");
  }

  /** The type of a {@code PROCTIME()} column: {@code TIMESTAMP_LTZ(3) NOT NULL}. */
  static RelDataType proctimeType(PlannerContext context) {
    RelDataTypeFactory tf = context.typeFactory();
    return tf.createTypeWithNullability(
        tf.createSqlType(SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE, 3), false);
  }

  /** The expression text of a processing-time column, as Flink shows it. */
  static final String PROCTIME_TEXT = "PROCTIME()";

  /** Whether a column is a processing-time attribute (a computed {@code PROCTIME()}). */
  static boolean isProctimeColumn(ColumnDef c) {
    return c.kind() == ColumnKind.COMPUTED && PROCTIME_TEXT.equals(c.expression());
  }

  /**
   * The expression that computes a computed column's {@code text}: a batch query reads a
   * processing-time attribute as the statement's time, {@code NOW()} (Flink's batch mode
   * materializes it the same way); every other expression is itself.
   */
  static String evaluated(String text) {
    return PROCTIME_TEXT.equals(text) ? "NOW()" : text;
  }

  private static int indexOf(List<SqlTableColumn> columns, String name) {
    for (int i = 0; i < columns.size(); i++) {
      if (columns.get(i).name().equals(name)) {
        return i;
      }
    }
    return -1;
  }

  private static PositionedException validation(String message, SqlNode at) {
    return new PositionedException(ErrorKind.VALIDATION, message, at.getParserPosition());
  }

  // ---------------------------------------------------------------- time attributes

  /**
   * The time attributes of a view's columns, as Flink derives them through the view's query: a
   * column the query selects unchanged from a table's rowtime column ({@code WATERMARK FOR}) or
   * processing-time column ({@code AS PROCTIME()}), or from such a column of another view, stays
   * one; any expression over it (a cast, a function) is a plain timestamp. {@code names} are the
   * view's column names, in the order of {@code validated}'s fields.
   */
  static Map<String, String> timeAttributes(
      PlannerContext context,
      org.apache.calcite.sql.validate.SqlValidator validator,
      SqlNode validated,
      List<String> names) {
    Map<String, String> out = new LinkedHashMap<>();
    List<@Nullable List<String>> origins;
    try {
      origins = validator.getFieldOrigins(validated);
    } catch (RuntimeException e) {
      return out; // a query whose origins Calcite cannot trace has no time attributes
    }
    for (int i = 0; i < origins.size() && i < names.size(); i++) {
      List<String> origin = origins.get(i);
      if (origin == null || origin.size() < 2) {
        continue;
      }
      String kind = timeAttribute(context, origin);
      if (kind != null) {
        out.put(names.get(i), kind);
      }
    }
    return out;
  }

  /** The time attribute kind of the column that {@code origin} (table name parts, column) names. */
  private static @Nullable String timeAttribute(PlannerContext context, List<String> origin) {
    String column = origin.get(origin.size() - 1);
    io.calcitebridge.catalog.Catalog.Path path =
        context.catalog().path(origin.subList(0, origin.size() - 1));
    if (path == null) {
      return null;
    }
    io.calcitebridge.catalog.ViewDef view = context.catalog().view(path);
    if (view != null) {
      return view.timeAttributes().get(column);
    }
    if (!(context.catalog().table(path) instanceof io.calcitebridge.pushdown.BridgeTable table)) {
      return null;
    }
    if (table.def().flink().isRowtime(column)) {
      return io.calcitebridge.catalog.ViewDef.ROWTIME;
    }
    for (ColumnDef c : table.def().columns()) {
      if (c.name().equals(column) && isProctimeColumn(c)) {
        return io.calcitebridge.catalog.ViewDef.PROCTIME;
      }
    }
    return null;
  }

  // ---------------------------------------------------------------- SHOW COLUMNS

  /**
   * The type of a column as Flink's SHOW COLUMNS and DESCRIBE write it (no NOT NULL), with the time
   * attributes {@code view} gives its columns (those of a view, empty for a table). A rowtime
   * attribute is marked {@code *ROWTIME*} only in {@code streaming} mode, as Flink's schema
   * resolver marks it only there; a processing-time attribute is marked {@code *PROCTIME*} in both.
   */
  static String flinkType(
      ColumnDef c, FlinkSpec spec, Map<String, String> view, boolean streaming) {
    String type = TypeNames.renderNullable(c.type());
    String kind = view.get(c.name());
    if (spec.isRowtime(c.name()) || io.calcitebridge.catalog.ViewDef.ROWTIME.equals(kind)) {
      return streaming ? type + " *ROWTIME*" : type;
    }
    if (isProctimeColumn(c) || io.calcitebridge.catalog.ViewDef.PROCTIME.equals(kind)) {
      return type + " *PROCTIME*";
    }
    return type;
  }

  /** The extras of a column as Flink writes them: {@code AS expr}, {@code METADATA ...}. */
  static @Nullable String extras(ColumnDef c) {
    switch (c.kind()) {
      case COMPUTED:
        return "AS " + c.expression();
      case METADATA:
        return "METADATA"
            + (c.aliased() ? " FROM '" + c.metadataKey() + "'" : "")
            + (c.virtual() ? " VIRTUAL" : "");
      default:
        return null;
    }
  }

  /**
   * {@code SHOW COLUMNS}: Flink's columns name, type, null, key, extras and watermark (and comment
   * when a column has one), for the columns whose name matches {@code pattern} (SQL LIKE, case
   * sensitive), or does not with {@code notLike}; a view's columns have the time attributes {@code
   * view}, marked as {@link #flinkType} marks them in {@code streaming} mode or not.
   */
  static RowSet showColumns(
      RelDataTypeFactory tf,
      List<ColumnDef> columns,
      FlinkSpec spec,
      Map<String, String> view,
      boolean streaming,
      @Nullable String pattern,
      boolean notLike) {
    Pattern like = pattern == null ? null : likePattern(pattern);
    String key = spec.hasPrimaryKey() ? "PRI(" + String.join(", ", spec.primaryKey()) + ")" : null;
    boolean comments = !spec.columnComments().isEmpty();
    List<Object[]> rows = new ArrayList<>();
    for (ColumnDef c : columns) {
      if (c.kind() == ColumnKind.SHADOW) {
        continue;
      }
      if (like != null && like.matcher(c.name()).matches() == notLike) {
        continue;
      }
      List<Object> row = new ArrayList<>();
      row.add(c.name());
      row.add(flinkType(c, spec, view, streaming));
      row.add(c.type().isNullable());
      row.add(spec.primaryKey().contains(c.name()) ? key : null);
      row.add(extras(c));
      row.add(spec.isRowtime(c.name()) ? spec.watermarkExpression() : null);
      if (comments) {
        row.add(spec.columnComments().get(c.name()));
      }
      rows.add(row.toArray());
    }
    RelDataType str =
        tf.createTypeWithNullability(
            tf.createSqlType(SqlTypeName.VARCHAR, Integer.MAX_VALUE), true);
    RelDataType bool = tf.createTypeWithNullability(tf.createSqlType(SqlTypeName.BOOLEAN), true);
    RelDataTypeFactory.Builder b =
        tf.builder()
            .add("name", str)
            .add("type", str)
            .add("null", bool)
            .add("key", str)
            .add("extras", str)
            .add("watermark", str);
    if (comments) {
      b.add("comment", str);
    }
    return RowSet.of("show", b.build(), rows);
  }

  /** A SQL LIKE pattern ({@code %}, {@code _}, escape {@code \}) as a regular expression. */
  static Pattern likePattern(String like) {
    StringBuilder re = new StringBuilder();
    for (int i = 0; i < like.length(); i++) {
      char ch = like.charAt(i);
      if (ch == '\\' && i + 1 < like.length()) {
        re.append(Pattern.quote(String.valueOf(like.charAt(++i))));
      } else if (ch == '%') {
        re.append(".*");
      } else if (ch == '_') {
        re.append('.');
      } else {
        re.append(Pattern.quote(String.valueOf(ch)));
      }
    }
    return Pattern.compile(re.toString(), Pattern.DOTALL);
  }
}

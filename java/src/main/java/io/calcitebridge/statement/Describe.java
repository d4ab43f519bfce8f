package io.calcitebridge.statement;

import io.calcitebridge.catalog.Catalog;
import io.calcitebridge.catalog.ColumnDef;
import io.calcitebridge.catalog.ColumnKind;
import io.calcitebridge.catalog.FlinkSpec;
import io.calcitebridge.catalog.TableDef;
import io.calcitebridge.catalog.ViewDef;
import io.calcitebridge.errors.CatalogException;
import io.calcitebridge.errors.ErrorKind;
import io.calcitebridge.errors.PositionedException;
import io.calcitebridge.plan.PlannerContext;
import io.calcitebridge.pushdown.BridgeTable;
import io.calcitebridge.types.TypeNames;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.Table;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.checkerframework.checker.nullness.qual.Nullable;

/** DESCRIBE and SHOW CREATE TABLE. */
final class Describe {
  private Describe() {}

  /** The columns of {@code describe}'s result. */
  static RelDataType rowType(RelDataTypeFactory tf) {
    RelDataType str =
        tf.createTypeWithNullability(
            tf.createSqlType(SqlTypeName.VARCHAR, Integer.MAX_VALUE), true);
    RelDataType bool = tf.createTypeWithNullability(tf.createSqlType(SqlTypeName.BOOLEAN), true);
    return tf.builder()
        .add("name", str)
        .add("type", str)
        .add("nullable", bool)
        .add("kind", str)
        .add("metadata_key", str)
        .add("virtual", bool)
        .add("expression", str)
        .build();
  }

  /**
   * {@code DESCRIBE EXTENDED}: every column with its kind, metadata key, virtual flag and
   * expression; the type as Flink writes it, with a time attribute's mark ({@code *ROWTIME*} only
   * in {@code streaming} mode, {@code *PROCTIME*} in both).
   */
  static RowSet describe(PlannerContext context, Catalog.Path path, boolean streaming) {
    List<Object[]> rows = new ArrayList<>();
    ViewDef view = context.catalog().view(path);
    FlinkSpec spec = view == null ? def(context, path).flink() : FlinkSpec.NONE;
    Map<String, String> attributes = view == null ? Map.of() : view.timeAttributes();
    for (ColumnDef c : columns(context, path)) {
      rows.add(
          new Object[] {
            c.name(),
            FlinkTables.flinkType(c, spec, attributes, streaming),
            c.type().isNullable(),
            c.kind().name(),
            c.kind() == ColumnKind.METADATA ? c.metadataKey() : null,
            c.kind() == ColumnKind.METADATA ? c.virtual() : null,
            c.expression()
          });
    }
    return RowSet.of("describe", rowType(context.typeFactory()), rows);
  }

  /**
   * {@code SHOW COLUMNS FROM name [[NOT] LIKE pattern]}, with Flink's columns; a rowtime attribute
   * is marked in {@code streaming} mode only.
   */
  static RowSet showColumns(
      PlannerContext context,
      Catalog.Path path,
      boolean streaming,
      @Nullable String pattern,
      boolean notLike) {
    ViewDef view = context.catalog().view(path);
    TableDef def = view == null ? def(context, path) : null;
    return FlinkTables.showColumns(
        context.typeFactory(),
        view != null ? view.columns() : def.columns(),
        def == null ? FlinkSpec.NONE : def.flink(),
        view != null ? view.timeAttributes() : Map.of(),
        streaming,
        pattern,
        notLike);
  }

  private static List<ColumnDef> columns(PlannerContext context, Catalog.Path path) {
    ViewDef view = context.catalog().view(path);
    if (view != null) {
      return view.columns();
    }
    return def(context, path).columns();
  }

  private static TableDef def(PlannerContext context, Catalog.Path path) {
    String name = path.name();
    Table t = context.catalog().require(path);
    if (!(t instanceof BridgeTable)) {
      throw new CatalogException("'" + name + "' is not a table defined by CREATE TABLE");
    }
    return ((BridgeTable) t).def();
  }

  /**
   * {@code SHOW CREATE TABLE} ({@code view} false) or {@code SHOW CREATE VIEW}: the DDL that
   * recreates the table or view, as Flink prints it; a view named by SHOW CREATE TABLE, or a table
   * by SHOW CREATE VIEW, is refused with Flink's message.
   */
  static String showCreate(
      PlannerContext context, Catalog.Path path, boolean isView, SqlParserPos pos) {
    ViewDef view = context.catalog().view(path);
    if (view == null && isView && context.catalog().table(path) != null) {
      throw new PositionedException(
          ErrorKind.VALIDATION,
          "SHOW CREATE VIEW is only supported for views, but "
              + qualified(path)
              + " is a table. Please use SHOW CREATE TABLE instead.",
          pos);
    }
    if (view != null && !isView) {
      throw new PositionedException(
          ErrorKind.VALIDATION,
          "SHOW CREATE TABLE is only supported for tables, but "
              + qualified(path)
              + " is a view. Please use SHOW CREATE VIEW instead.",
          pos);
    }
    return showCreate(context, path);
  }

  /** A name as Flink writes it in messages and DDL: catalog, database and name, each quoted. */
  private static String qualified(Catalog.Path path) {
    return TypeNames.quote(path.catalog())
        + "."
        + TypeNames.quote(path.database())
        + "."
        + TypeNames.quote(path.name());
  }

  /**
   * {@code SHOW CREATE VIEW} as Flink prints it: {@code CREATE [TEMPORARY] VIEW}, the qualified
   * name, the column list, then {@code AS} and the expanded query with each table it reads named by
   * catalog, database and name.
   */
  private static String showCreateView(PlannerContext context, Catalog.Path path, ViewDef view) {
    StringBuilder b =
        new StringBuilder(view.temporary() ? "CREATE TEMPORARY VIEW " : "CREATE VIEW ")
            .append(qualified(path))
            .append(" (\n");
    List<String> names = new ArrayList<>();
    for (ColumnDef c : view.columns()) {
      names.add("  " + TypeNames.quote(c.name()));
    }
    b.append(String.join(",\n", names)).append("\n)\n");
    String comment = view.comment();
    if (comment != null) {
      b.append("COMMENT '").append(comment.replace("'", "''")).append("'\n");
    }
    b.append("AS ");
    String query = view.expandedSql();
    Table table = context.catalog().table(path);
    if (table instanceof org.apache.calcite.schema.impl.ViewTable vt
        && vt.getSchemaPath().size() == 2) {
      try {
        SqlNode node = withoutColumnList(context, view, context.parseStatement(query));
        node.accept(new QualifyTables(context.catalog(), vt.getSchemaPath()));
        query = context.unparse(LegacyWindowText.restore(node));
      } catch (org.apache.calcite.sql.parser.SqlParseException | RuntimeException e) {
        // the stored text as it is
      }
    }
    return b.append(query).append('\n').toString();
  }

  /**
   * The query of a view made with a column list ({@code CREATE VIEW v (a, b) AS query}), which is
   * stored as {@code SELECT * FROM (query) AS `v` (a, b)} so that the columns take the list's
   * names: the query alone, as written, since SHOW CREATE VIEW prints the list before it.
   */
  private static SqlNode withoutColumnList(PlannerContext context, ViewDef view, SqlNode stored)
      throws org.apache.calcite.sql.parser.SqlParseException {
    if (!(context.parseStatement(view.originalSql())
            instanceof io.calcitebridge.sql.SqlCreateView create)
        || create.columnList() == null
        || !(stored instanceof SqlSelect select)
        || select.getSelectList().size() != 1
        || !(select.getSelectList().get(0) instanceof SqlIdentifier star)
        || !star.isStar()
        || !(select.getFrom() instanceof SqlCall as)
        || as.getKind() != SqlKind.AS
        || as.operandCount() <= 2) {
      return stored;
    }
    return as.operand(0);
  }

  /** Names each catalog table a query's FROM clauses read by catalog, database and name. */
  private static final class QualifyTables extends SqlBasicVisitor<Void> {
    private final Catalog catalog;
    private final List<String> schemaPath;

    QualifyTables(Catalog catalog, List<String> schemaPath) {
      this.catalog = catalog;
      this.schemaPath = schemaPath;
    }

    @Override
    public Void visit(SqlCall call) {
      if (call instanceof SqlSelect select && select.getFrom() != null) {
        select.setFrom(qualify(select.getFrom()));
      }
      return super.visit(call);
    }

    private SqlNode qualify(SqlNode from) {
      if (from instanceof SqlIdentifier id && !id.isStar()) {
        List<String> n = id.names;
        List<String> full =
            n.size() == 1
                ? List.of(schemaPath.get(0), schemaPath.get(1), n.get(0))
                : n.size() == 2 ? List.of(schemaPath.get(0), n.get(0), n.get(1)) : n;
        if (full.size() == 3
            && catalog.table(new Catalog.Path(full.get(0), full.get(1), full.get(2))) != null) {
          return new SqlIdentifier(full, id.getParserPosition());
        }
        return from;
      }
      if (from instanceof SqlJoin join) {
        join.setLeft(qualify(join.getLeft()));
        join.setRight(qualify(join.getRight()));
        return from;
      }
      if (from instanceof org.apache.calcite.sql.SqlTableRef ref
          && ref.operand(0) instanceof SqlIdentifier id
          && qualify(id) instanceof SqlIdentifier full) {
        // a table with hints (t /*+ OPTIONS(...) */)
        return new org.apache.calcite.sql.SqlTableRef(
            ref.getParserPosition(), full, ref.operand(1));
      }
      if (from.getKind() == SqlKind.AS
          && (((SqlCall) from).operand(0) instanceof SqlIdentifier
              || ((SqlCall) from).operand(0) instanceof org.apache.calcite.sql.SqlTableRef)) {
        ((SqlCall) from).setOperand(0, qualify(((SqlCall) from).operand(0)));
      }
      return from;
    }
  }

  /** DDL that recreates table or view {@code name}. */
  static String showCreate(PlannerContext context, Catalog.Path path) {
    ViewDef view = context.catalog().view(path);
    if (view != null) {
      return showCreateView(context, path, view);
    }
    String name = path.name();
    TableDef def = def(context, path);
    FlinkSpec flink = def.flink();
    StringBuilder b =
        new StringBuilder(flink.temporary() ? "CREATE TEMPORARY TABLE " : "CREATE TABLE ")
            // As Flink prints it: catalog, database and name, each quoted.
            .append(TypeNames.quote(path.catalog()))
            .append('.')
            .append(TypeNames.quote(path.database()))
            .append('.')
            .append(TypeNames.quote(name))
            .append(" (");
    List<String> parts = new ArrayList<>();
    for (ColumnDef c : def.columns()) {
      if (c.kind() == ColumnKind.SHADOW) {
        continue; // recreated from `...`
      }
      parts.add("\n  " + columnSql(c, flink));
    }
    if (def.dynamicColumns()) {
      parts.add(
          "\n  ..."
              + (def.dynamicDefaultType() == null
                  ? ""
                  : " " + TypeNames.render(def.dynamicDefaultType())));
    }
    if (flink.watermarkColumn() != null) {
      parts.add(
          "\n  WATERMARK FOR "
              + TypeNames.quote(flink.watermarkColumn())
              + " AS "
              + flink.watermarkExpression());
    }
    if (flink.hasPrimaryKey()) {
      parts.add(
          "\n  CONSTRAINT "
              + TypeNames.quote(flink.primaryKeyName())
              + " PRIMARY KEY ("
              + String.join(", ", flink.primaryKey().stream().map(TypeNames::quote).toList())
              + ") NOT ENFORCED");
    }
    // Flink's layout (PyFlink 2.3): each clause on its own line, and a final newline.
    b.append(String.join(",", parts)).append("\n)\n");
    if (flink.comment() != null) {
      b.append("COMMENT '").append(flink.comment().replace("'", "''")).append("'\n");
    }
    if (!flink.partitionKeys().isEmpty()) {
      b.append("PARTITIONED BY (")
          .append(String.join(", ", flink.partitionKeys().stream().map(TypeNames::quote).toList()))
          .append(")\n");
    }
    if (!def.options().isEmpty()) {
      // As Flink prints them: sorted by key, a sensitive value (a password) masked.
      List<String> opts = new ArrayList<>();
      for (Map.Entry<String, String> e : new java.util.TreeMap<>(def.options()).entrySet()) {
        opts.add(
            "\n  '"
                + e.getKey().replace("'", "''")
                + "' = '"
                + (isSensitive(e.getKey()) ? MASK : e.getValue().replace("'", "''"))
                + "'");
      }
      b.append("WITH (").append(String.join(",", opts)).append("\n)\n");
    }
    return b.toString();
  }

  /** What Flink's SHOW CREATE TABLE prints for the value of a sensitive option. */
  static final String MASK = "****";

  /** The parts of option keys whose values Flink hides (its GlobalConfiguration's). */
  private static final List<String> SENSITIVE =
      List.of(
          "password",
          "secret",
          "fs.azure.account.key",
          "apikey",
          "api-key",
          "auth-params",
          "service-key",
          "token",
          "basic-auth",
          "jaas.config",
          "http-headers");

  /** Whether Flink masks the value of option {@code key} when it prints it. */
  static boolean isSensitive(String key) {
    String k = key.toLowerCase(java.util.Locale.ROOT);
    return SENSITIVE.stream().anyMatch(k::contains);
  }

  /** One column of a table as its CREATE TABLE writes it: name, type or expression, comment. */
  static String columnSql(ColumnDef c, FlinkSpec flink) {
    StringBuilder p = new StringBuilder(TypeNames.quote(c.name())).append(' ');
    switch (c.kind()) {
      case COMPUTED:
        p.append("AS ").append(c.expression());
        break;
      case METADATA:
        p.append(TypeNames.renderSerializable(c.type())).append(" METADATA");
        if (c.aliased()) {
          p.append(" FROM '").append(c.metadataKey().replace("'", "''")).append('\'');
        }
        if (c.virtual()) {
          p.append(" VIRTUAL");
        }
        break;
      default:
        p.append(TypeNames.renderSerializable(c.type()));
    }
    String comment = flink.columnComments().get(c.name());
    if (comment != null) {
      p.append(" COMMENT '").append(comment.replace("'", "''")).append('\'');
    }
    return p.toString();
  }
}

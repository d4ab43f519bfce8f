package io.calcitebridge.statement;

import io.calcitebridge.catalog.Catalog;
import io.calcitebridge.catalog.ColumnDef;
import io.calcitebridge.catalog.ColumnKind;
import io.calcitebridge.catalog.FlinkSpec;
import io.calcitebridge.catalog.TableDef;
import io.calcitebridge.catalog.ViewDef;
import io.calcitebridge.errors.CatalogException;
import io.calcitebridge.plan.PlannerContext;
import io.calcitebridge.pushdown.BridgeTable;
import io.calcitebridge.types.TypeNames;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.Table;
import org.apache.calcite.sql.type.SqlTypeName;
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

  static RowSet describe(PlannerContext context, Catalog.Path path) {
    List<Object[]> rows = new ArrayList<>();
    for (ColumnDef c : columns(context, path)) {
      rows.add(
          new Object[] {
            c.name(),
            TypeNames.renderNullable(c.type()),
            c.type().isNullable(),
            c.kind().name(),
            c.kind() == ColumnKind.METADATA ? c.metadataKey() : null,
            c.kind() == ColumnKind.METADATA ? c.virtual() : null,
            c.expression()
          });
    }
    return RowSet.of("describe", rowType(context.typeFactory()), rows);
  }

  /** {@code SHOW COLUMNS FROM name [[NOT] LIKE pattern]}, with Flink's columns. */
  static RowSet showColumns(
      PlannerContext context, Catalog.Path path, @Nullable String pattern, boolean notLike) {
    ViewDef view = context.catalog().view(path);
    TableDef def = view == null ? def(context, path) : null;
    return FlinkTables.showColumns(
        context.typeFactory(),
        view != null ? view.columns() : def.columns(),
        def == null ? FlinkSpec.NONE : def.flink(),
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

  /** DDL that recreates table or view {@code name}. */
  static String showCreate(PlannerContext context, Catalog.Path path) {
    String name = path.name();
    ViewDef view = context.catalog().view(path);
    if (view != null) {
      return "CREATE VIEW " + TypeNames.quote(name) + " AS\n" + view.expandedSql();
    }
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
    b.append(String.join(",", parts)).append("\n)");
    if (flink.comment() != null) {
      b.append(" COMMENT '").append(flink.comment().replace("'", "''")).append("'\n");
    }
    if (!flink.partitionKeys().isEmpty()) {
      b.append(flink.comment() != null ? "" : "\n")
          .append("PARTITIONED BY (")
          .append(String.join(", ", flink.partitionKeys().stream().map(TypeNames::quote).toList()))
          .append(")\n");
    }
    if (!def.options().isEmpty()) {
      List<String> opts = new ArrayList<>();
      for (Map.Entry<String, String> e : def.options().entrySet()) {
        opts.add(
            "\n  '"
                + e.getKey().replace("'", "''")
                + "' = '"
                + e.getValue().replace("'", "''")
                + "'");
      }
      b.append(b.charAt(b.length() - 1) == '\n' ? "WITH (" : " WITH (")
          .append(String.join(",", opts))
          .append("\n)");
    }
    return b.toString();
  }

  /** One column of a table as its CREATE TABLE writes it: name, type or expression, comment. */
  static String columnSql(ColumnDef c, FlinkSpec flink) {
    StringBuilder p = new StringBuilder(TypeNames.quote(c.name())).append(' ');
    switch (c.kind()) {
      case COMPUTED:
        p.append("AS ").append(c.expression());
        break;
      case METADATA:
        p.append(TypeNames.render(c.type())).append(" METADATA");
        if (c.aliased()) {
          p.append(" FROM '").append(c.metadataKey().replace("'", "''")).append('\'');
        }
        if (c.virtual()) {
          p.append(" VIRTUAL");
        }
        break;
      default:
        p.append(TypeNames.render(c.type()));
    }
    String comment = flink.columnComments().get(c.name());
    if (comment != null) {
      p.append(" COMMENT '").append(comment.replace("'", "''")).append('\'');
    }
    return p.toString();
  }
}

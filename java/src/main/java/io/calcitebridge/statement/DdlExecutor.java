package io.calcitebridge.statement;

import io.calcitebridge.arrow.ArrowMemory;
import io.calcitebridge.arrow.ArrowStreams;
import io.calcitebridge.arrow.ExportedSchema;
import io.calcitebridge.catalog.Catalog;
import io.calcitebridge.catalog.ColumnDef;
import io.calcitebridge.catalog.ColumnKind;
import io.calcitebridge.catalog.FlinkSpec;
import io.calcitebridge.catalog.TableDef;
import io.calcitebridge.catalog.TableStorage;
import io.calcitebridge.catalog.ViewDef;
import io.calcitebridge.connector.ConnectorFactory;
import io.calcitebridge.connector.MemoryTable;
import io.calcitebridge.connector.PythonSource;
import io.calcitebridge.connector.SourceStorage;
import io.calcitebridge.errors.ErrorKind;
import io.calcitebridge.errors.PositionedException;
import io.calcitebridge.plan.PlannerContext;
import io.calcitebridge.plan.QueryPlanner;
import io.calcitebridge.pushdown.BridgeTable;
import io.calcitebridge.sql.BridgeTypes;
import io.calcitebridge.sql.SqlComputedColumn;
import io.calcitebridge.sql.SqlCreateTable;
import io.calcitebridge.sql.SqlCreateView;
import io.calcitebridge.sql.SqlDropObject;
import io.calcitebridge.sql.SqlMetadataColumn;
import io.calcitebridge.sql.SqlPhysicalColumn;
import io.calcitebridge.sql.SqlTableColumn;
import io.calcitebridge.types.ArrowTypes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.schema.impl.ViewTable;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlValidatorUtil;
import org.apache.calcite.util.Pair;

/** Runs CREATE TABLE, CREATE VIEW and DROP against an environment's catalog. */
public final class DdlExecutor {
  private static final com.fasterxml.jackson.databind.ObjectMapper JSON =
      new com.fasterxml.jackson.databind.ObjectMapper();

  private final SessionState session;
  private final PlannerContext context;

  public DdlExecutor(SessionState session) {
    this.session = session;
    this.context = session.planner();
  }

  private Catalog catalog() {
    return context.catalog();
  }

  /** {@code CREATE TABLE}. */
  public void createTable(SqlCreateTable create) {
    Catalog.Path path = CatalogStatements.path(context, create.name(), false);
    String name = path.name();
    List<ColumnDef> columns = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    List<SqlComputedColumn> computed = new ArrayList<>();
    for (SqlTableColumn col : create.columns()) {
      if (!seen.add(col.name())) {
        throw new PositionedException(
            ErrorKind.VALIDATION,
            "Duplicate column '" + col.name() + "' in table '" + name + "'",
            col.getParserPosition());
      }
      if (col instanceof SqlPhysicalColumn) {
        columns.add(ColumnDef.physical(col.name(), type(((SqlPhysicalColumn) col).type())));
      } else if (col instanceof SqlMetadataColumn) {
        SqlMetadataColumn m = (SqlMetadataColumn) col;
        columns.add(ColumnDef.metadata(col.name(), type(m.type()), m.metadataKey(), m.isVirtual()));
      } else {
        computed.add((SqlComputedColumn) col);
        columns.add(null); // typed below, once every stored column is known
      }
    }
    FlinkSpec flink = FlinkTables.keyAndPartitions(create, columns, context.typeFactory());
    resolveComputed(name, create, columns);
    flink = FlinkTables.watermark(create, columns, flink, context);
    RelDataType dynamicType =
        create.dynamicDefaultType() == null ? null : type(create.dynamicDefaultType());
    if (create.hasDynamicColumns()
        && create.options().getOrDefault("connector", "memory").equals("memory")) {
      // default storage: MariaDB's dynamic-columns blob in a hidden column
      columns.add(
          ColumnDef.shadow(
              context
                  .typeFactory()
                  .createTypeWithNullability(
                      context.typeFactory().createSqlType(SqlTypeName.VARBINARY), true)));
    }
    TableDef def =
        new TableDef(
            name, columns, create.options(), create.hasDynamicColumns(), dynamicType, flink);
    TableStorage storage = openStorage(def, create);
    catalog()
        .addTable(
            path,
            new BridgeTable(
                def, storage, text -> context.parseExpression(FlinkTables.evaluated(text))),
            create.ifNotExists());
  }

  private TableStorage openStorage(TableDef def, SqlCreateTable create) {
    String connector = def.connector();
    if (connector.equals("memory")) {
      try {
        MemoryTable.validate(def);
      } catch (IllegalArgumentException e) {
        throw new PositionedException(
            ErrorKind.VALIDATION, e.getMessage(), create.getParserPosition());
      }
      return new MemoryTable(def);
    }
    if ((connector.equals("filesystem") || connector.equals("python"))
        && session.config().get(SessionConfig.EXTERNAL_ACCESS).equals("false")) {
      throw new PositionedException(
          ErrorKind.ACCESS,
          "The '"
              + connector
              + "' connector is off in this environment ('"
              + SessionConfig.EXTERNAL_ACCESS
              + "' = 'false'): table '"
              + def.name()
              + "' cannot be created",
          create.getParserPosition());
    }
    ConnectorFactory factory = session.connectorFactory();
    PythonSource source;
    try (ExportedSchema schema =
        ArrowStreams.exportSchema(
            ArrowMemory.allocator(),
            ArrowTypes.toSchema(TableDef.rowTypeOf(context.typeFactory(), physicalColumns(def))))) {
      source =
          factory == null
              ? null
              : factory.create(connector, def.name(), json(def.options()), schema.address());
    }
    if (source == null) {
      List<String> known = new ArrayList<>(List.of("memory"));
      if (factory != null) {
        known.addAll(List.of(factory.connectors().split(",")));
      }
      throw new PositionedException(
          ErrorKind.VALIDATION,
          "Unknown connector '"
              + connector
              + "' for table '"
              + def.name()
              + "'; available: "
              + String.join(", ", known),
          create.getParserPosition());
    }
    SourceStorage storage = new SourceStorage(source, ArrowMemory.allocator(), def);
    checkMetadataKeys(def, storage, create);
    return storage;
  }

  private static List<ColumnDef> physicalColumns(TableDef def) {
    return def.columns().stream().filter(c -> c.kind() == ColumnKind.PHYSICAL).toList();
  }

  /** A metadata key the connector does not offer fails here, naming the keys it does. */
  private static void checkMetadataKeys(
      TableDef def, SourceStorage storage, SqlCreateTable create) {
    java.util.Set<String> offered = storage.readableMetadata().keySet();
    for (int i = 0; i < def.columns().size(); i++) {
      ColumnDef c = def.columns().get(i);
      if (c.isMetadata() && !offered.contains(c.metadataKey())) {
        throw new PositionedException(
            ErrorKind.VALIDATION,
            "Connector '"
                + def.connector()
                + "' has no metadata key '"
                + c.metadataKey()
                + "' (column '"
                + c.name()
                + "'); it offers: "
                + (offered.isEmpty() ? "none" : String.join(", ", offered)),
            create.columns().get(i).getParserPosition());
      }
    }
  }

  private static String json(Object value) {
    try {
      return JSON.writeValueAsString(value);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private void resolveComputed(String table, SqlCreateTable create, List<ColumnDef> columns) {
    Map<String, RelDataType> stored = new HashMap<>();
    List<String> names = new ArrayList<>();
    List<RelDataType> types = new ArrayList<>();
    for (ColumnDef c : columns) {
      if (c != null) {
        stored.put(c.name(), c.type());
        names.add(c.name());
        types.add(c.type());
      }
    }
    RelDataType rowType = context.typeFactory().createStructType(types, names);
    for (int i = 0; i < columns.size(); i++) {
      if (columns.get(i) != null) {
        continue;
      }
      SqlComputedColumn col = (SqlComputedColumn) create.columns().get(i);
      String text = context.unparse(col.expression());
      if (FlinkTables.isProctime(col.expression())) {
        columns.set(
            i,
            ColumnDef.computed(
                col.name(), FlinkTables.proctimeType(context), FlinkTables.PROCTIME_TEXT));
        continue;
      }
      SqlNode expr = context.parseExpression(text);
      Pair<SqlNode, RelDataType> validated =
          SqlValidatorUtil.validateExprWithRowType(
              true,
              context.operatorTable(context.catalogReader()),
              context.typeFactory(),
              rowType,
              expr);
      columns.set(i, ColumnDef.computed(col.name(), validated.right, text));
    }
  }

  private RelDataType type(org.apache.calcite.sql.SqlDataTypeSpec spec) {
    return BridgeTypes.toRelDataType(spec, context.typeFactory());
  }

  /** {@code CREATE VIEW}: stores the query with {@code *} expanded, so its columns are fixed. */
  public void createView(SqlCreateView create, String originalSql) {
    Catalog.Path path = CatalogStatements.path(context, create.name(), false);
    String name = path.name();
    QueryPlanner planner =
        new QueryPlanner(
            context,
            () -> {
              try {
                return ((SqlCreateView) context.parseStatement(originalSql)).query();
              } catch (org.apache.calcite.sql.parser.SqlParseException e) {
                throw new IllegalStateException(e);
              }
            });
    SqlNode validated = planner.validate(create.query());
    RelDataType rowType = planner.rowType(validated);
    if (create.columnList() != null) {
      List<String> aliases = new ArrayList<>();
      create.columnList().forEach(n -> aliases.add(((SqlIdentifier) n).getSimple()));
      if (aliases.size() != rowType.getFieldCount()) {
        throw new PositionedException(
            ErrorKind.VALIDATION,
            "View '"
                + name
                + "' lists "
                + aliases.size()
                + " columns but its query has "
                + rowType.getFieldCount(),
            create.columnList().getParserPosition());
      }
      rowType =
          context
              .typeFactory()
              .createStructType(
                  rowType.getFieldList().stream().map(RelDataTypeField::getType).toList(), aliases);
    }
    String expanded = context.unparse(validated);
    if (create.columnList() != null) {
      expanded =
          "SELECT * FROM ("
              + expanded
              + ") AS `v` ("
              + String.join(
                  ", ",
                  rowType.getFieldNames().stream()
                      .map(io.calcitebridge.types.TypeNames::quote)
                      .toList())
              + ")";
    }
    List<ColumnDef> cols = new ArrayList<>();
    for (RelDataTypeField f : rowType.getFieldList()) {
      cols.add(ColumnDef.physical(f.getName(), f.getType()));
    }
    ViewDef view = new ViewDef(name, expanded, originalSql, cols);
    final RelDataType frozen = rowType;
    ViewTable table =
        new ViewTable(
            Object[].class,
            tf -> tf.copyType(frozen),
            expanded,
            catalog().currentPath(),
            List.of(name));
    catalog().addView(path, view, table, create.ifNotExists());
  }

  /** {@code DROP TABLE} and {@code DROP VIEW}. */
  public void drop(SqlDropObject drop) {
    catalog()
        .drop(
            CatalogStatements.path(context, drop.name(), drop.ifExists()),
            drop.isView(),
            drop.ifExists());
  }
}

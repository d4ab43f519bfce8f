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
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlValidatorUtil;
import org.apache.calcite.util.Pair;

/** Runs CREATE TABLE, CREATE VIEW and DROP against an environment's catalog. */
public final class DdlExecutor {
  private final SessionState session;
  private final PlannerContext context;

  public DdlExecutor(SessionState session) {
    this.session = session;
    this.context = session.planner();
  }

  /** Whether a connector's refusal of the options waits for the table's use (ALTER TABLE). */
  private boolean atUse;

  private Catalog catalog() {
    return context.catalog();
  }

  /**
   * The table {@code create} defines, as ALTER TABLE makes it: as in Flink, options its connector
   * refuses are refused when a statement uses the table, not by the ALTER.
   */
  BridgeTable alteredTable(SqlCreateTable create, String name) {
    atUse = true;
    try {
      return newTable(create, name);
    } finally {
      atUse = false;
    }
  }

  /** {@code CREATE TABLE}. */
  public void createTable(SqlCreateTable create) {
    // As Flink, a temporary table's database need not exist.
    Catalog.Path path = CatalogStatements.path(context, create.name(), create.flink().temporary());
    if (create.flink().temporary()) {
      if (catalog().isTemporary(path) && create.ifNotExists()) {
        return;
      }
      BridgeTable table = newTable(create, path.name());
      try {
        catalog().addTemporary(path, null, table, create.ifNotExists());
      } catch (io.calcitebridge.errors.CatalogException e) {
        table.close();
        throw new PositionedException(
            ErrorKind.CATALOG, e.getMessage(), create.name().getParserPosition());
      } catch (RuntimeException e) {
        table.close();
        throw e;
      }
      return;
    }
    catalog().addTable(path, newTable(create, path.name()), create.ifNotExists());
  }

  /** The table {@code create} defines, named {@code name}, with its storage opened. */
  BridgeTable newTable(SqlCreateTable create, String name) {
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
    return new BridgeTable(
        def, storage, text -> context.parseExpression(FlinkTables.evaluated(text)), opener(create));
  }

  /**
   * Opens the storage of a table {@code create} declared, with the options of an {@code OPTIONS}
   * hint laid over its own, as a statement that reads it with the hint sees it: checked as {@code
   * CREATE TABLE} checks them, each refusal an {@link IllegalArgumentException} with its message. A
   * memory table keeps its rows: null, its own storage serves.
   */
  private java.util.function.Function<TableDef, TableStorage> opener(SqlCreateTable create) {
    return def -> {
      try {
        if (def.connector().equals("memory")) {
          MemoryTable.validate(def);
          return null;
        }
        return openStorage(def, create);
      } catch (RuntimeException e) {
        // the connector's refusal (a PositionedException at CREATE TABLE, a source's ConfigError)
        throw new IllegalArgumentException(e.getMessage(), e);
      }
    };
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
    if (io.calcitebridge.connector.BuiltinConnectors.knows(connector)) {
      return builtinStorage(def, create);
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
    if (connector.equals("filesystem") && !def.options().containsKey("path")) {
      // Flink's factory message for its required option
      throw new PositionedException(
          ErrorKind.VALIDATION,
          "One or more required options are missing.\n\nMissing required options are:\n\npath",
          create.getParserPosition());
    }
    if (connector.equals("filesystem")) {
      try {
        io.calcitebridge.connector.FileSystemOptions.check(def.options());
      } catch (IllegalArgumentException e) {
        throw new PositionedException(
            ErrorKind.VALIDATION, e.getMessage(), create.getParserPosition());
      }
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
              : factory.create(connector, def.name(), sourceOptions(def), schema.address());
    }
    if (source == null) {
      List<String> known = new ArrayList<>(List.of("memory"));
      if (factory != null) {
        for (String name : factory.connectors().split(",")) {
          if (!name.isEmpty()) {
            known.add(name); // none registered: "" was listed as a connector
          }
        }
      }
      known.addAll(io.calcitebridge.connector.BuiltinConnectors.NAMES);
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

  /** The storage of a connector of Flink's known in the JVM (datagen, print, kafka, ...). */
  private TableStorage builtinStorage(TableDef def, SqlCreateTable create) {
    Catalog.Path path = catalog().path(create.name().names);
    String qualified =
        path == null ? def.name() : path.catalog() + "." + path.database() + "." + def.name();
    try {
      return io.calcitebridge.connector.BuiltinConnectors.open(def, qualified);
    } catch (io.calcitebridge.connector.BuiltinConnectors.AtUse e) {
      return io.calcitebridge.connector.BuiltinConnectors.invalid(e.getMessage());
    } catch (IllegalArgumentException e) {
      if (atUse) {
        return io.calcitebridge.connector.BuiltinConnectors.invalid(e.getMessage());
      }
      throw new PositionedException(
          ErrorKind.VALIDATION, e.getMessage(), create.getParserPosition());
    }
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

  /** Before DROP MATERIALIZED TABLE: the table, when there is one, must be a materialized one. */
  private void droppingMaterialized(Catalog.Path path, SqlDropObject drop) {
    if (session.catalog().table(path) == null && drop.ifExists()) {
      return;
    }
    if (session.catalog().table(path) == null) {
      throw new PositionedException(
          ErrorKind.CATALOG,
          "Materialized table with identifier '" + Catalog.quotedPath(path) + "' does not exist.",
          drop.name().getParserPosition());
    }
    materialized(session, path, drop.name().getParserPosition());
  }

  /** The materialized table at {@code path}, or Flink's error at {@code pos}. */
  static MaterializedTable materialized(SessionState session, Catalog.Path path, SqlParserPos pos) {
    MaterializedTable m = session.materialized().get(path.toString());
    if (m == null || session.catalog().table(path) == null) {
      throw new PositionedException(
          ErrorKind.VALIDATION,
          "Table "
              + Catalog.quotedPath(path)
              + (session.catalog().table(path) == null
                  ? " doesn't exist."
                  : " is not a materialized table."),
          pos);
    }
    return m;
  }

  /**
   * The options a source gets, as JSON: the table's {@code WITH} options, and for the filesystem
   * connector its {@code PARTITIONED BY} columns under {@link #PARTITION_KEYS} and the precision of
   * each of its {@code TIME(p)} columns, {@code p < 3}, under {@link #TIME_PRECISIONS} (always set
   * there, so that no {@code WITH} option can stand for them; a TIME column's Arrow type holds
   * milliseconds, whatever its precision, and Flink's csv format cuts a TIME(p) it reads to {@code
   * p} digits). Other connectors, a Java factory's among them, get their options alone: a map of
   * strings.
   */
  private static String sourceOptions(TableDef def) {
    Map<String, Object> options = new java.util.LinkedHashMap<>(def.options());
    if ("filesystem".equals(def.connector())) {
      options.put(PARTITION_KEYS, def.flink().partitionKeys());
      Map<String, Object> times = new java.util.LinkedHashMap<>();
      for (ColumnDef c : def.columns()) {
        if (c.type().getSqlTypeName() == org.apache.calcite.sql.type.SqlTypeName.TIME
            && c.type().getPrecision() < 3) {
          times.put(c.name(), c.type().getPrecision());
        }
      }
      options.put(TIME_PRECISIONS, times);
    }
    return json(options);
  }

  /** The key of a table's partition columns in the options a Python source gets. */
  public static final String PARTITION_KEYS = "__partition_keys__";

  /** The key of the precisions of a table's TIME(0..2) columns in the options it gets. */
  public static final String TIME_PRECISIONS = "__time_precisions__";

  /**
   * {@code value} as JSON, without Jackson's data binding, whose first mapper initialises its date
   * formats and locale data: 60 ms or more of a new process's first CREATE TABLE.
   */
  private static String json(Object value) {
    return io.calcitebridge.json.JsonValues.write(value);
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
              true, context.operatorTable(), context.typeFactory(), rowType, expr);
      columns.set(i, ColumnDef.computed(col.name(), validated.right, text));
    }
  }

  private RelDataType type(org.apache.calcite.sql.SqlDataTypeSpec spec) {
    return BridgeTypes.toRelDataType(spec, context.typeFactory());
  }

  // ------------------------------------------------------------------ CREATE TABLE ... LIKE

  /** Flink's features of LIKE's options, and the strategies each takes. */
  private static final Map<String, List<String>> LIKE_FEATURES =
      Map.of(
          "ALL", List.of("INCLUDING", "EXCLUDING"),
          "CONSTRAINTS", List.of("INCLUDING", "EXCLUDING"),
          "PARTITIONS", List.of("INCLUDING", "EXCLUDING"),
          "GENERATED", List.of("INCLUDING", "EXCLUDING", "OVERWRITING"),
          "METADATA", List.of("INCLUDING", "EXCLUDING", "OVERWRITING"),
          "OPTIONS", List.of("INCLUDING", "EXCLUDING", "OVERWRITING"),
          "WATERMARKS", List.of("INCLUDING", "EXCLUDING", "OVERWRITING"));

  /**
   * The strategy of each feature of {@code LIKE}: Flink's defaults (INCLUDING, and OVERWRITING for
   * OPTIONS), then ALL's, then each feature's own.
   */
  private static Map<String, String> likeStrategies(SqlCreateTable create) {
    Map<String, String> result = new HashMap<>();
    for (String f : LIKE_FEATURES.keySet()) {
      result.put(f, f.equals("OPTIONS") ? "OVERWRITING" : "INCLUDING");
    }
    org.apache.calcite.sql.SqlNodeList options = create.likeOptions();
    if (options == null) {
      return result;
    }
    Map<String, String> given = new java.util.LinkedHashMap<>();
    for (int i = 0; i + 1 < options.size(); i += 2) {
      SqlIdentifier strategy = (SqlIdentifier) options.get(i);
      SqlIdentifier feature = (SqlIdentifier) options.get(i + 1);
      String st = strategy.getSimple().toUpperCase(java.util.Locale.ROOT);
      String f = feature.getSimple().toUpperCase(java.util.Locale.ROOT);
      if (!List.of("INCLUDING", "EXCLUDING", "OVERWRITING").contains(st)) {
        throw new PositionedException(
            ErrorKind.PARSE,
            "Encountered \""
                + strategy.getSimple()
                + "\"; a LIKE option starts with INCLUDING, EXCLUDING or OVERWRITING",
            strategy.getParserPosition());
      }
      if (!LIKE_FEATURES.containsKey(f)) {
        throw new PositionedException(
            ErrorKind.PARSE,
            "Encountered \""
                + feature.getSimple()
                + "\"; a LIKE option names ALL, CONSTRAINTS, GENERATED, METADATA, OPTIONS,"
                + " PARTITIONS or WATERMARKS",
            feature.getParserPosition());
      }
      if (!LIKE_FEATURES.get(f).contains(st)) {
        throw new PositionedException(
            ErrorKind.VALIDATION,
            "Illegal merging strategy '" + st + "' for '" + f + "' option.",
            strategy.getParserPosition());
      }
      if (given.put(f, st) != null) {
        throw new PositionedException(
            ErrorKind.VALIDATION,
            "Each like option feature can be declared only once.",
            strategy.getParserPosition());
      }
    }
    String all = given.get("ALL");
    if (all != null) {
      result.replaceAll((f, st) -> all);
    }
    result.putAll(given);
    return result;
  }

  /**
   * {@code CREATE TABLE ... LIKE source [(options)]} with Flink's merge rules: the source's
   * physical columns, then (unless EXCLUDING) its computed and metadata columns, watermark, primary
   * key, partitions and options, merged with what the statement declares. The merged table is
   * written as one CREATE TABLE and created as such, so every check of CREATE TABLE applies to it.
   */
  public void createTableLike(SqlCreateTable create) {
    SqlIdentifier likeName = java.util.Objects.requireNonNull(create.like());
    Map<String, String> strategy = likeStrategies(create);
    Catalog.Path source = CatalogStatements.path(context, likeName, true);
    if (catalog().view(source) != null) {
      throw new PositionedException(
          ErrorKind.VALIDATION,
          "Source table '" + quoted(source) + "' of the LIKE clause can not be a VIEW",
          likeName.getParserPosition());
    }
    org.apache.calcite.schema.Table found = catalog().table(source);
    BridgeTable table = found instanceof BridgeTable b ? b : null;
    if (table == null) {
      throw new PositionedException(
          ErrorKind.VALIDATION,
          "Source table '" + quoted(source) + "' of the LIKE clause not found in the catalog",
          likeName.getParserPosition());
    }
    TableDef def = table.def();
    FlinkSpec flink = def.flink();
    // name -> column text, in the source's order; derived columns follow or overwrite.
    Map<String, String> columns = new java.util.LinkedHashMap<>();
    Map<String, ColumnKind> kinds = new HashMap<>();
    for (ColumnDef c : def.columns()) {
      boolean keep =
          switch (c.kind()) {
            case PHYSICAL -> true;
            case COMPUTED -> !strategy.get("GENERATED").equals("EXCLUDING");
            case METADATA -> !strategy.get("METADATA").equals("EXCLUDING");
            default -> false;
          };
      if (keep) {
        columns.put(c.name(), Describe.columnSql(c, flink));
        kinds.put(c.name(), c.kind());
      }
    }
    for (SqlTableColumn col : create.columns()) {
      String name = col.name();
      ColumnKind kind =
          col instanceof SqlPhysicalColumn
              ? ColumnKind.PHYSICAL
              : col instanceof SqlMetadataColumn ? ColumnKind.METADATA : ColumnKind.COMPUTED;
      ColumnKind existing = kinds.get(name);
      if (existing != null) {
        String message;
        if (kind == ColumnKind.PHYSICAL) {
          message = "A column named '" + name + "' already exists in the base table.";
        } else if (kind == ColumnKind.COMPUTED && existing != ColumnKind.COMPUTED) {
          message =
              "A column named '"
                  + name
                  + "' already exists in the base table. Computed columns can only overwrite"
                  + " other computed columns.";
        } else if (kind == ColumnKind.METADATA && existing != ColumnKind.METADATA) {
          message =
              "A column named '"
                  + name
                  + "' already exists in the base table. Metadata columns can only overwrite"
                  + " other metadata columns.";
        } else if (kind == ColumnKind.COMPUTED
            && !strategy.get("GENERATED").equals("OVERWRITING")) {
          message =
              "A generated column named '"
                  + name
                  + "' already exists in the base table. You might want to specify EXCLUDING"
                  + " GENERATED or OVERWRITING GENERATED.";
        } else if (kind == ColumnKind.METADATA && !strategy.get("METADATA").equals("OVERWRITING")) {
          message =
              "A metadata column named '"
                  + name
                  + "' already exists in the base table. You might want to specify EXCLUDING"
                  + " METADATA or OVERWRITING METADATA.";
        } else {
          message = null;
        }
        if (message != null) {
          throw new PositionedException(ErrorKind.VALIDATION, message, col.getParserPosition());
        }
      }
      columns.put(name, context.unparse(col));
      kinds.put(name, kind);
    }
    List<String> elements = new ArrayList<>(columns.values());
    // The watermark: the source's unless EXCLUDING; the statement's for the same column only
    // when OVERWRITING.
    String watermarkColumn = null;
    String watermark = null;
    if (flink.watermarkColumn() != null && !strategy.get("WATERMARKS").equals("EXCLUDING")) {
      watermarkColumn = flink.watermarkColumn();
      watermark =
          "WATERMARK FOR "
              + io.calcitebridge.types.TypeNames.quote(watermarkColumn)
              + " AS "
              + flink.watermarkExpression();
    }
    for (SqlNode w : create.flink().watermarks()) {
      io.calcitebridge.sql.SqlWatermark wm = (io.calcitebridge.sql.SqlWatermark) w;
      String column = wm.column().getSimple();
      if (watermarkColumn != null
          && watermarkColumn.equals(column)
          && !strategy.get("WATERMARKS").equals("OVERWRITING")) {
        throw new PositionedException(
            ErrorKind.VALIDATION,
            "There already exists a watermark spec for column '"
                + column
                + "' in the base table. You might want to specify EXCLUDING WATERMARKS or"
                + " OVERWRITING WATERMARKS.",
            wm.getParserPosition());
      }
      watermarkColumn = column;
      watermark = context.unparse(wm);
    }
    if (watermark != null) {
      elements.add(watermark);
    }
    boolean derivedKey = !create.flink().constraints().isEmpty();
    boolean sourceKey = flink.hasPrimaryKey() && strategy.get("CONSTRAINTS").equals("INCLUDING");
    if (derivedKey && sourceKey) {
      throw new PositionedException(
          ErrorKind.VALIDATION,
          "The base table already has a primary key. You might want to specify EXCLUDING"
              + " CONSTRAINTS.",
          create.flink().constraints().get(0).getParserPosition());
    }
    if (sourceKey) {
      elements.add(
          "CONSTRAINT "
              + io.calcitebridge.types.TypeNames.quote(flink.primaryKeyName())
              + " PRIMARY KEY ("
              + String.join(
                  ", ",
                  flink.primaryKey().stream().map(io.calcitebridge.types.TypeNames::quote).toList())
              + ") NOT ENFORCED");
    }
    for (SqlNode c : create.flink().constraints()) {
      elements.add(context.unparse(c));
    }
    List<String> partitions = create.flink().partitionNames();
    if (!partitions.isEmpty()
        && !flink.partitionKeys().isEmpty()
        && !strategy.get("PARTITIONS").equals("EXCLUDING")) {
      throw new PositionedException(
          ErrorKind.VALIDATION,
          "The base table already has partitions defined. You might want to specify EXCLUDING"
              + " PARTITIONS.",
          create.flink().partitionKeys().getParserPosition());
    }
    if (partitions.isEmpty() && !strategy.get("PARTITIONS").equals("EXCLUDING")) {
      partitions = flink.partitionKeys();
    }
    Map<String, String> options = new java.util.LinkedHashMap<>();
    if (!strategy.get("OPTIONS").equals("EXCLUDING")) {
      options.putAll(def.options());
    }
    for (Map.Entry<String, String> e : create.options().entrySet()) {
      if (strategy.get("OPTIONS").equals("INCLUDING") && options.containsKey(e.getKey())) {
        throw new PositionedException(
            ErrorKind.VALIDATION,
            "There already exists an option ['"
                + e.getKey()
                + "' -> '"
                + options.get(e.getKey())
                + "']  in the base table. You might want to specify EXCLUDING OPTIONS or"
                + " OVERWRITING OPTIONS.",
            create.getParserPosition());
      }
      options.put(e.getKey(), e.getValue());
    }
    StringBuilder ddl =
        new StringBuilder(create.flink().temporary() ? "CREATE TEMPORARY TABLE " : "CREATE TABLE ");
    if (create.ifNotExists()) {
      ddl.append("IF NOT EXISTS ");
    }
    ddl.append(context.unparse(create.name()))
        .append(" (\n  ")
        .append(String.join(",\n  ", elements))
        .append("\n)");
    if (create.flink().comment() != null) {
      ddl.append("\nCOMMENT ").append(context.unparse(create.flink().comment()));
    }
    if (!partitions.isEmpty()) {
      ddl.append("\nPARTITIONED BY (")
          .append(
              String.join(
                  ", ", partitions.stream().map(io.calcitebridge.types.TypeNames::quote).toList()))
          .append(')');
    }
    if (!options.isEmpty()) {
      List<String> opts = new ArrayList<>();
      for (Map.Entry<String, String> e : options.entrySet()) {
        opts.add(
            "'" + e.getKey().replace("'", "''") + "' = '" + e.getValue().replace("'", "''") + "'");
      }
      ddl.append("\nWITH (").append(String.join(", ", opts)).append(')');
    }
    SqlNode merged;
    try {
      merged = context.parseStatement(ddl.toString());
    } catch (org.apache.calcite.sql.parser.SqlParseException e) {
      throw new IllegalStateException("The merged table of LIKE does not parse: " + ddl, e);
    }
    createTable((SqlCreateTable) merged);
  }

  private static String quoted(Catalog.Path path) {
    return io.calcitebridge.types.TypeNames.quote(path.catalog())
        + "."
        + io.calcitebridge.types.TypeNames.quote(path.database())
        + "."
        + io.calcitebridge.types.TypeNames.quote(path.name());
  }

  // ------------------------------------------------------------------ CREATE TABLE ... AS

  /**
   * Whether {@code CREATE [OR REPLACE] TABLE ... AS query} (or {@code REPLACE TABLE}) at {@code
   * path} is to run: false for IF NOT EXISTS of an existing table. Fails, before the query runs,
   * when the table exists and is not replaced, when REPLACE TABLE names no table, or when the
   * statement declares columns.
   */
  public boolean checkCreateTableAs(SqlCreateTable create, Catalog.Path path) {
    if (!create.columns().isEmpty()
        || !create.flink().constraints().isEmpty()
        || !create.flink().watermarks().isEmpty()) {
      throw new PositionedException(
          ErrorKind.UNSUPPORTED,
          "CREATE TABLE ... AS SELECT with declared columns, keys or watermarks is not supported;"
              + " the query's columns are the table's",
          create.columnList().getParserPosition());
    }
    if (catalog().view(path) != null) {
      throw new PositionedException(
          ErrorKind.VALIDATION,
          "'" + path.name() + "' is a view; a table AS SELECT cannot replace it",
          create.name().getParserPosition());
    }
    boolean exists = catalog().table(path) != null;
    if (create.isReplaceOnly() && !exists) {
      throw new PositionedException(
          ErrorKind.VALIDATION,
          "The table "
              + quoted(path)
              + " to be replaced doesn't exist. You can try to use CREATE TABLE AS statement or"
              + " CREATE OR REPLACE TABLE AS statement.",
          create.name().getParserPosition());
    }
    if (exists && !create.getReplace()) {
      if (create.ifNotExists()) {
        return false;
      }
      throw new io.calcitebridge.errors.CatalogException(
          "Table '" + path.name() + "' already exists");
    }
    return true;
  }

  /**
   * Creates (or replaces) the table of {@code CREATE TABLE ... AS query} at {@code path} with the
   * query's columns ({@code rowType}) and rows. The rows were computed before: a query that fails
   * leaves no table, and a replaced table stays as it was.
   */
  public void createTableAs(
      SqlCreateTable create, Catalog.Path path, RelDataType rowType, List<Object[]> rows) {
    List<ColumnDef> columns = new ArrayList<>();
    for (RelDataTypeField f : rowType.getFieldList()) {
      columns.add(ColumnDef.physical(f.getName(), f.getType()));
    }
    List<String> partitions = create.flink().partitionNames();
    for (int p = 0; p < partitions.size(); p++) {
      if (rowType.getField(partitions.get(p), true, false) == null) {
        throw new PositionedException(
            ErrorKind.VALIDATION,
            "Partition column '"
                + partitions.get(p)
                + "' not defined in the table schema. Available columns: ["
                + String.join(
                    ", ", rowType.getFieldNames().stream().map(n -> "'" + n + "'").toList())
                + "]",
            create.flink().partitionKeys().get(p).getParserPosition());
      }
    }
    FlinkSpec flink =
        new FlinkSpec(
            create.flink().temporary(),
            null,
            List.of(),
            null,
            null,
            create.flink().commentText(),
            Map.of(),
            partitions);
    TableDef def = new TableDef(path.name(), columns, create.options(), false, null, flink);
    TableStorage storage = openStorage(def, create);
    BridgeTable table =
        new BridgeTable(
            def,
            storage,
            text -> context.parseExpression(FlinkTables.evaluated(text)),
            opener(create));
    try {
      storage.insert(rows);
    } catch (RuntimeException e) {
      table.close();
      if (e instanceof IllegalArgumentException) {
        throw new PositionedException(
            ErrorKind.VALIDATION, e.getMessage(), create.getParserPosition());
      }
      throw e;
    }
    if (create.getReplace()) {
      catalog().replaceTable(path, table);
    } else {
      catalog().addTable(path, table, false);
    }
  }

  /** {@code CREATE VIEW}: stores the query with {@code *} expanded, so its columns are fixed. */
  public void createView(SqlCreateView create, String originalSql) {
    Catalog.Path path = CatalogStatements.path(context, create.name(), create.temporary());
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
    ViewDef view =
        new ViewDef(
            name,
            expanded,
            originalSql,
            cols,
            FlinkTables.timeAttributes(
                context, planner.validator(), validated, rowType.getFieldNames()),
            create.temporary(),
            create.commentText());
    final RelDataType frozen = rowType;
    ViewTable table =
        new ViewTable(
            Object[].class,
            tf -> tf.copyType(frozen),
            expanded,
            catalog().currentPath(),
            List.of(name));
    if (create.temporary()) {
      try {
        catalog().addTemporary(path, view, table, create.ifNotExists());
      } catch (io.calcitebridge.errors.CatalogException e) {
        throw new PositionedException(
            ErrorKind.CATALOG, e.getMessage(), create.name().getParserPosition());
      }
    } else {
      catalog().addView(path, view, table, create.ifNotExists());
    }
  }

  /**
   * Refuses {@code ALTER TABLE} of a materialized table, whatever it changes, as Flink does: such a
   * table changes only by {@code ALTER MATERIALIZED TABLE}, which has no RENAME.
   */
  public void checkNotMaterialized(io.calcitebridge.sql.SqlAlterTable alter) {
    if (alter.action() == io.calcitebridge.sql.SqlAlterTable.Action.VIEW_RENAME
        || alter.action() == io.calcitebridge.sql.SqlAlterTable.Action.VIEW_AS) {
      return;
    }
    Catalog.Path path = CatalogStatements.path(context, alter.name(), true);
    if (session.materialized().containsKey(path.toString())
        && catalog().table(path) != null
        && !catalog().isTemporary(path)) {
      throw new PositionedException(
          ErrorKind.VALIDATION,
          "ALTER TABLE for a materialized table is not allowed",
          alter.name().getParserPosition());
    }
  }

  /** {@code DROP TABLE} and {@code DROP VIEW}. */
  public void drop(SqlDropObject drop) {
    Catalog.Path path =
        CatalogStatements.path(context, drop.name(), drop.ifExists() || drop.isTemporary());
    if (drop.isTemporary()) {
      try {
        catalog().dropTemporary(path, drop.isView(), drop.ifExists());
      } catch (io.calcitebridge.errors.CatalogException e) {
        throw new PositionedException(
            ErrorKind.CATALOG, e.getMessage(), drop.name().getParserPosition());
      }
      return;
    }
    if (drop.isMaterialized()) {
      droppingMaterialized(path, drop);
    }
    try {
      catalog().drop(path, drop.isView(), drop.ifExists());
    } catch (io.calcitebridge.errors.CatalogException e) {
      throw new PositionedException(
          ErrorKind.CATALOG, e.getMessage(), drop.name().getParserPosition());
    }
    if (drop.isMaterialized() || !drop.isView()) {
      session.materialized().remove(path.toString());
    }
  }
}

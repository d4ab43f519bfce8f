package io.calcitebridge.connector;

import io.calcitebridge.catalog.ColumnDef;
import io.calcitebridge.catalog.TableDef;
import io.calcitebridge.catalog.TableStorage;
import io.calcitebridge.errors.ErrorKind;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.linq4j.Enumerable;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Flink's connectors known in the JVM: {@code datagen}, {@code print} and {@code blackhole}, which
 * run, and {@code kafka}, {@code upsert-kafka}, {@code jdbc} and {@code hive}, which are declared,
 * validated (required options, option values and metadata keys, with the messages of Flink's
 * factories) and explained, but not run.
 */
public final class BuiltinConnectors {
  private BuiltinConnectors() {}

  /** The connectors of this class. */
  public static final List<String> NAMES =
      List.of("datagen", "print", "blackhole", "kafka", "upsert-kafka", "jdbc", "hive");

  private static final List<String> STARTUP_MODES =
      List.of("earliest-offset", "latest-offset", "group-offsets", "timestamp", "specific-offsets");
  private static final List<String> BOUNDED_MODES =
      List.of("unbounded", "latest-offset", "group-offsets", "timestamp", "specific-offsets");
  private static final List<String> CHANGELOG_FORMATS =
      List.of("debezium-json", "canal-json", "maxwell-json", "ogg-json", "debezium-avro-confluent");

  /** Kafka's metadata keys for reading and their types, as Flink's Kafka connector has them. */
  public static final Map<String, String> KAFKA_METADATA = new LinkedHashMap<>();

  static {
    KAFKA_METADATA.put("topic", "STRING NOT NULL");
    KAFKA_METADATA.put("partition", "INT NOT NULL");
    KAFKA_METADATA.put("headers", "MAP<STRING, BYTES> NOT NULL");
    KAFKA_METADATA.put("leader-epoch", "INT");
    KAFKA_METADATA.put("offset", "BIGINT NOT NULL");
    KAFKA_METADATA.put("timestamp", "TIMESTAMP_LTZ(3) NOT NULL");
    KAFKA_METADATA.put("timestamp-type", "STRING NOT NULL");
  }

  /** Whether {@code connector} is one of these. */
  public static boolean knows(String connector) {
    return NAMES.contains(connector);
  }

  /**
   * The storage of {@code def} (a table named {@code qualified}, as Flink names it in messages);
   * bad options fail with an {@link IllegalArgumentException} carrying Flink's message.
   */
  public static TableStorage open(TableDef def, String qualified) {
    switch (def.connector()) {
      case "datagen":
        return DataGen.create(def);
      case "print":
        noMetadata(def, "sink");
        return PrintSink.print(def);
      case "blackhole":
        noMetadata(def, "sink");
        return PrintSink.blackhole(def);
      case "kafka":
        kafka(def, qualified);
        return new Declared("kafka");
      case "upsert-kafka":
        upsertKafka(def, qualified);
        return new Declared("upsert-kafka");
      case "jdbc":
        jdbc(def);
        return new Declared("jdbc");
      case "hive":
        return new Declared("hive");
      default:
        throw new IllegalArgumentException("Unknown connector '" + def.connector() + "'");
    }
  }

  private static void noMetadata(TableDef def, String role) {
    for (ColumnDef c : def.columns()) {
      if (c.isMetadata()) {
        throw new IllegalArgumentException(
            "Table '"
                + def.name()
                + "' declares persistable metadata columns, but the underlying DynamicTableSink"
                + " doesn't implement the SupportsWritingMetadata interface. If the column should"
                + " not be persisted, it can be declared with the VIRTUAL keyword.");
      }
    }
  }

  private static void kafka(TableDef def, String qualified) {
    ConnectorOptions o = new ConnectorOptions(def.options());
    String keyFormat = o.string("key.format");
    String format = o.string("format");
    String valueFormat = o.string("value.format");
    if (format == null && valueFormat == null) {
      // Flink's catalog keeps such a table: its factory refuses it when a statement uses it.
      throw new AtUse("Could not find required scan format 'value.format'.");
    }
    String value = format != null ? format : valueFormat;
    acceptFormat(o, keyFormat, value);
    o.acceptPrefix("properties.");
    o.accept(
        "property-version",
        "topic",
        "topic-pattern",
        "properties.group.id",
        "scan.startup.specific-offsets",
        "scan.startup.timestamp-millis",
        "scan.bounded.specific-offsets",
        "scan.bounded.timestamp-millis",
        "scan.topic-partition-discovery.interval",
        "scan.parallelism",
        "sink.partitioner",
        "sink.semantic",
        "sink.delivery-guarantee",
        "sink.transactional-id-prefix",
        "sink.parallelism",
        "key.fields",
        "key.fields-prefix",
        "value.fields-include");
    o.require("properties.bootstrap.servers");
    String startup = o.enumValue("scan.startup.mode", "group-offsets", STARTUP_MODES);
    String bounded = o.enumValue("scan.bounded.mode", "unbounded", BOUNDED_MODES);
    o.enumValue("value.fields-include", "ALL", List.of("ALL", "EXCEPT_KEY"));
    o.enumValue(
        "sink.delivery-guarantee",
        "at-least-once",
        List.of("exactly-once", "at-least-once", "none"));
    o.checkConsumed("kafka");
    topics(def);
    modes(def, "scan.startup", startup, "startup");
    modes(def, "scan.bounded", bounded, "bounded");
    keyFields(def, keyFormat);
    if (def.flink().hasPrimaryKey() && !CHANGELOG_FORMATS.contains(value)) {
      throw new IllegalArgumentException(
          "The Kafka table '"
              + qualified
              + "' with '"
              + value
              + "' format doesn't support defining PRIMARY KEY constraint on the table, because it"
              + " can't guarantee the semantic of primary key.");
    }
    metadata(
        def, "org.apache.flink.streaming.connectors.kafka.table.KafkaDynamicSource", qualified);
  }

  private static void upsertKafka(TableDef def, String qualified) {
    ConnectorOptions o = new ConnectorOptions(def.options());
    String keyFormat = o.string("key.format");
    if (keyFormat == null) {
      throw new IllegalArgumentException("Could not find required scan format 'key.format'.");
    }
    String valueFormat = o.string("value.format");
    if (valueFormat == null) {
      throw new IllegalArgumentException("Could not find required scan format 'value.format'.");
    }
    acceptFormat(o, keyFormat, valueFormat);
    o.acceptPrefix("properties.");
    o.accept(
        "property-version",
        "topic",
        "topic-pattern",
        "key.fields-prefix",
        "value.fields-include",
        "scan.parallelism",
        "sink.parallelism",
        "sink.buffer-flush.max-rows",
        "sink.buffer-flush.interval",
        "sink.delivery-guarantee",
        "sink.transactional-id-prefix");
    o.require("properties.bootstrap.servers");
    o.enumValue("value.fields-include", "ALL", List.of("ALL", "EXCEPT_KEY"));
    o.checkConsumed("upsert-kafka");
    topics(def);
    for (String[] f : new String[][] {{"key", keyFormat}, {"value", valueFormat}}) {
      if (CHANGELOG_FORMATS.contains(f[1])) {
        throw new IllegalArgumentException(
            "'upsert-kafka' connector doesn't support '"
                + f[1]
                + "' as "
                + f[0]
                + " format, because '"
                + f[1]
                + "' is not in insert-only mode.");
      }
    }
    if (!def.flink().hasPrimaryKey()) {
      throw new IllegalArgumentException(
          "'upsert-kafka' tables require to define a PRIMARY KEY constraint. The PRIMARY KEY"
              + " specifies which columns should be read from or write to the Kafka message key."
              + " The PRIMARY KEY also defines records in the 'upsert-kafka' table should update or"
              + " delete on which keys.");
    }
    metadata(
        def, "org.apache.flink.streaming.connectors.kafka.table.KafkaDynamicSource", qualified);
  }

  private static void jdbc(TableDef def) {
    ConnectorOptions o = new ConnectorOptions(def.options());
    o.acceptPrefix("lookup.");
    o.accept(
        "property-version",
        "driver",
        "username",
        "password",
        "compatible-mode",
        "connection.max-retry-timeout",
        "scan.partition.column",
        "scan.partition.num",
        "scan.partition.lower-bound",
        "scan.partition.upper-bound",
        "scan.fetch-size",
        "scan.auto-commit",
        "sink.buffer-flush.max-rows",
        "sink.buffer-flush.interval",
        "sink.max-retries",
        "sink.parallelism");
    o.require("table-name", "url");
    o.checkConsumed("jdbc");
    String url = def.options().get("url");
    if (url != null && !url.startsWith("jdbc:")) {
      throw new IllegalArgumentException(
          "Could not find any jdbc dialect factory that can handle url '"
              + url
              + "' that implements 'org.apache.flink.connector.jdbc.dialect.JdbcDialectFactory'"
              + " in the classpath.");
    }
    boolean user = def.options().containsKey("username");
    boolean password = def.options().containsKey("password");
    if (user != password) {
      throw new IllegalArgumentException(
          "Either all or none of the following options should be provided:\nusername\npassword");
    }
    String[] partition = {
      "scan.partition.column",
      "scan.partition.num",
      "scan.partition.lower-bound",
      "scan.partition.upper-bound"
    };
    long given = java.util.Arrays.stream(partition).filter(def.options()::containsKey).count();
    if (given != 0 && given != partition.length) {
      throw new IllegalArgumentException(
          "Either all or none of the following options should be provided:\n"
              + String.join("\n", partition));
    }
  }

  /** Accepts the options of the formats ({@code json.*}, {@code key.json.*}, ...). */
  private static void acceptFormat(
      ConnectorOptions o, @Nullable String keyFormat, @Nullable String valueFormat) {
    if (valueFormat != null) {
      o.acceptPrefix(valueFormat + ".");
      o.acceptPrefix("value." + valueFormat + ".");
    }
    if (keyFormat != null) {
      o.acceptPrefix("key." + keyFormat + ".");
    }
  }

  private static void topics(TableDef def) {
    boolean topic = def.options().containsKey("topic");
    boolean pattern = def.options().containsKey("topic-pattern");
    if (topic && pattern) {
      throw new IllegalArgumentException(
          "Option 'topic' and 'topic-pattern' shouldn't be set together.");
    }
    if (!topic && !pattern) {
      throw new IllegalArgumentException("Either 'topic' or 'topic-pattern' must be set.");
    }
  }

  private static void modes(TableDef def, String prefix, @Nullable String mode, String what) {
    if ("timestamp".equals(mode) && !def.options().containsKey(prefix + ".timestamp-millis")) {
      throw new IllegalArgumentException(
          "'"
              + prefix
              + ".timestamp-millis' is required in 'timestamp' "
              + what
              + " mode but missing.");
    }
    if ("specific-offsets".equals(mode)
        && !def.options().containsKey(prefix + ".specific-offsets")) {
      throw new IllegalArgumentException(
          "'"
              + prefix
              + ".specific-offsets' is required in 'specific-offsets' "
              + what
              + " mode but missing.");
    }
  }

  private static void keyFields(TableDef def, @Nullable String keyFormat) {
    String fields = def.options().get("key.fields");
    if (keyFormat == null && fields != null) {
      throw new IllegalArgumentException(
          "The option 'key.fields' can only be declared if a key format is defined using"
              + " 'key.format'.");
    }
    if (keyFormat != null && (fields == null || fields.isBlank())) {
      throw new IllegalArgumentException(
          "A key format 'key.format' requires the declaration of one or more of key fields"
              + " using 'key.fields'.");
    }
    if (fields == null) {
      return;
    }
    List<String> physical =
        def.columns().stream()
            .filter(c -> c.kind() == io.calcitebridge.catalog.ColumnKind.PHYSICAL)
            .map(ColumnDef::name)
            .toList();
    for (String f : fields.split(";")) {
      if (!physical.contains(f.trim())) {
        throw new IllegalArgumentException(
            "Could not find the field '"
                + f.trim()
                + "' in the table schema for usage in the key format. A key field must be a"
                + " regular, physical column. The following columns can be selected in the"
                + " 'key.fields' option:\n["
                + String.join(", ", physical)
                + "]");
      }
    }
  }

  private static void metadata(TableDef def, String sourceClass, String qualified) {
    Map<String, String> byKey = new LinkedHashMap<>();
    for (ColumnDef c : def.columns()) {
      if (c.isMetadata()) {
        String other = byKey.putIfAbsent(c.metadataKey(), c.name());
        if (other != null) {
          throw new IllegalArgumentException(
              "The column `"
                  + other
                  + "` and `"
                  + c.name()
                  + "` in the table are both from the same metadata key '"
                  + c.metadataKey()
                  + "'. Please specify one of the columns as the metadata column and use the"
                  + " computed column syntax to specify the others.");
        }
      }
      if (c.isMetadata()
          && !KAFKA_METADATA.containsKey(c.metadataKey())
          && !c.metadataKey().startsWith("value.")) {
        throw new IllegalArgumentException(
            "Invalid metadata key '"
                + c.metadataKey()
                + "' in column '"
                + c.name()
                + "' of table '"
                + qualified
                + "'. The DynamicTableSource class '"
                + sourceClass
                + "' supports the following metadata keys for reading:\n"
                + String.join("\n", KAFKA_METADATA.keySet()));
      }
      String keyType = c.isMetadata() ? KAFKA_METADATA.get(c.metadataKey()) : null;
      if (keyType != null && !castable(keyType, c.type())) {
        // Flink's message names the two types the other way round; it is kept as Flink gives it.
        throw new IllegalArgumentException(
            "Invalid data type for metadata column '"
                + c.name()
                + "' of table '"
                + qualified
                + "'. The column cannot be declared as '"
                + keyType
                + "' because the type must be castable from metadata type '"
                + io.calcitebridge.types.TypeNames.render(c.type())
                + "'.");
      }
    }
  }

  /**
   * Whether a metadata value of type {@code keyType} (as {@link #KAFKA_METADATA} writes it) casts
   * to {@code declared}: a collection or structured type takes only its own kind (Flink casts a
   * scalar to no ARRAY, MAP, MULTISET or ROW, and these to no other of them).
   */
  private static boolean castable(
      String keyType, org.apache.calcite.rel.type.RelDataType declared) {
    String kind =
        switch (declared.getSqlTypeName()) {
          case ARRAY -> "ARRAY<";
          case MAP -> "MAP<";
          case MULTISET -> "MULTISET<";
          case ROW -> "ROW<";
          default -> null;
        };
    return kind == null || keyType.startsWith(kind);
  }

  /** The storage of a connector that is declared and explained here but not run. */
  /** A refusal of the factory that Flink gives when the table is used, not when it is created. */
  public static final class AtUse extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public AtUse(String message) {
      super(message);
    }
  }

  /**
   * The storage of a table whose options its connector refuses, kept as Flink's catalog keeps it: a
   * statement that reads, writes or explains it fails with the factory's message.
   */
  public static TableStorage invalid(String message) {
    return new Invalid(message);
  }

  /** See {@link #invalid}. */
  public static final class Invalid implements TableStorage, ConnectorRoles {
    private final String message;

    Invalid(String message) {
      this.message = message;
    }

    /** The factory's message. */
    public String message() {
      return message;
    }

    @Override
    public @Nullable Refusal sourceRefusal(String name) {
      return new Refusal(ErrorKind.VALIDATION, message);
    }

    @Override
    public @Nullable Refusal sinkRefusal(String name) {
      return new Refusal(ErrorKind.VALIDATION, message);
    }

    @Override
    public Enumerable<Object[]> scan() {
      throw new IllegalArgumentException(message);
    }

    @Override
    public long insert(List<Object[]> rows) {
      throw new IllegalArgumentException(message);
    }
  }

  static final class Declared implements TableStorage, ConnectorRoles {
    private final String connector;

    Declared(String connector) {
      this.connector = connector;
    }

    private Refusal refusal(String name, String verb) {
      return new Refusal(
          ErrorKind.UNSUPPORTED,
          "Connector '"
              + connector
              + "' is declared, validated and explained here but does not run: table '"
              + name
              + "' cannot be "
              + verb
              + " (the connectors that run are memory, filesystem, datagen, print and blackhole)");
    }

    @Override
    public @Nullable Refusal sourceRefusal(String name) {
      return refusal(name, "read");
    }

    @Override
    public @Nullable Refusal sinkRefusal(String name) {
      return refusal(name, "written");
    }

    @Override
    public Enumerable<Object[]> scan() {
      throw new IllegalStateException("Connector '" + connector + "' does not run here");
    }

    @Override
    public long insert(List<Object[]> rows) {
      throw new IllegalStateException("Connector '" + connector + "' does not run here");
    }
  }
}

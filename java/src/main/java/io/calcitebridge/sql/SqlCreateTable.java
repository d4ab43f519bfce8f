package io.calcitebridge.sql;

import io.calcitebridge.sql.type.BridgeTypeSpecs;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Objects;
import org.apache.calcite.sql.SqlCreate;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.util.ImmutableNullableList;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * {@code CREATE [OR REPLACE] TABLE [IF NOT EXISTS] name [( column [, ...] [, ... [type]] )]
 * [DYNAMIC_COLUMNS = ON | OFF] [WITH ('key' = 'value', ...)]}.
 */
public class SqlCreateTable extends SqlCreate {
  /** The operator of CREATE TABLE. */
  public static final SqlOperator OPERATOR =
      new BridgeOperator(
          "CREATE TABLE",
          SqlKind.CREATE_TABLE,
          (pos, ops) ->
              new SqlCreateTable(
                  pos,
                  BridgeOperator.isTrue(ops.get(5)),
                  BridgeOperator.isTrue(ops.get(4)),
                  (SqlIdentifier) Objects.requireNonNull(ops.get(0)),
                  (SqlNodeList) Objects.requireNonNull(ops.get(1)),
                  BridgeOperator.isTrue(ops.get(6)),
                  (SqlDataTypeSpec) ops.get(2),
                  BridgeOperator.optionalFlag(ops.get(7)),
                  (SqlNodeList) Objects.requireNonNull(ops.get(3)),
                  new FlinkTableClauses(
                      BridgeOperator.isTrue(ops.get(8)),
                      (SqlNodeList) Objects.requireNonNull(ops.get(9)),
                      (SqlNodeList) Objects.requireNonNull(ops.get(10)),
                      (org.apache.calcite.sql.SqlCharStringLiteral) ops.get(11),
                      (SqlNodeList) Objects.requireNonNull(ops.get(12))),
                  (SqlIdentifier) ops.get(13),
                  (SqlNodeList) ops.get(14),
                  ops.get(15),
                  BridgeOperator.isTrue(ops.get(16))));

  private final SqlIdentifier name;
  private final SqlNodeList columnList;
  private final boolean ellipsis;
  private final @Nullable SqlDataTypeSpec dynamicDefaultType;
  private final @Nullable Boolean dynamicColumnsOption;
  private final SqlNodeList optionList;
  private final FlinkTableClauses flink;
  private final @Nullable SqlIdentifier like;
  private final @Nullable SqlNodeList likeOptions;
  private final @Nullable SqlNode query;
  private final boolean replaceOnly;

  /**
   * Creates a CREATE TABLE.
   *
   * @param ellipsis whether the column list ends with {@code ...}
   * @param dynamicDefaultType the type after {@code ...}, or null
   * @param dynamicColumnsOption the value of {@code DYNAMIC_COLUMNS = ON|OFF}, or null when absent
   * @param optionList WITH options, keys and values alternating
   */
  public SqlCreateTable(
      SqlParserPos pos,
      boolean replace,
      boolean ifNotExists,
      SqlIdentifier name,
      SqlNodeList columnList,
      boolean ellipsis,
      @Nullable SqlDataTypeSpec dynamicDefaultType,
      @Nullable Boolean dynamicColumnsOption,
      SqlNodeList optionList) {
    this(
        pos,
        replace,
        ifNotExists,
        name,
        columnList,
        ellipsis,
        dynamicDefaultType,
        dynamicColumnsOption,
        optionList,
        FlinkTableClauses.none(pos));
  }

  /** Creates a CREATE TABLE with Flink's further clauses (keys, watermarks, comment, ...). */
  public SqlCreateTable(
      SqlParserPos pos,
      boolean replace,
      boolean ifNotExists,
      SqlIdentifier name,
      SqlNodeList columnList,
      boolean ellipsis,
      @Nullable SqlDataTypeSpec dynamicDefaultType,
      @Nullable Boolean dynamicColumnsOption,
      SqlNodeList optionList,
      FlinkTableClauses flink) {
    this(
        pos,
        replace,
        ifNotExists,
        name,
        columnList,
        ellipsis,
        dynamicDefaultType,
        dynamicColumnsOption,
        optionList,
        flink,
        null,
        null,
        null,
        false);
  }

  /**
   * Creates a CREATE TABLE with Flink's {@code LIKE source [(options)]} ({@code like} and {@code
   * likeOptions}, strategies and features alternating) or {@code AS query}; {@code replaceOnly} is
   * Flink's {@code REPLACE TABLE ... AS query}, whose table must exist.
   */
  public SqlCreateTable(
      SqlParserPos pos,
      boolean replace,
      boolean ifNotExists,
      SqlIdentifier name,
      SqlNodeList columnList,
      boolean ellipsis,
      @Nullable SqlDataTypeSpec dynamicDefaultType,
      @Nullable Boolean dynamicColumnsOption,
      SqlNodeList optionList,
      FlinkTableClauses flink,
      @Nullable SqlIdentifier like,
      @Nullable SqlNodeList likeOptions,
      @Nullable SqlNode query) {
    this(
        pos,
        replace,
        ifNotExists,
        name,
        columnList,
        ellipsis,
        dynamicDefaultType,
        dynamicColumnsOption,
        optionList,
        flink,
        like,
        likeOptions,
        query,
        false);
  }

  private SqlCreateTable(
      SqlParserPos pos,
      boolean replace,
      boolean ifNotExists,
      SqlIdentifier name,
      SqlNodeList columnList,
      boolean ellipsis,
      @Nullable SqlDataTypeSpec dynamicDefaultType,
      @Nullable Boolean dynamicColumnsOption,
      SqlNodeList optionList,
      FlinkTableClauses flink,
      @Nullable SqlIdentifier like,
      @Nullable SqlNodeList likeOptions,
      @Nullable SqlNode query,
      boolean replaceOnly) {
    super(OPERATOR, pos, replace, ifNotExists);
    this.like = like;
    this.likeOptions = likeOptions;
    this.query = query;
    this.replaceOnly = replaceOnly;
    this.flink = Objects.requireNonNull(flink, "flink");
    this.name = Objects.requireNonNull(name, "name");
    this.columnList = Objects.requireNonNull(columnList, "columnList");
    this.ellipsis = ellipsis;
    this.dynamicDefaultType = dynamicDefaultType;
    this.dynamicColumnsOption = dynamicColumnsOption;
    this.optionList = Objects.requireNonNull(optionList, "optionList");
    if (optionList.size() % 2 != 0) {
      throw new IllegalArgumentException("options must be key/value pairs");
    }
  }

  /** This statement as Flink's {@code REPLACE TABLE ... AS query}: the table must exist. */
  public SqlCreateTable replaceOnly() {
    return new SqlCreateTable(
        getParserPosition(),
        true,
        ifNotExists,
        name,
        columnList,
        ellipsis,
        dynamicDefaultType,
        dynamicColumnsOption,
        optionList,
        flink,
        like,
        likeOptions,
        query,
        true);
  }

  /** Whether this is {@code REPLACE TABLE} (without CREATE): the table must exist. */
  public boolean isReplaceOnly() {
    return replaceOnly;
  }

  /** The source table of {@code LIKE}, or null. */
  public @Nullable SqlIdentifier like() {
    return like;
  }

  /** The options of {@code LIKE}: strategies and features alternating, or null. */
  public @Nullable SqlNodeList likeOptions() {
    return likeOptions;
  }

  /** The query of {@code AS query}, or null. */
  public @Nullable SqlNode query() {
    return query;
  }

  /** Returns the table name. */
  public SqlIdentifier name() {
    return name;
  }

  /** Returns the declared columns, in order. */
  public List<SqlTableColumn> columns() {
    final List<SqlTableColumn> list = new ArrayList<>();
    for (SqlNode node : columnList) {
      list.add((SqlTableColumn) node);
    }
    return list;
  }

  /** Returns the declared columns as a node list. */
  public SqlNodeList columnList() {
    return columnList;
  }

  /** Returns Flink's clauses: TEMPORARY, keys, watermarks, COMMENT, PARTITIONED BY. */
  public FlinkTableClauses flink() {
    return flink;
  }

  /** Returns whether IF NOT EXISTS was given. */
  public boolean ifNotExists() {
    return ifNotExists;
  }

  /**
   * Returns whether the table has dynamic columns: its column list ends with {@code ...}, or it
   * says {@code DYNAMIC_COLUMNS = ON}.
   */
  public boolean hasDynamicColumns() {
    return ellipsis || Boolean.TRUE.equals(dynamicColumnsOption);
  }

  /** Returns whether the column list ends with {@code ...}. */
  public boolean hasEllipsis() {
    return ellipsis;
  }

  /** Returns the value of DYNAMIC_COLUMNS, or null when not given. */
  public @Nullable Boolean dynamicColumnsOption() {
    return dynamicColumnsOption;
  }

  /** Returns the default type of dynamic columns ({@code ... type}), or null. */
  public @Nullable SqlDataTypeSpec dynamicDefaultType() {
    return dynamicDefaultType;
  }

  /** Returns the WITH options in the order written. */
  public LinkedHashMap<String, String> options() {
    final LinkedHashMap<String, String> map = new LinkedHashMap<>();
    for (int i = 0; i < optionList.size(); i += 2) {
      map.put(stringValue(optionList.get(i)), stringValue(optionList.get(i + 1)));
    }
    return map;
  }

  /** Returns the WITH options as a node list, keys and values alternating. */
  public SqlNodeList optionList() {
    return optionList;
  }

  private static String stringValue(SqlNode node) {
    return Objects.requireNonNull(((SqlLiteral) node).getValueAs(String.class));
  }

  @Override
  public SqlOperator getOperator() {
    return OPERATOR;
  }

  @Override
  public List<SqlNode> getOperandList() {
    return ImmutableNullableList.of(
        name,
        columnList,
        dynamicDefaultType,
        optionList,
        BridgeOperator.flag(ifNotExists),
        BridgeOperator.flag(getReplace()),
        BridgeOperator.flag(ellipsis),
        BridgeOperator.flag(dynamicColumnsOption),
        BridgeOperator.flag(flink.temporary()),
        flink.constraints(),
        flink.watermarks(),
        flink.comment(),
        flink.partitionKeys(),
        like,
        likeOptions,
        query,
        BridgeOperator.flag(replaceOnly));
  }

  @Override
  public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    if (replaceOnly) {
      writer.keyword("REPLACE");
    } else {
      writer.keyword("CREATE");
      if (getReplace()) {
        writer.keyword("OR REPLACE");
      }
    }
    if (flink.temporary()) {
      writer.keyword("TEMPORARY");
    }
    writer.keyword("TABLE");
    if (ifNotExists) {
      writer.keyword("IF NOT EXISTS");
    }
    name.unparse(writer, leftPrec, rightPrec);
    if (!columnList.isEmpty() || ellipsis) {
      final SqlWriter.Frame frame = writer.startList("(", ")");
      for (SqlNode column : columnList) {
        writer.sep(",");
        writer.newlineAndIndent();
        column.unparse(writer, 0, 0);
      }
      for (SqlNode watermark : flink.watermarks()) {
        writer.sep(",");
        writer.newlineAndIndent();
        watermark.unparse(writer, 0, 0);
      }
      for (SqlNode constraint : flink.constraints()) {
        writer.sep(",");
        writer.newlineAndIndent();
        constraint.unparse(writer, 0, 0);
      }
      if (ellipsis) {
        writer.sep(",");
        writer.newlineAndIndent();
        writer.keyword("...");
        if (dynamicDefaultType != null) {
          BridgeTypeSpecs.unparse(writer, dynamicDefaultType);
        }
      }
      writer.newlineAndIndent();
      writer.endList(frame);
    }
    if (flink.comment() != null) {
      writer.keyword("COMMENT");
      flink.comment().unparse(writer, 0, 0);
    }
    if (!flink.partitionKeys().isEmpty()) {
      writer.keyword("PARTITIONED BY");
      final SqlWriter.Frame frame = writer.startList("(", ")");
      for (SqlNode key : flink.partitionKeys()) {
        writer.sep(",");
        key.unparse(writer, 0, 0);
      }
      writer.endList(frame);
    }
    if (dynamicColumnsOption != null) {
      writer.keyword("DYNAMIC_COLUMNS");
      writer.keyword("=");
      writer.keyword(dynamicColumnsOption ? "ON" : "OFF");
    }
    if (!optionList.isEmpty()) {
      writer.keyword("WITH");
      final SqlWriter.Frame frame = writer.startList("(", ")");
      for (int i = 0; i < optionList.size(); i += 2) {
        writer.sep(",");
        writer.newlineAndIndent();
        optionList.get(i).unparse(writer, 0, 0);
        writer.keyword("=");
        optionList.get(i + 1).unparse(writer, 0, 0);
      }
      writer.newlineAndIndent();
      writer.endList(frame);
    }
    if (like != null) {
      writer.keyword("LIKE");
      like.unparse(writer, 0, 0);
      if (likeOptions != null) {
        final SqlWriter.Frame frame = writer.startList("(", ")");
        for (int i = 0; i < likeOptions.size(); i += 2) {
          writer.keyword(((SqlIdentifier) likeOptions.get(i)).getSimple());
          writer.keyword(((SqlIdentifier) likeOptions.get(i + 1)).getSimple());
        }
        writer.endList(frame);
      }
    }
    if (query != null) {
      writer.keyword("AS");
      writer.newlineAndIndent();
      query.unparse(writer, 0, 0);
    }
  }
}

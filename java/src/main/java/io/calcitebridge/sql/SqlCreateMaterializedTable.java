package io.calcitebridge.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlCreate;
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
 * Flink's {@code CREATE MATERIALIZED TABLE [IF NOT EXISTS] name [(constraint)] [COMMENT 'text']
 * [PARTITIONED BY (col, ...)] [WITH (options)] [FRESHNESS = interval] [REFRESH_MODE =
 * CONTINUOUS|FULL] AS query} (FLIP-435).
 */
public class SqlCreateMaterializedTable extends SqlCreate {
  private static final SqlOperator OPERATOR =
      new BridgeOperator(
          "CREATE MATERIALIZED TABLE",
          SqlKind.CREATE_MATERIALIZED_VIEW,
          (pos, ops) ->
              new SqlCreateMaterializedTable(
                  pos,
                  BridgeOperator.isTrue(ops.get(9)),
                  BridgeOperator.isTrue(ops.get(10)),
                  BridgeOperator.isTrue(ops.get(11)),
                  (SqlIdentifier) Objects.requireNonNull(ops.get(0)),
                  (SqlNodeList) Objects.requireNonNull(ops.get(1)),
                  (SqlNodeList) Objects.requireNonNull(ops.get(2)),
                  (SqlCharStringLiteral) ops.get(3),
                  (SqlNodeList) Objects.requireNonNull(ops.get(4)),
                  (SqlNodeList) Objects.requireNonNull(ops.get(5)),
                  ops.get(6),
                  (SqlIdentifier) ops.get(7),
                  Objects.requireNonNull(ops.get(8)),
                  Mode.values()[
                      ((SqlLiteral) Objects.requireNonNull(ops.get(12))).intValue(true)]));

  /** What the statement does with a materialized table of its name. */
  public enum Mode {
    /** CREATE MATERIALIZED TABLE: fails when it exists (unless IF NOT EXISTS). */
    CREATE,
    /** CREATE OR ALTER MATERIALIZED TABLE: creates it, or changes its query when it exists. */
    CREATE_OR_ALTER,
    /** ALTER MATERIALIZED TABLE ... AS: changes the query of one that exists. */
    ALTER
  }

  private final boolean temporary;
  private final SqlIdentifier name;
  private final SqlNodeList columns;
  private final SqlNodeList constraints;
  private final @Nullable SqlCharStringLiteral comment;
  private final SqlNodeList partitionKeys;
  private final SqlNodeList optionList;
  private final @Nullable SqlNode freshness;
  private final @Nullable SqlIdentifier refreshMode;
  private final SqlNode query;
  private final Mode mode;

  /** The statement; {@code mode} says whether it creates, creates or alters, or alters. */
  public SqlCreateMaterializedTable(
      SqlParserPos pos,
      boolean replace,
      boolean temporary,
      boolean ifNotExists,
      SqlIdentifier name,
      SqlNodeList columns,
      SqlNodeList constraints,
      @Nullable SqlCharStringLiteral comment,
      SqlNodeList partitionKeys,
      SqlNodeList optionList,
      @Nullable SqlNode freshness,
      @Nullable SqlIdentifier refreshMode,
      SqlNode query,
      Mode mode) {
    super(OPERATOR, pos, replace, ifNotExists);
    this.mode = mode;
    this.temporary = temporary;
    this.name = name;
    this.columns = columns;
    this.constraints = constraints;
    this.comment = comment;
    this.partitionKeys = partitionKeys;
    this.optionList = optionList;
    this.freshness = freshness;
    this.refreshMode = refreshMode;
    this.query = query;
  }

  public SqlIdentifier name() {
    return name;
  }

  /** Whether it creates, creates or alters, or alters the table. */
  public Mode mode() {
    return mode;
  }

  /** This statement as CREATE OR ALTER MATERIALIZED TABLE. */
  public SqlCreateMaterializedTable orAlter() {
    return withMode(Mode.CREATE_OR_ALTER);
  }

  private SqlCreateMaterializedTable withMode(Mode m) {
    return new SqlCreateMaterializedTable(
        getParserPosition(),
        getReplace(),
        temporary,
        ifNotExists,
        name,
        columns,
        constraints,
        comment,
        partitionKeys,
        optionList,
        freshness,
        refreshMode,
        query,
        m);
  }

  /** Whether TEMPORARY was written (refused: a materialized table is never temporary). */
  public boolean temporary() {
    return temporary;
  }

  public boolean ifNotExists() {
    return ifNotExists;
  }

  /** Columns written in the parentheses (Flink allows only constraints there). */
  public SqlNodeList columns() {
    return columns;
  }

  public SqlNodeList constraints() {
    return constraints;
  }

  public @Nullable SqlCharStringLiteral comment() {
    return comment;
  }

  public SqlNodeList partitionKeys() {
    return partitionKeys;
  }

  /** The names of PARTITIONED BY, in order. */
  public List<String> partitionNames() {
    List<String> out = new ArrayList<>();
    for (SqlNode n : partitionKeys) {
      out.add(((SqlIdentifier) n).getSimple());
    }
    return out;
  }

  /** WITH options, keys and values alternating. */
  public SqlNodeList optionList() {
    return optionList;
  }

  /** WITH options in the order written. */
  public java.util.LinkedHashMap<String, String> options() {
    java.util.LinkedHashMap<String, String> map = new java.util.LinkedHashMap<>();
    for (int i = 0; i + 1 < optionList.size(); i += 2) {
      map.put(
          ((SqlLiteral) optionList.get(i)).getValueAs(String.class),
          ((SqlLiteral) optionList.get(i + 1)).getValueAs(String.class));
    }
    return map;
  }

  /** The interval literal of FRESHNESS, or null. */
  public @Nullable SqlNode freshness() {
    return freshness;
  }

  /** CONTINUOUS or FULL, or null. */
  public @Nullable SqlIdentifier refreshMode() {
    return refreshMode;
  }

  public SqlNode query() {
    return query;
  }

  @Override
  public SqlOperator getOperator() {
    return OPERATOR;
  }

  @Override
  public List<SqlNode> getOperandList() {
    return ImmutableNullableList.of(
        name,
        columns,
        constraints,
        comment,
        partitionKeys,
        optionList,
        freshness,
        refreshMode,
        query,
        BridgeOperator.flag(getReplace()),
        BridgeOperator.flag(temporary),
        BridgeOperator.flag(ifNotExists),
        SqlLiteral.createExactNumeric(String.valueOf(mode.ordinal()), SqlParserPos.ZERO));
  }

  @Override
  public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    if (mode == Mode.ALTER) {
      writer.keyword("ALTER MATERIALIZED TABLE");
      name.unparse(writer, leftPrec, rightPrec);
      writer.keyword("AS");
      query.unparse(writer, 0, 0);
      return;
    }
    writer.keyword(
        mode == Mode.CREATE_OR_ALTER
            ? "CREATE OR ALTER MATERIALIZED TABLE"
            : "CREATE MATERIALIZED TABLE");
    if (ifNotExists) {
      writer.keyword("IF NOT EXISTS");
    }
    name.unparse(writer, leftPrec, rightPrec);
    if (comment != null) {
      writer.keyword("COMMENT");
      comment.unparse(writer, 0, 0);
    }
    if (!partitionKeys.isEmpty()) {
      writer.keyword("PARTITIONED BY");
      SqlWriter.Frame frame = writer.startList("(", ")");
      for (SqlNode k : partitionKeys) {
        writer.sep(",");
        k.unparse(writer, 0, 0);
      }
      writer.endList(frame);
    }
    if (!optionList.isEmpty()) {
      writer.keyword("WITH");
      SqlWriter.Frame frame = writer.startList("(", ")");
      for (int i = 0; i + 1 < optionList.size(); i += 2) {
        writer.sep(",");
        optionList.get(i).unparse(writer, 0, 0);
        writer.keyword("=");
        optionList.get(i + 1).unparse(writer, 0, 0);
      }
      writer.endList(frame);
    }
    if (freshness != null) {
      writer.keyword("FRESHNESS =");
      freshness.unparse(writer, 0, 0);
    }
    if (refreshMode != null) {
      writer.keyword("REFRESH_MODE =");
      refreshMode.unparse(writer, 0, 0);
    }
    writer.keyword("AS");
    query.unparse(writer, 0, 0);
  }
}

package io.calcitebridge.sql;

import java.util.List;
import java.util.Objects;
import org.apache.calcite.sql.SqlCreate;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.util.ImmutableNullableList;
import org.checkerframework.checker.nullness.qual.Nullable;

/** {@code CREATE [OR REPLACE] [TEMPORARY] VIEW [IF NOT EXISTS] name [(column, ...)] AS query}. */
public class SqlCreateView extends SqlCreate {
  /** The operator of CREATE VIEW. */
  public static final SqlOperator OPERATOR =
      new BridgeOperator(
          "CREATE VIEW",
          SqlKind.CREATE_VIEW,
          (pos, ops) ->
              new SqlCreateView(
                  pos,
                  BridgeOperator.isTrue(ops.get(5)),
                  BridgeOperator.isTrue(ops.get(3)),
                  BridgeOperator.isTrue(ops.get(4)),
                  (SqlIdentifier) Objects.requireNonNull(ops.get(0)),
                  (SqlNodeList) ops.get(1),
                  Objects.requireNonNull(ops.get(2)),
                  (org.apache.calcite.sql.SqlCharStringLiteral) ops.get(6),
                  (SqlNodeList) ops.get(7)));

  private final boolean temporary;
  private final SqlIdentifier name;
  private final @Nullable SqlNodeList columnList;
  private final SqlNode query;
  private final org.apache.calcite.sql.@Nullable SqlCharStringLiteral comment;
  private final @Nullable SqlNodeList columnComments;

  /** Creates a CREATE VIEW; {@code columnList} is null when not given. */
  public SqlCreateView(
      SqlParserPos pos,
      boolean replace,
      boolean temporary,
      boolean ifNotExists,
      SqlIdentifier name,
      @Nullable SqlNodeList columnList,
      SqlNode query) {
    this(pos, replace, temporary, ifNotExists, name, columnList, query, null, null);
  }

  /**
   * Creates a CREATE VIEW with Flink's comments: the view's {@code comment} and, beside {@code
   * columnList}, one comment per column ({@code columnComments}, a NULL literal where none).
   */
  public SqlCreateView(
      SqlParserPos pos,
      boolean replace,
      boolean temporary,
      boolean ifNotExists,
      SqlIdentifier name,
      @Nullable SqlNodeList columnList,
      SqlNode query,
      org.apache.calcite.sql.@Nullable SqlCharStringLiteral comment,
      @Nullable SqlNodeList columnComments) {
    super(OPERATOR, pos, replace, ifNotExists);
    this.comment = comment;
    this.columnComments = columnComments;
    this.temporary = temporary;
    this.name = Objects.requireNonNull(name, "name");
    this.columnList = columnList;
    this.query = Objects.requireNonNull(query, "query");
  }

  /** Returns the view name. */
  public SqlIdentifier name() {
    return name;
  }

  /** Returns the column names given after the view name, or null. */
  public @Nullable SqlNodeList columnList() {
    return columnList;
  }

  /** Returns the text of COMMENT, or null. */
  public @Nullable String commentText() {
    return comment == null ? null : comment.getValueAs(String.class);
  }

  /** Returns the comments of the column list (NULL literals where none), or null. */
  public @Nullable SqlNodeList columnComments() {
    return columnComments;
  }

  /** Returns the query after AS. */
  public SqlNode query() {
    return query;
  }

  /** Returns whether TEMPORARY was given. */
  public boolean temporary() {
    return temporary;
  }

  /** Returns whether IF NOT EXISTS was given. */
  public boolean ifNotExists() {
    return ifNotExists;
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
        query,
        BridgeOperator.flag(temporary),
        BridgeOperator.flag(ifNotExists),
        BridgeOperator.flag(getReplace()),
        comment,
        columnComments);
  }

  @Override
  public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword("CREATE");
    if (getReplace()) {
      writer.keyword("OR REPLACE");
    }
    if (temporary) {
      writer.keyword("TEMPORARY");
    }
    writer.keyword("VIEW");
    if (ifNotExists) {
      writer.keyword("IF NOT EXISTS");
    }
    name.unparse(writer, leftPrec, rightPrec);
    if (columnList != null) {
      final SqlWriter.Frame frame = writer.startList("(", ")");
      for (SqlNode column : columnList) {
        writer.sep(",");
        column.unparse(writer, 0, 0);
      }
      writer.endList(frame);
    }
    if (comment != null) {
      writer.keyword("COMMENT");
      comment.unparse(writer, 0, 0);
    }
    writer.keyword("AS");
    writer.newlineAndIndent();
    query.unparse(writer, 0, 0);
  }
}

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
                  Objects.requireNonNull(ops.get(2))));

  private final boolean temporary;
  private final SqlIdentifier name;
  private final @Nullable SqlNodeList columnList;
  private final SqlNode query;

  /** Creates a CREATE VIEW; {@code columnList} is null when not given. */
  public SqlCreateView(
      SqlParserPos pos,
      boolean replace,
      boolean temporary,
      boolean ifNotExists,
      SqlIdentifier name,
      @Nullable SqlNodeList columnList,
      SqlNode query) {
    super(OPERATOR, pos, replace, ifNotExists);
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
        BridgeOperator.flag(getReplace()));
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
    writer.keyword("AS");
    writer.newlineAndIndent();
    query.unparse(writer, 0, 0);
  }
}

package io.calcitebridge.sql;

import java.util.List;
import java.util.Objects;
import org.apache.calcite.sql.SqlDrop;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.util.ImmutableNullableList;

/** {@code DROP TABLE [IF EXISTS] name} and {@code DROP VIEW [IF EXISTS] name}. */
public class SqlDropObject extends SqlDrop {
  /** The operator of DROP TABLE. */
  public static final SqlOperator DROP_TABLE =
      new BridgeOperator("DROP TABLE", SqlKind.DROP_TABLE, (pos, ops) -> create(pos, false, ops));

  /** The operator of DROP VIEW. */
  public static final SqlOperator DROP_VIEW =
      new BridgeOperator("DROP VIEW", SqlKind.DROP_VIEW, (pos, ops) -> create(pos, true, ops));

  private final boolean isView;
  private final SqlIdentifier name;
  private final boolean temporary;
  private final boolean materialized;

  /** Creates a DROP TABLE or DROP VIEW. */
  public SqlDropObject(SqlParserPos pos, boolean isView, boolean ifExists, SqlIdentifier name) {
    this(pos, isView, ifExists, name, false, false);
  }

  /**
   * Creates a DROP [TEMPORARY] TABLE, DROP [TEMPORARY] VIEW or DROP MATERIALIZED TABLE (a table
   * when {@code materialized}).
   */
  public SqlDropObject(
      SqlParserPos pos,
      boolean isView,
      boolean ifExists,
      SqlIdentifier name,
      boolean temporary,
      boolean materialized) {
    super(isView ? DROP_VIEW : DROP_TABLE, pos, ifExists);
    this.isView = isView;
    this.name = Objects.requireNonNull(name, "name");
    this.temporary = temporary;
    this.materialized = materialized;
  }

  /** Returns whether TEMPORARY was given: the temporary table or view is dropped. */
  public boolean isTemporary() {
    return temporary;
  }

  /** Returns whether this is DROP MATERIALIZED TABLE. */
  public boolean isMaterialized() {
    return materialized;
  }

  private static SqlDropObject create(
      SqlParserPos pos, boolean isView, List<? extends SqlNode> ops) {
    return new SqlDropObject(
        pos,
        isView,
        BridgeOperator.isTrue(ops.get(1)),
        (SqlIdentifier) Objects.requireNonNull(ops.get(0)),
        ops.size() > 2 && BridgeOperator.isTrue(ops.get(2)),
        ops.size() > 3 && BridgeOperator.isTrue(ops.get(3)));
  }

  /** Returns the name of the table or view. */
  public SqlIdentifier name() {
    return name;
  }

  /** Returns whether IF EXISTS was given. */
  public boolean ifExists() {
    return ifExists;
  }

  /** Returns whether this drops a view (else a table). */
  public boolean isView() {
    return isView;
  }

  @Override
  public SqlOperator getOperator() {
    return isView ? DROP_VIEW : DROP_TABLE;
  }

  @Override
  public List<SqlNode> getOperandList() {
    return ImmutableNullableList.of(
        name,
        BridgeOperator.flag(ifExists),
        BridgeOperator.flag(temporary),
        BridgeOperator.flag(materialized));
  }

  @Override
  public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword("DROP");
    if (temporary) {
      writer.keyword("TEMPORARY");
    }
    if (materialized) {
      writer.keyword("MATERIALIZED");
    }
    writer.keyword(isView ? "VIEW" : "TABLE");
    if (ifExists) {
      writer.keyword("IF EXISTS");
    }
    name.unparse(writer, leftPrec, rightPrec);
  }
}

package io.calcitebridge.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.util.ImmutableNullableList;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Flink's {@code ALTER TABLE [IF EXISTS] t} with one action ({@link Action}), and {@code ALTER VIEW
 * v RENAME TO v2 | AS query}. One class for all of them.
 */
public class SqlAlterTable extends SqlCall {
  /** What the statement does. */
  public enum Action {
    RENAME,
    SET,
    RESET,
    RENAME_COLUMN,
    DROP_COLUMNS,
    DROP_PRIMARY_KEY,
    DROP_CONSTRAINT,
    DROP_WATERMARK,
    ADD,
    MODIFY,
    VIEW_RENAME,
    VIEW_AS
  }

  private static final SqlOperator OPERATOR =
      new BridgeOperator(
          "ALTER TABLE",
          SqlKind.OTHER_DDL,
          (pos, ops) -> {
            throw new UnsupportedOperationException("ALTER TABLE is not copied");
          });

  private final Action action;
  private final SqlIdentifier name;
  private final boolean ifExists;
  private final @Nullable SqlIdentifier target;
  private final @Nullable SqlIdentifier column;
  private final SqlNodeList list;
  private final SqlNodeList constraints;
  private final SqlNodeList watermarks;
  private final SqlNodeList positions;
  private final @Nullable SqlNode query;

  /**
   * Creates a statement. {@code target} is RENAME's new name; {@code column} the column of RENAME
   * col or the constraint of DROP CONSTRAINT; {@code list} SET's keys and values alternating,
   * RESET's keys, DROP's column names, or ADD's and MODIFY's columns; {@code positions} holds, for
   * each of those columns, an empty string, 'FIRST', or the column of AFTER.
   */
  public SqlAlterTable(
      SqlParserPos pos,
      Action action,
      SqlIdentifier name,
      boolean ifExists,
      @Nullable SqlIdentifier target,
      @Nullable SqlIdentifier column,
      SqlNodeList list,
      SqlNodeList constraints,
      SqlNodeList watermarks,
      SqlNodeList positions,
      @Nullable SqlNode query) {
    super(pos);
    this.action = action;
    this.name = name;
    this.ifExists = ifExists;
    this.target = target;
    this.column = column;
    this.list = list;
    this.constraints = constraints;
    this.watermarks = watermarks;
    this.positions = positions;
    this.query = query;
  }

  public Action action() {
    return action;
  }

  public SqlIdentifier name() {
    return name;
  }

  public boolean ifExists() {
    return ifExists;
  }

  public @Nullable SqlIdentifier target() {
    return target;
  }

  public @Nullable SqlIdentifier column() {
    return column;
  }

  public SqlNodeList list() {
    return list;
  }

  /** The texts of {@link #list} (SET's, RESET's keys and values). */
  public List<String> texts() {
    List<String> out = new ArrayList<>();
    for (SqlNode n : list) {
      out.add(
          n instanceof SqlCharStringLiteral l
              ? l.getValueAs(String.class)
              : ((SqlIdentifier) n).getSimple());
    }
    return out;
  }

  public SqlNodeList constraints() {
    return constraints;
  }

  public SqlNodeList watermarks() {
    return watermarks;
  }

  /** For the column {@code i} of ADD or MODIFY: "", "FIRST", or the column of AFTER. */
  public String position(int i) {
    SqlNode p = positions.get(i);
    return p instanceof SqlIdentifier id
        ? id.getSimple()
        : ((SqlCharStringLiteral) p).getValueAs(String.class);
  }

  /** Whether the column {@code i} of ADD or MODIFY is placed AFTER another. */
  public boolean isAfter(int i) {
    return positions.get(i) instanceof SqlIdentifier;
  }

  public SqlNode positionNode(int i) {
    return positions.get(i);
  }

  public @Nullable SqlNode query() {
    return query;
  }

  @Override
  public SqlOperator getOperator() {
    return OPERATOR;
  }

  @Override
  public List<SqlNode> getOperandList() {
    return ImmutableNullableList.of(
        name, target, column, list, constraints, watermarks, positions, query);
  }

  @Override
  public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    boolean view = action == Action.VIEW_RENAME || action == Action.VIEW_AS;
    writer.keyword(view ? "ALTER VIEW" : "ALTER TABLE");
    if (ifExists) {
      writer.keyword("IF EXISTS");
    }
    name.unparse(writer, 0, 0);
    writer.keyword(action.name().toLowerCase(Locale.ROOT).replace('_', ' '));
    for (SqlNode n : ImmutableNullableList.of(column, target, query)) {
      if (n != null) {
        n.unparse(writer, 0, 0);
      }
    }
    for (SqlNode n : list) {
      n.unparse(writer, 0, 0);
    }
  }
}

package io.calcitebridge.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.calcite.sql.SqlCall;
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
 * Flink's key constraint of {@code CREATE TABLE}: {@code [CONSTRAINT name] PRIMARY KEY (cols) [NOT]
 * ENFORCED} in the column list, or {@code PRIMARY KEY [NOT] ENFORCED} after a column's type; also
 * {@code UNIQUE}, which is parsed so that it can be refused as Flink refuses it.
 */
public class SqlTableConstraint extends SqlCall {
  /** The operator of key constraints. */
  public static final SqlOperator OPERATOR =
      new BridgeOperator(
          "CONSTRAINT",
          SqlKind.OTHER,
          (pos, ops) ->
              new SqlTableConstraint(
                  pos,
                  (SqlIdentifier) ops.get(0),
                  (SqlNodeList) Objects.requireNonNull(ops.get(1)),
                  BridgeOperator.isTrue(ops.get(2)),
                  BridgeOperator.isTrue(ops.get(3)),
                  false));

  private final @Nullable SqlIdentifier name;
  private final SqlNodeList columns;
  private final boolean unique;
  private final boolean enforced;
  private final boolean columnLevel;

  /** Creates a key constraint. */
  public SqlTableConstraint(
      SqlParserPos pos,
      @Nullable SqlIdentifier name,
      SqlNodeList columns,
      boolean unique,
      boolean enforced,
      boolean columnLevel) {
    super(pos);
    this.name = name;
    this.columns = Objects.requireNonNull(columns, "columns");
    this.unique = unique;
    this.enforced = enforced;
    this.columnLevel = columnLevel;
  }

  /** Returns the name after CONSTRAINT, or null. */
  public @Nullable String name() {
    return name == null ? null : name.getSimple();
  }

  /** Returns the key's column names, in order. */
  public List<String> columnNames() {
    List<String> out = new ArrayList<>();
    for (SqlNode n : columns) {
      out.add(((SqlIdentifier) n).getSimple());
    }
    return out;
  }

  /** Returns the key's columns as written. */
  public SqlNodeList columns() {
    return columns;
  }

  /** Returns whether this is UNIQUE rather than PRIMARY KEY. */
  public boolean isUnique() {
    return unique;
  }

  /** Returns whether the constraint lacks NOT ENFORCED. */
  public boolean isEnforced() {
    return enforced;
  }

  /**
   * Returns whether it was written after a column's type. Not an operand: it unparses as the table
   * constraint it stands for.
   */
  public boolean isColumnLevel() {
    return columnLevel;
  }

  @Override
  public SqlOperator getOperator() {
    return OPERATOR;
  }

  @Override
  public List<SqlNode> getOperandList() {
    return ImmutableNullableList.of(
        name, columns, BridgeOperator.flag(unique), BridgeOperator.flag(enforced));
  }

  @Override
  public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    if (name != null) {
      writer.keyword("CONSTRAINT");
      name.unparse(writer, 0, 0);
    }
    writer.keyword(unique ? "UNIQUE" : "PRIMARY KEY");
    final SqlWriter.Frame frame = writer.startList("(", ")");
    for (SqlNode c : columns) {
      writer.sep(",");
      c.unparse(writer, 0, 0);
    }
    writer.endList(frame);
    writer.keyword(enforced ? "ENFORCED" : "NOT ENFORCED");
  }
}

package io.calcitebridge.sql;

import static java.util.Objects.requireNonNull;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * One column definition of {@code CREATE TABLE}: a {@link SqlPhysicalColumn}, a {@link
 * SqlMetadataColumn} or a {@link SqlComputedColumn}.
 */
public abstract class SqlTableColumn extends SqlCall {
  /** Where the definition stands in the statement, from name to end. */
  public final SqlParserPos position;

  /** The column name as written (with its quoting). */
  protected final SqlIdentifier name;

  /** Creates a column definition. */
  protected SqlTableColumn(SqlParserPos pos, SqlIdentifier name) {
    super(pos);
    this.position = pos;
    this.name = requireNonNull(name, "name");
  }

  /** Returns the column name. */
  public String name() {
    return name.getSimple();
  }

  /** Returns the column name as an identifier, with its position. */
  public SqlIdentifier nameIdentifier() {
    return name;
  }

  /** Returns where the definition stands in the statement. */
  public SqlParserPos position() {
    return position;
  }
}

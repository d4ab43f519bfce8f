package io.calcitebridge.sql;

import static java.util.Objects.requireNonNull;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.checkerframework.checker.nullness.qual.Nullable;

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

  private @Nullable SqlCharStringLiteral comment;

  /** Sets the column's {@code COMMENT 'text'}, or null for none. */
  public void setComment(@Nullable SqlCharStringLiteral comment) {
    this.comment = comment;
  }

  /** Returns the text of the column's COMMENT, or null. */
  public @Nullable String comment() {
    return comment == null ? null : comment.getValueAs(String.class);
  }

  /** Returns the COMMENT literal, or null. */
  protected @Nullable SqlCharStringLiteral commentLiteral() {
    return comment;
  }

  /** Sets the comment of {@code column} from an operand (a literal or null) and returns it. */
  protected static <T extends SqlTableColumn> T withComment(
      T column, org.apache.calcite.sql.@Nullable SqlNode comment) {
    column.setComment((SqlCharStringLiteral) comment);
    return column;
  }

  /** Writes {@code COMMENT 'text'} when the column has one. */
  protected void unparseComment(SqlWriter writer) {
    if (comment != null) {
      writer.keyword("COMMENT");
      comment.unparse(writer, 0, 0);
    }
  }

  /** Returns where the definition stands in the statement. */
  public SqlParserPos position() {
    return position;
  }
}

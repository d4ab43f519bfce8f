package io.calcitebridge.sql;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Flink's {@code INSERT OVERWRITE t ...} and {@code INSERT { INTO | OVERWRITE } t PARTITION (k = v,
 * ...) [(cols)] query}: Calcite's INSERT with Flink's overwrite flag and static partition.
 */
public final class SqlFlinkInsert extends SqlInsert {
  private final boolean overwrite;
  private final @Nullable SqlNodeList partition;
  private boolean partitionApplied;

  /**
   * @param partition the static partition's keys and values, alternately ({@code k1, v1, k2, v2})
   */
  public SqlFlinkInsert(
      SqlParserPos pos,
      SqlNodeList keywords,
      SqlNode targetTable,
      SqlNode source,
      @Nullable SqlNodeList columnList,
      boolean overwrite,
      @Nullable SqlNodeList partition) {
    super(pos, keywords, targetTable, source, columnList);
    this.overwrite = overwrite;
    this.partition = partition;
  }

  /** Whether the INSERT replaces the table's (or the static partition's) rows. */
  public boolean isOverwrite() {
    return overwrite;
  }

  /** The static partition's keys, in order; empty without PARTITION. */
  public List<SqlIdentifier> partitionKeys() {
    List<SqlIdentifier> keys = new ArrayList<>();
    if (partition != null) {
      for (int i = 0; i < partition.size(); i += 2) {
        keys.add((SqlIdentifier) partition.get(i));
      }
    }
    return keys;
  }

  /** The static partition's values, in the order of {@link #partitionKeys}. */
  public List<SqlNode> partitionValues() {
    List<SqlNode> values = new ArrayList<>();
    if (partition != null) {
      for (int i = 1; i < partition.size(); i += 2) {
        values.add(partition.get(i));
      }
    }
    return values;
  }

  /**
   * Whether the static partition's values were already added to the query (an INSERT is prepared
   * once, though it may be validated more than once).
   */
  public boolean partitionApplied() {
    return partitionApplied;
  }

  public void markPartitionApplied() {
    partitionApplied = true;
  }

  @Override
  public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.startList(SqlWriter.FrameTypeEnum.SELECT);
    writer.sep(overwrite ? "INSERT OVERWRITE" : "INSERT INTO");
    int opLeft = getOperator().getLeftPrec();
    int opRight = getOperator().getRightPrec();
    getTargetTable().unparse(writer, opLeft, opRight);
    if (partition != null && !partitionApplied) {
      writer.keyword("PARTITION");
      SqlWriter.Frame frame = writer.startList("(", ")");
      for (int i = 0; i < partition.size(); i += 2) {
        writer.sep(",");
        partition.get(i).unparse(writer, 0, 0);
        writer.keyword("=");
        partition.get(i + 1).unparse(writer, 0, 0);
      }
      writer.endList(frame);
    }
    SqlNodeList columns = getTargetColumnList();
    if (columns != null) {
      columns.unparse(writer, opLeft, opRight);
    }
    writer.newlineAndIndent();
    getSource().unparse(writer, 0, 0);
  }
}

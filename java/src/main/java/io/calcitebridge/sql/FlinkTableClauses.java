package io.calcitebridge.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The clauses of Flink's {@code CREATE TABLE} beyond columns and options: {@code TEMPORARY}, key
 * constraints, watermarks, the table's {@code COMMENT} and {@code PARTITIONED BY}.
 *
 * @param temporary whether {@code CREATE TEMPORARY TABLE} was written
 * @param constraints the key constraints ({@link SqlTableConstraint}), column and table ones
 * @param watermarks the watermark definitions ({@link SqlWatermark})
 * @param comment the table's {@code COMMENT}, or null
 * @param partitionKeys the columns of {@code PARTITIONED BY}, empty when absent
 */
public record FlinkTableClauses(
    boolean temporary,
    SqlNodeList constraints,
    SqlNodeList watermarks,
    @Nullable SqlCharStringLiteral comment,
    SqlNodeList partitionKeys) {

  public FlinkTableClauses {
    Objects.requireNonNull(constraints, "constraints");
    Objects.requireNonNull(watermarks, "watermarks");
    Objects.requireNonNull(partitionKeys, "partitionKeys");
  }

  /** No Flink clause: a plain CREATE TABLE. */
  public static FlinkTableClauses none(SqlParserPos pos) {
    return new FlinkTableClauses(
        false, new SqlNodeList(pos), new SqlNodeList(pos), null, new SqlNodeList(pos));
  }

  /** The key constraints, in order. */
  public List<SqlTableConstraint> constraintList() {
    List<SqlTableConstraint> out = new ArrayList<>();
    for (SqlNode n : constraints) {
      out.add((SqlTableConstraint) n);
    }
    return out;
  }

  /** The watermark definitions, in order. */
  public List<SqlWatermark> watermarkList() {
    List<SqlWatermark> out = new ArrayList<>();
    for (SqlNode n : watermarks) {
      out.add((SqlWatermark) n);
    }
    return out;
  }

  /** The text of the table's COMMENT, or null. */
  public @Nullable String commentText() {
    return comment == null ? null : comment.getValueAs(String.class);
  }

  /** The names of the partition columns, in order. */
  public List<String> partitionNames() {
    List<String> out = new ArrayList<>();
    for (SqlNode n : partitionKeys) {
      out.add(((SqlIdentifier) n).getSimple());
    }
    return out;
  }
}

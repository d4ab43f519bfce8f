package io.calcitebridge.flink;

import io.calcitebridge.errors.ErrorKind;
import io.calcitebridge.errors.PositionedException;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.RepeatUnion;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlWithItem;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Flink 2.3 cannot plan a recursive query: a {@code WITH RECURSIVE} query that reads itself becomes
 * a {@link RepeatUnion}, for which its planner has no rule, and the statement fails with "Cannot
 * generate a valid execution plan for the given query". Calcite's engine would run it; here it is
 * refused as Flink refuses it, when the query is planned (a view of one is made, as in Flink, and
 * refused when read). A {@code WITH RECURSIVE} query that does not read itself is an ordinary
 * {@code WITH} and runs.
 */
public final class RecursiveQueries {
  private RecursiveQueries() {}

  /**
   * Throws a positioned {@link ErrorKind#UNSUPPORTED} error, at the recursive {@code WITH} item of
   * {@code validated}, when {@code logical} (its logical plan) holds a recursive union.
   */
  public static void refuse(RelNode logical, @Nullable SqlNode validated) {
    if (!recursive(logical)) {
      return;
    }
    SqlWithItem item = validated == null ? null : recursiveItem(validated);
    throw new PositionedException(
        ErrorKind.UNSUPPORTED,
        "Cannot generate a valid execution plan for the given query: "
            + (item == null ? "a recursive query" : "the recursive query '" + item.name + "'")
            + " (WITH RECURSIVE) reads itself, and Flink plans no recursion. This exception"
            + " indicates that the query uses an unsupported SQL feature.",
        item == null ? SqlParserPos.ZERO : item.getParserPosition());
  }

  private static boolean recursive(RelNode rel) {
    if (rel instanceof RepeatUnion) {
      return true;
    }
    for (RelNode input : rel.getInputs()) {
      if (recursive(input)) {
        return true;
      }
    }
    return false;
  }

  private static @Nullable SqlWithItem recursiveItem(SqlNode node) {
    SqlWithItem[] found = {null};
    node.accept(
        new SqlBasicVisitor<Void>() {
          @Override
          public @Nullable Void visit(SqlCall call) {
            if (found[0] == null
                && call instanceof SqlWithItem item
                && item.recursive.booleanValue()) {
              found[0] = item;
            }
            return super.visit(call);
          }
        });
    return found[0];
  }
}

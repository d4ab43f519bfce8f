package io.calcitebridge.functions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.validate.SqlNameMatchers;
import org.junit.jupiter.api.Test;

/**
 * The Flink function table that the validator asks ({@link FlinkFunctions#byName}) answers every
 * name, in any case, as the whole table does, though it makes the table only when a statement names
 * one of its functions.
 */
class FlinkFunctionsTest {
  @Test
  void theListOfNamesHoldsEveryFunctionsNameAndNoOther() {
    Set<String> names = new TreeSet<>();
    for (SqlOperator op : FlinkFunctions.table().getOperatorList()) {
      names.add(op.getName().toUpperCase(Locale.ROOT));
    }
    Set<String> missing = new TreeSet<>(names);
    missing.removeAll(FlinkFunctions.NAMES);
    Set<String> extra = new TreeSet<>(FlinkFunctions.NAMES);
    extra.removeAll(names);
    assertEquals(
        List.of(List.of(), List.of()),
        List.of(List.copyOf(missing), List.copyOf(extra)),
        "FlinkFunctions.NAMES must list the table's functions: [missing, extra]");
  }

  @Test
  void everyFunctionIsFoundByItsNameInAnyCase() {
    SqlOperatorTable byName = FlinkFunctions.byName();
    for (SqlOperator op : FlinkFunctions.table().getOperatorList()) {
      for (String name :
          List.of(op.getName(), op.getName().toLowerCase(Locale.ROOT), capitalised(op))) {
        // The validator passes its own, case-sensitive, matcher: the table ignores it.
        List<SqlOperator> found = found(byName, op, name, true);
        assertEquals(found(FlinkFunctions.table(), op, name, false), found, op.getName());
        assertTrue(found.contains(op), name);
      }
    }
    assertEquals(FlinkFunctions.table().getOperatorList(), byName.getOperatorList());
  }

  @Test
  void aNameOfNoFunctionFindsNothing() {
    List<SqlOperator> out = new ArrayList<>();
    for (String name : List.of("NO_SUCH_FUNCTION", "x", "SUM", "")) {
      FlinkFunctions.byName()
          .lookupOperatorOverloads(
              new SqlIdentifier(name, SqlParserPos.ZERO),
              null,
              org.apache.calcite.sql.SqlSyntax.FUNCTION,
              out,
              SqlNameMatchers.withCaseSensitive(true));
    }
    assertEquals(List.of(), out);
  }

  private static String capitalised(SqlOperator op) {
    String n = op.getName().toLowerCase(Locale.ROOT);
    return n.isEmpty() ? n : n.substring(0, 1).toUpperCase(Locale.ROOT) + n.substring(1);
  }

  private static List<SqlOperator> found(
      SqlOperatorTable table, SqlOperator op, String name, boolean caseSensitive) {
    List<SqlOperator> out = new ArrayList<>();
    table.lookupOperatorOverloads(
        new SqlIdentifier(name, SqlParserPos.ZERO),
        null,
        op.getSyntax(),
        out,
        SqlNameMatchers.withCaseSensitive(caseSensitive));
    return out;
  }
}

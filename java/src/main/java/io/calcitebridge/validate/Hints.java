package io.calcitebridge.validate;

import io.calcitebridge.catalog.CatalogTable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.calcite.rel.hint.HintPredicates;
import org.apache.calcite.rel.hint.HintStrategyTable;
import org.apache.calcite.runtime.Resources;
import org.apache.calcite.runtime.Resources.BaseMessage;
import org.apache.calcite.runtime.Resources.ExInst;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlHint;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlTableRef;
import org.apache.calcite.sql.SqlUtil;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.sql.validate.SqlValidatorException;
import org.apache.calcite.sql.validate.SqlValidatorNamespace;
import org.apache.calcite.sql.validate.SqlValidatorTable;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Flink's checks of SQL hints, which the planner here reads and otherwise ignores: a hint Flink
 * does not register (its {@code FlinkHintStrategies}) is refused, as are a join hint or an {@code
 * OPTIONS} hint without options, and a join hint ({@code BROADCAST}, {@code SHUFFLE_HASH}, {@code
 * SHUFFLE_MERGE}, {@code NEST_LOOP}) of a query that joins tables, none of which it names. The
 * options of an {@code OPTIONS} hint are checked against the table's connector, which the scan of
 * the table then opens with them.
 */
public final class Hints {
  private Hints() {}

  /** Messages of the refused hints. */
  public interface Messages {
    Messages RESOURCE = Resources.create(Messages.class);

    @BaseMessage(
        "Unknown hint ''{0}'': Flink''s hints are OPTIONS, BROADCAST, SHUFFLE_HASH, SHUFFLE_MERGE,"
            + " NEST_LOOP, LOOKUP and STATE_TTL")
    ExInst<SqlValidatorException> unknown(String name);

    @BaseMessage("Invalid hint: {0}, expecting at least one table or view specified in hint {0}.")
    ExInst<SqlValidatorException> noTable(String name);

    @BaseMessage("Hint [{0}] only support non empty key value options")
    ExInst<SqlValidatorException> noOptions(String name);

    @BaseMessage(
        "The options of following hints cannot match the name of input tables or views: {0}")
    ExInst<SqlValidatorException> unmatched(String names);

    @BaseMessage("Unable to create a source for reading table ''{0}''.\n\n{1}")
    ExInst<SqlValidatorException> badOptions(String table, String cause);

    @BaseMessage(
        "View ''{0}'' cannot be enriched with new options. Hints can only be applied to tables.")
    ExInst<SqlValidatorException> viewOptions(String view);
  }

  /**
   * The hints the conversion to a logical plan hands on: {@code OPTIONS} to the scan of its table,
   * whose options it overrides.
   */
  public static final HintStrategyTable STRATEGIES =
      HintStrategyTable.builder().hintStrategy("OPTIONS", HintPredicates.TABLE_SCAN).build();

  /**
   * Checks the {@code OPTIONS} hints of {@code ref}, whose table {@code ns} resolves: the table's
   * connector must accept its options with the hints' laid over them, as Flink's factory checks
   * them before it reads the table; the error points at the hint. A view takes no options.
   */
  static void checkOptions(
      SqlTableRef ref, @Nullable SqlValidatorNamespace ns, List<List<String>> schemaPaths) {
    Map<String, String> options = new LinkedHashMap<>();
    SqlHint first = null;
    for (SqlNode h : ref.hints) {
      if (h instanceof SqlHint hint && name(hint).equals("OPTIONS")) {
        options.putAll(hint.getOptionKVPairs());
        first = first == null ? hint : first;
      }
    }
    if (first == null || ns == null) {
      return;
    }
    SqlValidatorTable table = ns.resolve().getTable();
    if (table == null) {
      return;
    }
    // as Flink names it: catalog, database and table (a shorter name is in the current database)
    List<String> qualified = table.getQualifiedName();
    for (List<String> path : schemaPaths) {
      if (qualified.size() < 3 && path.size() + qualified.size() == 3) {
        qualified = new ArrayList<>(path);
        qualified.addAll(table.getQualifiedName());
      }
    }
    String name = String.join(".", qualified);
    CatalogTable catalogTable = table.unwrap(CatalogTable.class);
    if (catalogTable == null) {
      if (table.unwrap(org.apache.calcite.schema.impl.ViewTable.class) != null) {
        // Flink's message names the view with its parts quoted
        String quoted = "`" + String.join("`.`", qualified) + "`";
        throw SqlUtil.newContextException(at(first), Messages.RESOURCE.viewOptions(quoted));
      }
      return;
    }
    try {
      catalogTable.withOptions(options);
    } catch (IllegalArgumentException e) {
      throw SqlUtil.newContextException(
          at(first), Messages.RESOURCE.badOptions(name, String.valueOf(e.getMessage())));
    }
  }

  private static final Set<String> JOIN =
      Set.of("BROADCAST", "SHUFFLE_HASH", "SHUFFLE_MERGE", "NEST_LOOP");

  private static final Set<String> KNOWN =
      Set.of(
          "OPTIONS",
          "BROADCAST",
          "SHUFFLE_HASH",
          "SHUFFLE_MERGE",
          "NEST_LOOP",
          "LOOKUP",
          "STATE_TTL",
          // Flink's own, which its planner adds; named here so that a plan written back is read.
          "ALIAS",
          "JSON_AGGREGATE_WRAPPED");

  /** Throws a positioned validation error for the first hint of {@code node} Flink refuses. */
  public static void check(SqlNode node) {
    node.accept(
        new SqlBasicVisitor<Void>() {
          @Override
          public @Nullable Void visit(SqlCall call) {
            if (call instanceof SqlSelect select && select.getHints() != null) {
              for (SqlNode h : select.getHints()) {
                if (h instanceof SqlHint hint) {
                  checkQueryHint(hint, select);
                }
              }
            }
            if (call instanceof SqlTableRef ref) {
              for (SqlNode h : ref.hints) {
                if (h instanceof SqlHint hint) {
                  checkName(hint);
                  if (name(hint).equals("OPTIONS") && hint.getOptionKVPairs().isEmpty()) {
                    throw SqlUtil.newContextException(
                        at(hint), Messages.RESOURCE.noOptions(hint.getName()));
                  }
                }
              }
            }
            return super.visit(call);
          }
        });
  }

  /** Where an error about {@code hint} points: at its name. */
  private static org.apache.calcite.sql.parser.SqlParserPos at(SqlHint hint) {
    return hint.getOperandList().get(0).getParserPosition();
  }

  private static String name(SqlHint hint) {
    return hint.getName().toUpperCase(Locale.ROOT);
  }

  private static void checkName(SqlHint hint) {
    if (!KNOWN.contains(name(hint))) {
      throw SqlUtil.newContextException(at(hint), Messages.RESOURCE.unknown(hint.getName()));
    }
  }

  private static void checkQueryHint(SqlHint hint, SqlSelect select) {
    checkName(hint);
    if (!JOIN.contains(name(hint))) {
      return;
    }
    List<String> tables = hint.getOptionList();
    if (tables.isEmpty()) {
      throw SqlUtil.newContextException(at(hint), Messages.RESOURCE.noTable(hint.getName()));
    }
    SqlNode from = select.getFrom();
    if (!(from instanceof SqlJoin)) {
      return; // a hint of a query that joins nothing is not applied, as in Flink
    }
    List<String> names = new ArrayList<>();
    inputs(from, names);
    List<String> unmatched = new ArrayList<>();
    for (String table : tables) {
      if (names.stream().noneMatch(n -> n.equalsIgnoreCase(table))) {
        unmatched.add("\n`" + table + "` in " + hint.getName());
      }
    }
    if (!unmatched.isEmpty()) {
      throw SqlUtil.newContextException(
          at(hint), Messages.RESOURCE.unmatched(String.join("", unmatched)));
    }
  }

  /** The names a join hint may give the inputs of {@code from}: tables, views and aliases. */
  private static void inputs(SqlNode from, List<String> names) {
    if (from instanceof SqlJoin join) {
      inputs(join.getLeft(), names);
      inputs(join.getRight(), names);
    } else if (from instanceof SqlIdentifier id) {
      names.add(id.names.get(id.names.size() - 1));
    } else if (from instanceof SqlTableRef ref) {
      inputs(ref.operand(0), names);
    } else if (from instanceof SqlCall call && call.getKind() == SqlKind.AS) {
      inputs(call.operand(0), names);
      if (call.operand(1) instanceof SqlIdentifier alias) {
        names.add(alias.getSimple());
      }
    } else if (from instanceof SqlNodeList list) {
      for (SqlNode n : list) {
        inputs(n, names);
      }
    }
  }
}

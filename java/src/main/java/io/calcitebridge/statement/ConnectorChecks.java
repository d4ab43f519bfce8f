package io.calcitebridge.statement;

import io.calcitebridge.catalog.TableStorage;
import io.calcitebridge.connector.ConnectorRoles;
import io.calcitebridge.connector.DataGen;
import io.calcitebridge.errors.ErrorKind;
import io.calcitebridge.errors.PositionedException;
import io.calcitebridge.pushdown.BridgeTableScan;
import java.util.List;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The checks a statement passes before it reads or writes a table of Flink's connectors that the
 * JVM knows: a sink-only table ({@code print}, {@code blackhole}) is not read, a source-only one
 * ({@code datagen}) not written, a declared-only one ({@code kafka}, {@code jdbc}, ...) neither; an
 * unbounded {@code datagen} table is read only up to a LIMIT above its scan (through projections
 * and filters), or under a statement timeout. Each refusal is placed at the table's name in the
 * statement.
 */
final class ConnectorChecks {
  private ConnectorChecks() {}

  /**
   * Checks the scans of {@code plan} (and of {@code scans}, a backend's). Returns whether the plan
   * reads an unbounded table through a LIMIT that stops it only on Calcite's engine (a filter
   * between them): such a plan is not handed to a backend, which would read every row.
   */
  static boolean checkReads(
      RelNode plan, @Nullable List<RelNode> scans, @Nullable SqlNode statement, long timeout) {
    boolean[] lazy = new boolean[1];
    check(plan, false, statement, timeout, lazy);
    if (scans != null) {
      for (RelNode s : scans) {
        check(s, false, statement, timeout, lazy);
      }
    }
    return lazy[0];
  }

  /** Whether {@code rel} stops reading its input after a number of rows (a LIMIT, no ORDER BY). */
  private static boolean stops(RelNode rel) {
    if (rel instanceof org.apache.calcite.adapter.enumerable.EnumerableLimit limit) {
      return limit.fetch != null;
    }
    return rel instanceof org.apache.calcite.rel.core.Sort sort
        && sort.fetch != null
        && sort.getCollation().getFieldCollations().isEmpty();
  }

  /** Whether {@code rel} passes its input's rows on one at a time (a projection, a filter). */
  private static boolean streams(RelNode rel) {
    return rel instanceof org.apache.calcite.rel.core.Project
        || rel instanceof org.apache.calcite.rel.core.Filter
        || rel instanceof org.apache.calcite.rel.core.Calc;
  }

  private static void check(
      RelNode rel, boolean limited, @Nullable SqlNode statement, long timeout, boolean[] lazy) {
    if (rel instanceof org.apache.calcite.plan.volcano.RelSubset subset) {
      RelNode best = subset.getBest() != null ? subset.getBest() : subset.getOriginal();
      if (best != null) {
        check(best, limited, statement, timeout, lazy);
      }
      return;
    }
    if (rel instanceof BridgeTableScan scan) {
      TableStorage storage = scan.bridgeTable().storage();
      String name = String.join(".", scan.getTable().getQualifiedName());
      String simple = scan.bridgeTable().def().name();
      if (storage instanceof ConnectorRoles roles) {
        ConnectorRoles.Refusal refusal = roles.sourceRefusal(name);
        if (refusal != null) {
          throw new PositionedException(
              refusal.kind(), refusal.message(), position(statement, simple));
        }
      }
      if (storage instanceof DataGen gen && gen.unbounded() && scan.limit() == null) {
        if (limited) {
          lazy[0] = true;
        } else if (timeout <= 0) {
          throw new PositionedException(
              io.calcitebridge.errors.ErrorKind.UNSUPPORTED,
              "Table '"
                  + name
                  + "' is unbounded (connector 'datagen' without 'number-of-rows' or a sequence"
                  + " field): a query reads it only up to a LIMIT over its rows (SELECT ... FROM "
                  + simple
                  + " [WHERE ...] LIMIT n) or under a timeout (SET 'execution.timeout' = '10 s')",
              position(statement, simple));
        }
      }
      return;
    }
    boolean below = stops(rel) || (limited && streams(rel));
    for (RelNode input : rel.getInputs()) {
      check(input, below, statement, timeout, lazy);
    }
  }

  /** Whether {@code rel} reads an unbounded table (a datagen table without an end). */
  static boolean readsUnbounded(RelNode rel) {
    if (rel instanceof org.apache.calcite.plan.volcano.RelSubset subset) {
      RelNode best = subset.getBest() != null ? subset.getBest() : subset.getOriginal();
      return best != null && readsUnbounded(best);
    }
    if (rel instanceof BridgeTableScan scan) {
      return scan.bridgeTable().storage() instanceof DataGen gen && gen.unbounded();
    }
    for (RelNode input : rel.getInputs()) {
      if (readsUnbounded(input)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Fails when a table {@code rel} reads has options its connector refused (checked at use, as
   * Flink's factories check them): EXPLAIN's check, as a query's and an INSERT's are their reads.
   */
  static void checkDeclared(RelNode rel, @Nullable SqlNode statement) {
    if (rel instanceof org.apache.calcite.plan.volcano.RelSubset subset) {
      RelNode best = subset.getBest() != null ? subset.getBest() : subset.getOriginal();
      if (best != null) {
        checkDeclared(best, statement);
      }
      return;
    }
    if (rel instanceof BridgeTableScan scan) {
      if (scan.bridgeTable().storage()
          instanceof io.calcitebridge.connector.BuiltinConnectors.Invalid invalid) {
        throw new PositionedException(
            ErrorKind.VALIDATION,
            invalid.message(),
            position(statement, scan.bridgeTable().def().name()));
      }
      return;
    }
    for (RelNode input : rel.getInputs()) {
      checkDeclared(input, statement);
    }
  }

  /** Checks that the table {@code name} (as {@code storage} holds it) may be written. */
  static void checkWrite(
      TableStorage storage, String name, String simple, @Nullable SqlNode statement) {
    if (storage instanceof ConnectorRoles roles) {
      ConnectorRoles.Refusal refusal = roles.sinkRefusal(name);
      if (refusal != null) {
        throw new PositionedException(
            refusal.kind(), refusal.message(), position(statement, simple));
      }
    }
  }

  /** Where the statement names the table {@code simple}: its first such identifier. */
  static SqlParserPos position(@Nullable SqlNode statement, String simple) {
    if (statement == null) {
      return SqlParserPos.ZERO;
    }
    SqlParserPos[] found = new SqlParserPos[1];
    try {
      statement.accept(
          new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlIdentifier id) {
              if (found[0] == null && id.names.get(id.names.size() - 1).equals(simple)) {
                found[0] = id.getParserPosition();
              }
              return null;
            }
          });
    } catch (RuntimeException e) {
      // a node the visitor cannot walk: the statement's own position
    }
    return found[0] != null ? found[0] : statement.getParserPosition();
  }
}

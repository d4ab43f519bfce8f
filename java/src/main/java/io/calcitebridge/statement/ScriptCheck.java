package io.calcitebridge.statement;

import org.apache.calcite.rel.type.RelDataType;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * What a script's dry run did with one statement ({@link StatementExecutor#check}): {@code ran} a
 * definition, {@code validated} (and planned) a statement that reads or writes data without running
 * it, or {@code skipped} one it cannot check before the script runs. {@code rowType}: a query's
 * columns; {@code plan}: a query's or a data change's plan when asked for, or an EXPLAIN's text.
 */
public record ScriptCheck(String outcome, @Nullable RelDataType rowType, @Nullable String plan) {
  static ScriptCheck ran(@Nullable String shown) {
    return new ScriptCheck("ran", null, shown);
  }

  static ScriptCheck validated(@Nullable RelDataType rowType, @Nullable String plan) {
    return new ScriptCheck("validated", rowType, plan);
  }

  static ScriptCheck skipped() {
    return new ScriptCheck("skipped", null, null);
  }
}

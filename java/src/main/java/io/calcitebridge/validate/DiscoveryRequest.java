package io.calcitebridge.validate;

import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.sql.SqlIdentifier;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Thrown by the validator when a column name resolves nowhere: the planner asks the tables in scope
 * for it (field discovery) and validates again, or reports {@link #original()}.
 */
public final class DiscoveryRequest extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final transient SqlIdentifier identifier;
  private final @Nullable String qualifier;
  private final CalciteContextException original;

  DiscoveryRequest(
      SqlIdentifier identifier, @Nullable String qualifier, CalciteContextException original) {
    super(original.getMessage(), null, false, false);
    this.identifier = identifier;
    this.qualifier = qualifier;
    this.original = original;
  }

  /** For {@code t.x}, the table name or alias {@code t}; null for an unqualified name. */
  public @Nullable String qualifier() {
    return qualifier;
  }

  /** The column name that did not resolve. */
  public String name() {
    return identifier.getSimple();
  }

  /** The "not found" error to report when no table has the column. */
  public CalciteContextException original() {
    return original;
  }
}

package io.calcitebridge.errors;

/** A table source failed, or broke the source contract. */
public final class SourceException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final boolean contract;
  private final String sourceTraceback;

  public SourceException(String message, boolean contract, String sourceTraceback) {
    super(message);
    this.contract = contract;
    this.sourceTraceback = sourceTraceback == null ? "" : sourceTraceback;
  }

  /** Whether the source broke the contract (lost or invented a filter, ...). */
  public boolean isContractViolation() {
    return contract;
  }

  /** The source's own traceback (Python's, for a Python source), or "". */
  public String sourceTraceback() {
    return sourceTraceback;
  }
}

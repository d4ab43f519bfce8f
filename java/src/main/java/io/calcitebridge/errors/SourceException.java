package io.calcitebridge.errors;

/** A table source failed, broke the source contract, or was refused by the sandbox. */
public final class SourceException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final ErrorKind kind;
  private final String sourceTraceback;

  public SourceException(String message, boolean contract, String sourceTraceback) {
    this(message, contract ? ErrorKind.SOURCE_CONTRACT : ErrorKind.SOURCE, sourceTraceback);
  }

  /**
   * A failure of {@code kind}: {@code SOURCE}, {@code SOURCE_CONTRACT}, {@code ACCESS}, or {@code
   * CONFIG} for a table's options that cannot work (a path that does not exist, ...).
   */
  public SourceException(String message, ErrorKind kind, String sourceTraceback) {
    super(message);
    this.kind = kind;
    this.sourceTraceback = sourceTraceback == null ? "" : sourceTraceback;
  }

  /** Whether the source broke the contract (lost or invented a filter, ...). */
  public boolean isContractViolation() {
    return kind == ErrorKind.SOURCE_CONTRACT;
  }

  /**
   * {@code SOURCE}, {@code SOURCE_CONTRACT}, {@code ACCESS} for a sandbox refusal, or {@code
   * CONFIG}.
   */
  public ErrorKind kind() {
    return kind;
  }

  /** The source's own traceback (Python's, for a Python source), or "". */
  public String sourceTraceback() {
    return sourceTraceback;
  }
}

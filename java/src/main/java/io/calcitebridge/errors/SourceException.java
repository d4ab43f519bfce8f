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

  /**
   * Source {@code source} failed with {@code t} while its rows were read; a source error stays as
   * it is.
   */
  public static SourceException whileReading(String source, Throwable t) {
    if (t instanceof SourceException) {
      return (SourceException) t;
    }
    BridgeError carried = null;
    for (Throwable c = t;
        c != null && carried == null;
        c = c.getCause() == c ? null : c.getCause()) {
      carried = StreamFailure.decode(c.getMessage());
    }
    String message =
        carried != null
            ? carried.getMessage()
            : t.getMessage() == null || t.getMessage().isBlank()
                ? "its reader stopped"
                : t.getMessage().strip().lines().findFirst().orElse("");
    return new SourceException(
        "Source '" + source + "' failed while it was read: " + message,
        false,
        carried == null ? "" : carried.detail());
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

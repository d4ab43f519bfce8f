package io.calcitebridge.errors;

/** A catalog operation failed: a name exists already, or is not there. */
public final class CatalogException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public CatalogException(String message) {
    super(message);
  }
}

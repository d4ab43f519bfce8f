package io.calcitebridge.errors;

/** A configuration key or value is not valid. */
public final class ConfigException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public ConfigException(String message) {
    super(message);
  }
}

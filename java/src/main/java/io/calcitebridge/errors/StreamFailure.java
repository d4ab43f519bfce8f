package io.calcitebridge.errors;

import java.io.IOException;

/**
 * A failure that happened while rows streamed, carried across the Arrow C Data Interface.
 *
 * <p>The interface passes only the text of an error ({@code get_last_error}), which Arrow Java
 * fills with the exception's stack trace. This exception has no stack trace and no cause, and its
 * text is the translated failure in {@link CarriedError}'s form, so the consumer (Python, or {@link
 * Errors#translate} in the JVM) raises the same typed error. Made by {@link Errors#forStream}.
 */
public final class StreamFailure extends IOException {
  private static final long serialVersionUID = 1L;

  private final transient BridgeError error;

  StreamFailure(BridgeError error) {
    super(error.getMessage());
    this.error = error;
  }

  /** The translated failure. */
  public BridgeError error() {
    return error;
  }

  @Override
  public synchronized Throwable fillInStackTrace() {
    return this;
  }

  @Override
  public String toString() {
    return CarriedError.encode(error);
  }
}

package io.calcitebridge.translate;

/**
 * A backend cannot run a plan with exactly the reference's semantics: names the construct. Under
 * {@code auto} the statement then runs on Calcite's engine; under an explicit backend it fails with
 * this message (kind {@code UNSUPPORTED}).
 */
public final class Refusal extends UnsupportedOperationException {
  private static final long serialVersionUID = 1L;

  private final String construct;

  public Refusal(String backend, String construct) {
    super("The " + backend + " backend cannot run " + construct);
    this.construct = construct;
  }

  /** What was refused, as a user reads it: {@code the function SOUNDEX}, {@code a correlate}. */
  public String construct() {
    return construct;
  }
}

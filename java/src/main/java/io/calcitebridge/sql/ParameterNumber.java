package io.calcitebridge.sql;

import java.math.BigDecimal;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The numeric literal a query parameter's value is bound as ({@code statement/Parameters}): typed
 * as a literal of the value is ({@code 5} an INT, {@code 1.5} a DOUBLE for a float), and known to
 * the validator as a parameter's, which a column of a narrower type takes when the value fits (an
 * {@code int} into a {@code TINYINT} column), as a driver's parameter is taken, where the literal
 * text is refused as in Flink.
 */
public final class ParameterNumber extends SqlNumericLiteral {
  private final int number;

  private ParameterNumber(
      BigDecimal value,
      @Nullable Integer prec,
      @Nullable Integer scale,
      boolean exact,
      int number,
      SqlParserPos pos) {
    super(value, prec, scale, exact, pos);
    this.number = number;
  }

  /** Parameter {@code number}'s (1-based) value {@code literal}, at its placeholder. */
  public static ParameterNumber of(SqlNumericLiteral literal, int number) {
    return new ParameterNumber(
        java.util.Objects.requireNonNull(literal.bigDecimalValue()),
        literal.getPrec(),
        literal.getScale(),
        literal.isExact(),
        number,
        literal.getParserPosition());
  }

  /** The parameter's number, 1-based. */
  public int number() {
    return number;
  }

  @Override
  public ParameterNumber clone(SqlParserPos pos) {
    return new ParameterNumber(
        java.util.Objects.requireNonNull(bigDecimalValue()),
        getPrec(),
        getScale(),
        isExact(),
        number,
        pos);
  }
}

package io.calcitebridge.sql;

import java.util.Arrays;
import java.util.List;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The operator of one of our statement or column nodes. {@link #createCall} rebuilds a node of the
 * same class from the operands that {@code getOperandList()} returns, so that {@code clone} and
 * {@code SqlShuttle} keep the class and every flag.
 */
public final class BridgeOperator extends SqlSpecialOperator {
  /** Builds a node from its position and operands. */
  @FunctionalInterface
  public interface Factory {
    /** Creates the node; {@code operands} is in getOperandList() order. */
    SqlCall create(SqlParserPos pos, List<@Nullable SqlNode> operands);
  }

  private final Factory factory;

  /** Creates an operator with the given name, kind and node factory. */
  public BridgeOperator(String name, SqlKind kind, Factory factory) {
    super(name, kind);
    this.factory = factory;
  }

  @Override
  public SqlCall createCall(
      @Nullable SqlLiteral functionQualifier, SqlParserPos pos, @Nullable SqlNode... operands) {
    return factory.create(pos, Arrays.asList(operands));
  }

  /** Encodes a flag as an operand. */
  static SqlLiteral flag(boolean value) {
    return SqlLiteral.createBoolean(value, SqlParserPos.ZERO);
  }

  /** Encodes an optional flag as an operand (null when absent). */
  static @Nullable SqlLiteral flag(@Nullable Boolean value) {
    return value == null ? null : flag(value.booleanValue());
  }

  /** Encodes the scope of an ALTER (SYSTEM, SESSION or null) as an operand. */
  static @Nullable SqlNode scopeOperand(@Nullable String scope) {
    return scope == null ? null : new SqlIdentifier(scope, SqlParserPos.ZERO);
  }

  /** Decodes a scope operand. */
  static @Nullable String scopeOf(@Nullable SqlNode operand) {
    return operand == null ? null : ((SqlIdentifier) operand).getSimple();
  }

  /** Decodes a flag operand. */
  static boolean isTrue(@Nullable SqlNode operand) {
    return operand instanceof SqlLiteral
        && Boolean.TRUE.equals(((SqlLiteral) operand).getValueAs(Boolean.class));
  }

  /** Decodes an optional flag operand. */
  static @Nullable Boolean optionalFlag(@Nullable SqlNode operand) {
    return operand == null ? null : isTrue(operand);
  }
}

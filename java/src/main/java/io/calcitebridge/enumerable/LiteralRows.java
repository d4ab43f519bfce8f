package io.calcitebridge.enumerable;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The rows of a large {@code VALUES} as data instead of code or SQL text: each value as Calcite's
 * engine holds it ({@code DATE} as days, {@code TIMESTAMP} as milliseconds, ...). Long {@code IN}
 * lists become such a {@code VALUES}; written literal by literal, ten thousand of them did not
 * compile on Calcite's engine, and a hundred thousand took DuckDB minutes to parse.
 */
public final class LiteralRows {
  /** From this many rows on, a {@code VALUES} is handed over as data. */
  public static final int MIN_ROWS = 64;

  private LiteralRows() {}

  /**
   * The rows of {@code values} when it has at least {@link #MIN_ROWS} rows, every column has a type
   * listed in {@link #javaClass} and every literal its column's type; else null.
   */
  public static @Nullable List<@Nullable Object[]> of(Values values) {
    if (values.getTuples().size() < MIN_ROWS) {
      return null;
    }
    List<RelDataTypeField> fields = values.getRowType().getFieldList();
    Class<?>[] classes = new Class<?>[fields.size()];
    for (int i = 0; i < classes.length; i++) {
      Class<?> javaClass = javaClass(fields.get(i).getType());
      if (javaClass == null) {
        return null;
      }
      classes[i] = javaClass;
    }
    List<@Nullable Object[]> rows = new ArrayList<>(values.getTuples().size());
    for (List<RexLiteral> tuple : values.getTuples()) {
      @Nullable Object[] row = new Object[classes.length];
      for (int i = 0; i < row.length; i++) {
        RexLiteral literal = tuple.get(i);
        if (literal.isNull()) {
          continue;
        }
        if (!SqlTypeUtil.equalSansNullability(literal.getType(), fields.get(i).getType())) {
          return null;
        }
        row[i] = literal.getValueAs(classes[i]);
      }
      rows.add(row);
    }
    return rows;
  }

  /** The class Calcite's engine holds a value of {@code type} in, or null for another type. */
  private static @Nullable Class<?> javaClass(RelDataType type) {
    return switch (type.getSqlTypeName()) {
      case BOOLEAN -> Boolean.class;
      case TINYINT -> Byte.class;
      case SMALLINT -> Short.class;
      case INTEGER, DATE -> Integer.class;
        // Milliseconds: a finer literal keeps its own code.
      case TIMESTAMP -> type.getPrecision() <= 3 ? Long.class : null;
      case BIGINT -> Long.class;
      case DECIMAL -> BigDecimal.class;
      case REAL -> Float.class;
      case FLOAT, DOUBLE -> Double.class;
      case CHAR, VARCHAR -> String.class;
      case BINARY, VARBINARY -> ByteString.class;
      default -> null;
    };
  }
}

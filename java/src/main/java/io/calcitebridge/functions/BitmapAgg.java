package io.calcitebridge.functions;

import java.util.List;
import org.apache.calcite.adapter.enumerable.AggAddContext;
import org.apache.calcite.adapter.enumerable.AggContext;
import org.apache.calcite.adapter.enumerable.AggResultContext;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperandCountRange;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.SqlOperandTypeChecker;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlUserDefinedAggFunction;
import org.apache.calcite.util.Optionality;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Flink's bitmap aggregates: {@code BITMAP_BUILD_AGG(int)} (the bitmap of a group's integers) and
 * {@code BITMAP_AND_AGG}, {@code BITMAP_OR_AGG}, {@code BITMAP_XOR_AGG} of bitmaps, each also as
 * {@code ..._CARDINALITY_AGG}, the number of integers of that bitmap ({@code BIGINT}). NULL
 * arguments are left out; a group without any gives NULL (see {@link BitmapFunctions} for how a
 * bitmap is held).
 */
final class BitmapAgg extends SqlUserDefinedAggFunction {
  /** How the values of a group combine. */
  public enum Mode {
    BUILD,
    AND,
    OR,
    XOR
  }

  private final SqlOperandTypeChecker operands;

  private BitmapAgg(String name, Mode mode, boolean cardinality) {
    super(
        new SqlIdentifier(name, SqlParserPos.ZERO),
        SqlKind.OTHER_FUNCTION,
        b -> {
          RelDataTypeFactory f = b.getTypeFactory();
          return f.createTypeWithNullability(
              cardinality
                  ? f.createSqlType(SqlTypeName.BIGINT)
                  : io.calcitebridge.types.BitmapType.of(f, false),
              true);
        },
        null,
        null,
        new Impl(mode, cardinality),
        false,
        false,
        Optionality.FORBIDDEN);
    this.operands = mode == Mode.BUILD ? OperandTypes.INTEGER : BitmapFunctions.bitmaps(1);
  }

  static final List<SqlUserDefinedAggFunction> ALL =
      List.of(
          new BitmapAgg("BITMAP_BUILD_AGG", Mode.BUILD, false),
          new BitmapAgg("BITMAP_BUILD_CARDINALITY_AGG", Mode.BUILD, true),
          new BitmapAgg("BITMAP_AND_AGG", Mode.AND, false),
          new BitmapAgg("BITMAP_AND_CARDINALITY_AGG", Mode.AND, true),
          new BitmapAgg("BITMAP_OR_AGG", Mode.OR, false),
          new BitmapAgg("BITMAP_OR_CARDINALITY_AGG", Mode.OR, true),
          new BitmapAgg("BITMAP_XOR_AGG", Mode.XOR, false),
          new BitmapAgg("BITMAP_XOR_CARDINALITY_AGG", Mode.XOR, true));

  @Override
  public SqlOperandCountRange getOperandCountRange() {
    return operands.getOperandCountRange();
  }

  @Override
  public boolean checkOperandTypes(SqlCallBinding callBinding, boolean throwOnFailure) {
    return operands.checkOperandTypes(callBinding, throwOnFailure);
  }

  @Override
  public String getAllowedSignatures(String opNameToUse) {
    return operands.getAllowedSignatures(this, opNameToUse);
  }

  /**
   * The bitmap of a group so far. {@code BUILD}, {@code OR} and {@code XOR} append the values to a
   * buffer and combine them once, at the end (sorted: a value in the union, or in an odd number of
   * the bitmaps); {@code AND} intersects as it goes, which only shrinks the set.
   */
  public static final class Acc {
    private final Mode mode;
    private long[] buffer = new long[16];
    private int size;
    private boolean any;

    public Acc(Mode mode) {
      this.mode = mode;
    }

    public void add(@Nullable Object value) {
      if (value == null) {
        return;
      }
      long[] v =
          value instanceof ByteString b
              ? BitmapFunctions.values(b)
              : new long[] {Integer.toUnsignedLong(((Number) value).intValue())};
      if (mode == Mode.AND && any) {
        long[] and = BitmapFunctions.and(java.util.Arrays.copyOf(buffer, size), v);
        buffer = and;
        size = and.length;
        return;
      }
      any = true;
      if (size + v.length > buffer.length) {
        buffer = java.util.Arrays.copyOf(buffer, Math.max(2 * buffer.length, size + v.length));
      }
      System.arraycopy(v, 0, buffer, size, v.length);
      size += v.length;
    }

    private long @Nullable [] values() {
      if (!any) {
        return null;
      }
      long[] v = java.util.Arrays.copyOf(buffer, size);
      if (mode != Mode.XOR) {
        return BitmapFunctions.sorted(v);
      }
      java.util.Arrays.sort(v);
      long[] odd = new long[v.length];
      int n = 0;
      for (int i = 0; i < v.length; ) {
        int j = i;
        while (j < v.length && v[j] == v[i]) {
          j++;
        }
        if ((j - i) % 2 == 1) {
          odd[n++] = v[i];
        }
        i = j;
      }
      return java.util.Arrays.copyOf(odd, n);
    }

    public @Nullable ByteString bitmap() {
      long[] v = values();
      return v == null ? null : BitmapFunctions.bytes(v);
    }

    public @Nullable Long cardinality() {
      long[] v = values();
      return v == null ? null : (long) v.length;
    }
  }

  private static final class Impl extends AccumulatorAgg {
    private final Mode mode;
    private final boolean cardinality;

    Impl(Mode mode, boolean cardinality) {
      super(Acc.class);
      this.mode = mode;
      this.cardinality = cardinality;
    }

    @Override
    Expression newAccumulator() {
      return Expressions.new_(Acc.class, Expressions.constant(mode));
    }

    @Override
    void add(AggContext info, AggAddContext add) {
      add.currentBlock()
          .add(
              Expressions.statement(
                  Expressions.call(
                      add.accumulator().get(0),
                      "add",
                      Expressions.convert_(
                          Expressions.box(add.arguments().get(0)), Object.class))));
    }

    @Override
    public Expression implementResult(AggContext info, AggResultContext result) {
      return Expressions.call(result.accumulator().get(0), cardinality ? "cardinality" : "bitmap");
    }
  }
}

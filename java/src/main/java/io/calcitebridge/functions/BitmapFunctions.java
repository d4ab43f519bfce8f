package io.calcitebridge.functions;

import static io.calcitebridge.functions.Fn.Nulls.ANY;
import static io.calcitebridge.functions.Fn.of;
import static io.calcitebridge.functions.Fn.strict;
import static io.calcitebridge.functions.Fn.string;

import io.calcitebridge.types.BitmapType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlOperandCountRange;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.SqlOperandCountRanges;
import org.apache.calcite.sql.type.SqlOperandTypeChecker;
import org.apache.calcite.sql.type.SqlReturnTypeInference;
import org.apache.calcite.sql.type.SqlTypeName;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Flink's {@code BITMAP_*} functions over sets of unsigned 32-bit integers. A {@code BITMAP} is a
 * type of its own ({@link BitmapType}), which these functions take ({@code BITMAP_FROM_BYTES} takes
 * {@code BYTES}); its value is held, and crosses to Arrow, as its portable RoaringBitmap
 * serialization, the bytes Flink's {@code BITMAP_TO_BYTES} gives (array, bitmap or run containers,
 * see {@link #bytes}), so {@code BITMAP_TO_BYTES} and {@code BITMAP_FROM_BYTES} give Flink's bytes
 * and read them (run containers too). The integers are ordered as unsigned: {@code -1} is
 * 4294967295 and comes last. The aggregates are in {@link BitmapAgg}.
 */
public final class BitmapFunctions {
  private BitmapFunctions() {}

  private static final Class<?> C = BitmapFunctions.class;

  /** Flink's {@code BITMAP}, held as its serialization. */
  static SqlReturnTypeInference bitmap(Fn.Nulls nulls) {
    return Fn.type(f -> BitmapType.of(f, false), nulls);
  }

  /**
   * {@code n} operands, each a {@code BITMAP} (or an untyped NULL); {@code BYTES} are refused, as
   * in Flink ({@code BITMAP_FROM_BYTES} makes a bitmap of them).
   */
  static SqlOperandTypeChecker bitmaps(int n) {
    return new SqlOperandTypeChecker() {
      @Override
      public boolean checkOperandTypes(SqlCallBinding b, boolean throwOnFailure) {
        for (int i = 0; i < b.getOperandCount(); i++) {
          RelDataType t = b.getOperandType(i);
          if (!BitmapType.is(t) && t.getSqlTypeName() != SqlTypeName.NULL) {
            if (throwOnFailure) {
              throw b.newValidationSignatureError();
            }
            return false;
          }
        }
        return true;
      }

      @Override
      public SqlOperandCountRange getOperandCountRange() {
        return SqlOperandCountRanges.of(n);
      }

      @Override
      public String getAllowedSignatures(SqlOperator op, String opName) {
        return opName + "(" + String.join(", ", java.util.Collections.nCopies(n, "<BITMAP>")) + ")";
      }
    };
  }

  /** {@code BYTES}, not a {@code BITMAP}. */
  private static final SqlOperandTypeChecker BYTES =
      new SqlOperandTypeChecker() {
        @Override
        public boolean checkOperandTypes(SqlCallBinding b, boolean throwOnFailure) {
          if (BitmapType.is(b.getOperandType(0))) {
            if (throwOnFailure) {
              throw b.newValidationSignatureError();
            }
            return false;
          }
          return OperandTypes.BINARY.checkOperandTypes(b, throwOnFailure);
        }

        @Override
        public SqlOperandCountRange getOperandCountRange() {
          return SqlOperandCountRanges.of(1);
        }

        @Override
        public String getAllowedSignatures(SqlOperator op, String opName) {
          return opName + "(<BYTES>)";
        }
      };

  private static SqlOperator binary(String name, String method) {
    return strict(name, bitmap(ANY), bitmaps(2), C, method);
  }

  public static final SqlOperator BITMAP_BUILD =
      strict("BITMAP_BUILD", bitmap(ANY), OperandTypes.ARRAY, C, "build");
  public static final SqlOperator BITMAP_AND = binary("BITMAP_AND", "and");
  public static final SqlOperator BITMAP_OR = binary("BITMAP_OR", "or");
  public static final SqlOperator BITMAP_XOR = binary("BITMAP_XOR", "xor");
  public static final SqlOperator BITMAP_ANDNOT = binary("BITMAP_ANDNOT", "andNot");
  public static final SqlOperator BITMAP_CARDINALITY =
      strict("BITMAP_CARDINALITY", of(SqlTypeName.BIGINT, ANY), bitmaps(1), C, "cardinality");
  public static final SqlOperator BITMAP_FROM_BYTES =
      strict("BITMAP_FROM_BYTES", bitmap(ANY), BYTES, C, "fromBytes");
  public static final SqlOperator BITMAP_TO_BYTES =
      strict(
          "BITMAP_TO_BYTES",
          Fn.type(f -> f.createSqlType(SqlTypeName.VARBINARY, Integer.MAX_VALUE), ANY),
          bitmaps(1),
          C,
          "toBytes");
  public static final SqlOperator BITMAP_TO_ARRAY =
      strict(
          "BITMAP_TO_ARRAY",
          Fn.type(
              f ->
                  f.createArrayType(
                      f.createTypeWithNullability(f.createSqlType(SqlTypeName.INTEGER), true), -1),
              ANY),
          bitmaps(1),
          C,
          "toArray");
  public static final SqlOperator BITMAP_TO_STRING =
      strict("BITMAP_TO_STRING", string(ANY), bitmaps(1), C, "toText");

  static final List<SqlOperator> ALL =
      List.of(
          BITMAP_BUILD,
          BITMAP_AND,
          BITMAP_OR,
          BITMAP_XOR,
          BITMAP_ANDNOT,
          BITMAP_CARDINALITY,
          BITMAP_FROM_BYTES,
          BITMAP_TO_BYTES,
          BITMAP_TO_ARRAY,
          BITMAP_TO_STRING);

  // ---- the functions ------------------------------------------------------------------------

  public static ByteString build(List<?> array) {
    long[] values = new long[array.size()];
    int n = 0;
    for (Object o : array) {
      if (o != null) {
        values[n++] = Integer.toUnsignedLong(((Number) o).intValue());
      }
    }
    return bytes(sorted(Arrays.copyOf(values, n)));
  }

  public static ByteString and(ByteString a, ByteString b) {
    return bytes(and(values(a), values(b)));
  }

  public static ByteString or(ByteString a, ByteString b) {
    return bytes(or(values(a), values(b)));
  }

  public static ByteString xor(ByteString a, ByteString b) {
    return bytes(xor(values(a), values(b)));
  }

  public static ByteString andNot(ByteString a, ByteString b) {
    return bytes(andNot(values(a), values(b)));
  }

  public static long cardinality(ByteString b) {
    return values(b).length;
  }

  public static ByteString fromBytes(ByteString b) {
    return bytes(values(b));
  }

  public static ByteString toBytes(ByteString b) {
    return b;
  }

  public static List<Integer> toArray(ByteString b) {
    List<Integer> out = new ArrayList<>();
    for (long v : values(b)) {
      out.add((int) v);
    }
    return out;
  }

  public static String toText(ByteString b) {
    StringBuilder s = new StringBuilder("{");
    long[] values = values(b);
    for (int i = 0; i < values.length; i++) {
      s.append(i == 0 ? "" : ",").append(values[i]);
    }
    return s.append('}').toString();
  }

  // ---- sets of unsigned integers: sorted arrays of distinct values in [0, 2^32) ---------------

  static long[] sorted(long[] values) {
    long[] v = values.clone();
    Arrays.sort(v);
    int n = 0;
    for (int i = 0; i < v.length; i++) {
      if (i == 0 || v[i] != v[i - 1]) {
        v[n++] = v[i];
      }
    }
    return Arrays.copyOf(v, n);
  }

  static long[] and(long[] a, long[] b) {
    long[] out = new long[Math.min(a.length, b.length)];
    int i = 0;
    int j = 0;
    int n = 0;
    while (i < a.length && j < b.length) {
      if (a[i] < b[j]) {
        i++;
      } else if (a[i] > b[j]) {
        j++;
      } else {
        out[n++] = a[i];
        i++;
        j++;
      }
    }
    return Arrays.copyOf(out, n);
  }

  static long[] or(long[] a, long[] b) {
    long[] all = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    return sorted(all);
  }

  static long[] andNot(long[] a, long[] b) {
    long[] out = new long[a.length];
    int n = 0;
    int j = 0;
    for (long v : a) {
      while (j < b.length && b[j] < v) {
        j++;
      }
      if (j >= b.length || b[j] != v) {
        out[n++] = v;
      }
    }
    return Arrays.copyOf(out, n);
  }

  static long[] xor(long[] a, long[] b) {
    return or(andNot(a, b), andNot(b, a));
  }

  // ---- the portable RoaringBitmap format ------------------------------------------------------

  private static final int NO_RUN = 12346;
  private static final int WITH_RUNS = 12347;
  private static final int ARRAY_MAX = 4096;

  /**
   * The portable serialization of a set as Flink writes it: each container of 65536 values in its
   * smallest form, as RoaringBitmap's {@code runOptimize} chooses (a run container when its 2 + 4 *
   * runs bytes are fewer than the array's 2 * cardinality or the bitmap's 8192), and the format
   * with run containers only when one is.
   */
  static ByteString bytes(long[] values) {
    List<int[]> containers = new ArrayList<>(); // {key, from, to, kind, runs}
    boolean anyRun = false;
    for (int i = 0; i < values.length; ) {
      int key = (int) (values[i] >>> 16);
      int j = i;
      int runs = 0;
      while (j < values.length && (int) (values[j] >>> 16) == key) {
        if (j == i || values[j] != values[j - 1] + 1) {
          runs++;
        }
        j++;
      }
      int card = j - i;
      int plain = card > ARRAY_MAX ? 8192 : 2 * card;
      int kind = plain > 2 + 4 * runs ? RUN : card > ARRAY_MAX ? BITS : ARRAY;
      anyRun |= kind == RUN;
      containers.add(new int[] {key, i, j, kind, runs});
      i = j;
    }
    int n = containers.size();
    boolean offsets = !anyRun || n >= 4;
    int header = (anyRun ? 4 + (n + 7) / 8 : 8) + 4 * n + (offsets ? 4 * n : 0);
    int size = header;
    for (int[] c : containers) {
      size += size(c);
    }
    ByteBuffer out = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
    if (anyRun) {
      out.putInt(WITH_RUNS | (n - 1) << 16);
      byte[] flags = new byte[(n + 7) / 8];
      for (int k = 0; k < n; k++) {
        if (containers.get(k)[3] == RUN) {
          flags[k / 8] |= (byte) (1 << (k % 8));
        }
      }
      out.put(flags);
    } else {
      out.putInt(NO_RUN).putInt(n);
    }
    for (int[] c : containers) {
      out.putShort((short) c[0]).putShort((short) (c[2] - c[1] - 1));
    }
    if (offsets) {
      int offset = header;
      for (int[] c : containers) {
        out.putInt(offset);
        offset += size(c);
      }
    }
    for (int[] c : containers) {
      if (c[3] == RUN) {
        out.putShort((short) c[4]);
        int k = c[1];
        while (k < c[2]) {
          int e = k;
          while (e + 1 < c[2] && values[e + 1] == values[e] + 1) {
            e++;
          }
          out.putShort((short) (values[k] & 0xFFFF)).putShort((short) (e - k));
          k = e + 1;
        }
      } else if (c[3] == BITS) {
        long[] words = new long[1024];
        for (int k = c[1]; k < c[2]; k++) {
          int low = (int) (values[k] & 0xFFFF);
          words[low >>> 6] |= 1L << (low & 63);
        }
        for (long w : words) {
          out.putLong(w);
        }
      } else {
        for (int k = c[1]; k < c[2]; k++) {
          out.putShort((short) (values[k] & 0xFFFF));
        }
      }
    }
    return new ByteString(out.array());
  }

  private static final int ARRAY = 0;
  private static final int BITS = 1;
  private static final int RUN = 2;

  /** The bytes of a container {@code {key, from, to, kind, runs}}. */
  private static int size(int[] c) {
    return c[3] == RUN ? 2 + 4 * c[4] : c[3] == BITS ? 8192 : 2 * (c[2] - c[1]);
  }

  /** The set a portable serialization holds; an IllegalArgumentException if it holds none. */
  static long[] values(ByteString bytes) {
    try {
      return read(ByteBuffer.wrap(bytes.getBytes()).order(ByteOrder.LITTLE_ENDIAN));
    } catch (RuntimeException e) {
      if (e instanceof IllegalArgumentException) {
        throw e;
      }
      throw new IllegalArgumentException("Invalid bitmap bytes: " + e, e);
    }
  }

  private static long[] read(ByteBuffer in) {
    int cookie = in.getInt();
    int n;
    byte @Nullable [] runs = null;
    if ((cookie & 0xFFFF) == WITH_RUNS) {
      n = (cookie >>> 16) + 1;
      runs = new byte[(n + 7) / 8];
      in.get(runs);
    } else if (cookie == NO_RUN) {
      n = in.getInt();
    } else {
      throw new IllegalArgumentException("Invalid bitmap bytes: unknown cookie " + cookie);
    }
    if (n < 0 || n > 65536) {
      throw new IllegalArgumentException("Invalid bitmap bytes: " + n + " containers");
    }
    int[] keys = new int[n];
    int[] cards = new int[n];
    long total = 0;
    for (int i = 0; i < n; i++) {
      keys[i] = Short.toUnsignedInt(in.getShort());
      cards[i] = Short.toUnsignedInt(in.getShort()) + 1;
      total += cards[i];
    }
    if (runs == null || n >= 4) {
      in.position(in.position() + 4 * n); // the offsets
    }
    long[] out = new long[(int) Math.min(total, Integer.MAX_VALUE - 8)];
    int k = 0;
    for (int i = 0; i < n; i++) {
      long high = (long) keys[i] << 16;
      boolean run = runs != null && (runs[i / 8] & (1 << (i % 8))) != 0;
      if (run) {
        int count = Short.toUnsignedInt(in.getShort());
        for (int r = 0; r < count; r++) {
          int start = Short.toUnsignedInt(in.getShort());
          int length = Short.toUnsignedInt(in.getShort());
          for (int v = start; v <= start + length; v++) {
            out[k++] = high | v;
          }
        }
      } else if (cards[i] > ARRAY_MAX) {
        for (int w = 0; w < 1024; w++) {
          long word = in.getLong();
          while (word != 0) {
            int bit = Long.numberOfTrailingZeros(word);
            out[k++] = high | (w * 64L + bit);
            word &= word - 1;
          }
        }
      } else {
        for (int c = 0; c < cards[i]; c++) {
          out[k++] = high | Short.toUnsignedInt(in.getShort());
        }
      }
    }
    if (in.hasRemaining() || k != out.length) {
      throw new IllegalArgumentException("Invalid bitmap bytes");
    }
    return sorted(out);
  }
}

package io.calcitebridge.dyncol;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * One value of a dynamic-columns blob, typed as the format types it (MariaDB's
 * DYNAMIC_COLUMN_VALUE). {@link #NULL} stands for an absent value.
 */
public final class DynValue {
  /** The stored types, numbered as the format numbers them. */
  public enum Type {
    NULL(0),
    INT(1),
    UINT(2),
    DOUBLE(3),
    STRING(4),
    DECIMAL(5),
    DATETIME(6),
    DATE(7),
    TIME(8),
    DYNCOL(9);

    public final int code;

    Type(int code) {
      this.code = code;
    }

    static Type of(int code) {
      if (code < 1 || code > 9) {
        throw DynColException.format();
      }
      return values()[code];
    }
  }

  /** MariaDB's number of utf8mb4_general_ci, the charset strings are written with. */
  public static final int UTF8MB4 = 45;

  /** MariaDB's number of utf8mb3_general_ci. */
  public static final int UTF8MB3 = 33;

  /** MariaDB's number of the binary charset. */
  public static final int BINARY = 63;

  /** MariaDB's number of latin1_swedish_ci. */
  public static final int LATIN1 = 8;

  public static final DynValue NULL = new DynValue(Type.NULL, null, 0);

  public final Type type;

  /**
   * Long for INT and UINT (UINT as the unsigned bits), Double, byte[] for STRING (in {@link
   * #charset}) and DYNCOL, BigDecimal, DynTime.
   */
  public final Object value;

  /** The MariaDB charset number of a STRING. */
  public final int charset;

  private DynValue(Type type, Object value, int charset) {
    this.type = type;
    this.value = value;
    this.charset = charset;
  }

  public static DynValue ofLong(long v) {
    return new DynValue(Type.INT, v, 0);
  }

  /** An unsigned 64-bit value, given as its bits. */
  public static DynValue ofUnsigned(long bits) {
    return new DynValue(Type.UINT, bits, 0);
  }

  public static DynValue ofDouble(double v) {
    return new DynValue(Type.DOUBLE, v, 0);
  }

  /** A utf8mb4 string. */
  public static DynValue ofString(String s) {
    return new DynValue(Type.STRING, s.getBytes(StandardCharsets.UTF_8), UTF8MB4);
  }

  public static DynValue ofString(byte[] bytes, int charset) {
    return new DynValue(Type.STRING, bytes.clone(), charset);
  }

  /** A string of the binary charset. */
  public static DynValue ofBinary(byte[] bytes) {
    return new DynValue(Type.STRING, bytes.clone(), BINARY);
  }

  public static DynValue ofDecimal(BigDecimal v) {
    return new DynValue(Type.DECIMAL, v, 0);
  }

  public static DynValue ofTime(DynTime t) {
    Type type =
        t.kind == DynTime.Kind.DATE
            ? Type.DATE
            : t.kind == DynTime.Kind.TIME ? Type.TIME : Type.DATETIME;
    return new DynValue(type, t, 0);
  }

  /** A nested dynamic-columns blob. */
  public static DynValue ofDynCol(byte[] blob) {
    return new DynValue(Type.DYNCOL, blob.clone(), 0);
  }

  public boolean isNull() {
    return type == Type.NULL;
  }

  public long longValue() {
    return (Long) value;
  }

  public BigInteger unsignedValue() {
    long bits = (Long) value;
    BigInteger b = BigInteger.valueOf(bits & Long.MAX_VALUE);
    return bits < 0 ? b.setBit(63) : b;
  }

  public byte[] bytes() {
    return ((byte[]) value).clone();
  }

  /** The Java charset a STRING's bytes decode with. */
  public static Charset javaCharset(int number) {
    switch (number) {
      case LATIN1:
      case 5:
      case 31:
      case 47:
      case 48:
      case 49:
      case 94:
        return StandardCharsets.ISO_8859_1;
      case 11:
      case 65:
        return StandardCharsets.US_ASCII;
      default:
        return StandardCharsets.UTF_8;
    }
  }

  /** The text of a STRING (decoded from its charset; binary bytes decode as UTF-8). */
  public String text() {
    return new String((byte[]) value, javaCharset(charset));
  }

  /** The text MariaDB shows for a stored value (COLUMN_JSON's and AS CHAR's rendering). */
  String toText() {
    switch (type) {
      case INT:
        return Long.toString(longValue());
      case UINT:
        return Long.toUnsignedString(longValue());
      case DOUBLE:
        return formatDouble((Double) value);
      case STRING:
        return text();
      case DECIMAL:
        return ((BigDecimal) value).toPlainString();
      case DATE:
      case TIME:
      case DATETIME:
        return value.toString();
      case DYNCOL:
        return new String((byte[]) value, StandardCharsets.ISO_8859_1);
      default:
        return null;
    }
  }

  /**
   * A double as MariaDB's my_gcvt prints it: the shortest digits that read back, in fixed notation
   * unless the decimal exponent passes 15 or the fixed form would not fit in 39 characters.
   */
  static String formatDouble(double x) {
    if (x == 0) {
      return (1 / x < 0) ? "-0" : "0";
    }
    if (Double.isNaN(x) || Double.isInfinite(x)) {
      return Double.isNaN(x) ? "nan" : x > 0 ? "inf" : "-inf";
    }
    boolean neg = x < 0;
    BigDecimal bd = new BigDecimal(Double.toString(Math.abs(x))).stripTrailingZeros();
    String digits = bd.unscaledValue().toString();
    int len = digits.length();
    int decpt = len - bd.scale();
    int width = neg ? 38 : 39;
    boolean fixed;
    if (decpt <= 0) {
      fixed = len - decpt + 2 <= width;
    } else {
      fixed = decpt <= 15;
    }
    StringBuilder b = new StringBuilder();
    if (neg) {
      b.append('-');
    }
    if (fixed) {
      if (decpt <= 0) {
        b.append("0.").append("0".repeat(-decpt)).append(digits);
      } else if (decpt < len) {
        b.append(digits, 0, decpt).append('.').append(digits.substring(decpt));
      } else {
        b.append(digits).append("0".repeat(decpt - len));
      }
    } else {
      b.append(digits.charAt(0));
      if (len > 1) {
        b.append('.').append(digits.substring(1));
      }
      b.append('e').append(decpt - 1);
    }
    return b.toString();
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof DynValue)) {
      return false;
    }
    DynValue d = (DynValue) o;
    if (type != d.type || charset != d.charset) {
      return false;
    }
    if (value instanceof byte[]) {
      return Arrays.equals((byte[]) value, (byte[]) d.value);
    }
    return Objects.equals(value, d.value);
  }

  @Override
  public int hashCode() {
    return value instanceof byte[]
        ? Arrays.hashCode((byte[]) value)
        : Objects.hash(type, value, charset);
  }

  @Override
  public String toString() {
    return type + ":" + (type == Type.NULL ? "" : toText());
  }
}

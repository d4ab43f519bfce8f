package io.calcitebridge.functions;

import static io.calcitebridge.functions.Fn.strict;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.SqlReturnTypeInference;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Flink's hash functions: the lower-case hexadecimal digest of a string's UTF-8 bytes, or of the
 * bytes of a {@code BYTES} (or {@code BINARY(n)}) argument, typed {@code CHAR(n)} for the fixed
 * ones and {@code VARCHAR(128)} for {@code SHA2}.
 */
public final class HashFunctions {
  private HashFunctions() {}

  private static final Class<?> C = HashFunctions.class;

  private static SqlReturnTypeInference chars(SqlTypeName name, int n) {
    return Fn.type(f -> f.createSqlType(name, n), Fn.Nulls.ANY);
  }

  private static SqlOperator digest(String name, int hexDigits, String method) {
    return strict(
        name,
        chars(SqlTypeName.CHAR, hexDigits),
        OperandTypes.or(OperandTypes.CHARACTER, OperandTypes.BINARY),
        C,
        method);
  }

  public static final SqlOperator MD5 = digest("MD5", 32, "md5");
  public static final SqlOperator SHA1 = digest("SHA1", 40, "sha1");
  public static final SqlOperator SHA224 = digest("SHA224", 56, "sha224");
  public static final SqlOperator SHA256 = digest("SHA256", 64, "sha256");
  public static final SqlOperator SHA384 = digest("SHA384", 96, "sha384");
  public static final SqlOperator SHA512 = digest("SHA512", 128, "sha512");
  public static final SqlOperator SHA2 =
      strict(
          "SHA2",
          chars(SqlTypeName.VARCHAR, 128),
          OperandTypes.or(
              OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.INTEGER),
              OperandTypes.family(SqlTypeFamily.BINARY, SqlTypeFamily.INTEGER)),
          C,
          "sha2");

  static final List<SqlOperator> ALL = List.of(MD5, SHA1, SHA224, SHA256, SHA384, SHA512, SHA2);

  private static String hash(String algorithm, String s) {
    return hash(algorithm, s.getBytes(StandardCharsets.UTF_8));
  }

  private static String hash(String algorithm, byte[] bytes) {
    try {
      MessageDigest d = MessageDigest.getInstance(algorithm);
      return HexFormat.of().formatHex(d.digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  // The digests of BYTES: Fn picks these for an operand that is not a character string.

  public static String md5(ByteString b) {
    return hash("MD5", b.getBytes());
  }

  public static String sha1(ByteString b) {
    return hash("SHA-1", b.getBytes());
  }

  public static String sha224(ByteString b) {
    return hash("SHA-224", b.getBytes());
  }

  public static String sha256(ByteString b) {
    return hash("SHA-256", b.getBytes());
  }

  public static String sha384(ByteString b) {
    return hash("SHA-384", b.getBytes());
  }

  public static String sha512(ByteString b) {
    return hash("SHA-512", b.getBytes());
  }

  public static String sha2(ByteString b, int bits) {
    return sha2(b.getBytes(), bits);
  }

  public static String md5(String s) {
    return hash("MD5", s);
  }

  public static String sha1(String s) {
    return hash("SHA-1", s);
  }

  public static String sha224(String s) {
    return hash("SHA-224", s);
  }

  public static String sha256(String s) {
    return hash("SHA-256", s);
  }

  public static String sha384(String s) {
    return hash("SHA-384", s);
  }

  public static String sha512(String s) {
    return hash("SHA-512", s);
  }

  /** SHA-2 of 224, 256, 384 or 512 bits; any other length is an error, as in Flink. */
  public static String sha2(String s, int bits) {
    return sha2(s.getBytes(StandardCharsets.UTF_8), bits);
  }

  private static String sha2(byte[] bytes, int bits) {
    switch (bits) {
      case 224:
      case 256:
      case 384:
      case 512:
        return hash("SHA-" + bits, bytes);
      default:
        throw new IllegalArgumentException(
            "SHA2: unsupported hash length " + bits + "; expected 224, 256, 384 or 512");
    }
  }
}

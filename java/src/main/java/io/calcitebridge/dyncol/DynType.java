package io.calcitebridge.dyncol;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A MariaDB dynamic-column type name as written after {@code AS}: {@code INT}, {@code UNSIGNED
 * [INT]}, {@code CHAR[(n)]}, {@code BINARY[(n)]}, {@code DECIMAL[(m[,d])]}, {@code DOUBLE}, {@code
 * DATE}, {@code TIME[(d)]}, {@code DATETIME[(d)]}.
 */
public final class DynType {
  /** The kinds of target type. */
  public enum Kind {
    INT,
    UNSIGNED,
    DOUBLE,
    DECIMAL,
    CHAR,
    BINARY,
    DATE,
    TIME,
    DATETIME
  }

  public final Kind kind;

  /** Length of CHAR/BINARY, precision of DECIMAL, fraction digits of TIME/DATETIME; -1 if none. */
  public final int length;

  /** Scale of DECIMAL, or -1. */
  public final int scale;

  private DynType(Kind kind, int length, int scale) {
    this.kind = kind;
    this.length = length;
    this.scale = scale;
  }

  private static final Pattern SYNTAX =
      Pattern.compile(
          "\\s*([A-Za-z]+)(?:\\s+([A-Za-z]+))?\\s*(?:\\(\\s*(\\d+)\\s*(?:,\\s*(\\d+)\\s*)?\\))?\\s*");

  /** Parses a type name; throws IllegalArgumentException with MariaDB's wording if unknown. */
  public static DynType parse(String text) {
    Matcher m = SYNTAX.matcher(text);
    if (!m.matches()) {
      throw new IllegalArgumentException("Unknown dynamic column type '" + text + "'");
    }
    String a = m.group(1).toUpperCase(Locale.ROOT);
    String b = m.group(2) == null ? null : m.group(2).toUpperCase(Locale.ROOT);
    int n = m.group(3) == null ? -1 : Integer.parseInt(m.group(3));
    int d = m.group(4) == null ? -1 : Integer.parseInt(m.group(4));
    boolean intWord = b != null && (b.equals("INT") || b.equals("INTEGER"));
    Kind kind = null;
    switch (a) {
      case "INT":
      case "INTEGER":
      case "SIGNED":
        if (b == null || intWord) {
          kind = Kind.INT;
        }
        break;
      case "UNSIGNED":
        if (b == null || intWord) {
          kind = Kind.UNSIGNED;
        }
        break;
      case "DOUBLE":
        if (b == null || b.equals("PRECISION")) {
          kind = Kind.DOUBLE;
        }
        break;
      case "DECIMAL":
      case "DEC":
      case "NUMERIC":
        kind = b == null ? Kind.DECIMAL : null;
        break;
      case "CHAR":
        kind = b == null ? Kind.CHAR : null;
        break;
      case "BINARY":
        kind = b == null ? Kind.BINARY : null;
        break;
      case "DATE":
        kind = b == null ? Kind.DATE : null;
        break;
      case "TIME":
        kind = b == null ? Kind.TIME : null;
        break;
      case "DATETIME":
        kind = b == null ? Kind.DATETIME : null;
        break;
      default:
        kind = null;
    }
    if (kind == null
        || (n >= 0
            && (kind == Kind.INT
                || kind == Kind.UNSIGNED
                || kind == Kind.DOUBLE
                || kind == Kind.DATE))
        || (d >= 0 && kind != Kind.DECIMAL)) {
      throw new IllegalArgumentException("Unknown dynamic column type '" + text.trim() + "'");
    }
    if (kind == Kind.DECIMAL) {
      int precision = n < 0 ? 10 : n;
      int sc = d < 0 ? 0 : d;
      if (precision < 1 || precision > 65 || sc > 38 || sc > precision) {
        throw new IllegalArgumentException(
            "Too big precision or scale in dynamic column type '" + text.trim() + "'");
      }
      return new DynType(kind, precision, sc);
    }
    if ((kind == Kind.TIME || kind == Kind.DATETIME) && n > 6) {
      throw new IllegalArgumentException(
          "Too big precision " + n + " specified for '" + text.trim() + "'. Maximum is 6");
    }
    return new DynType(kind, n, -1);
  }

  /** The canonical spelling, which {@link #parse} reads back. */
  @Override
  public String toString() {
    switch (kind) {
      case DECIMAL:
        return "DECIMAL(" + length + "," + scale + ")";
      case UNSIGNED:
        return "UNSIGNED INT";
      default:
        return length >= 0 ? kind + "(" + length + ")" : kind.toString();
    }
  }
}

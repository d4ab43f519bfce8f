package io.calcitebridge.dyncol;

/** An error of the dynamic-columns functions, with MariaDB's error code and message. */
public final class DynColException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** MariaDB's ER_DYN_COL_WRONG_FORMAT: a blob that is not in the format. */
  public static final int WRONG_FORMAT = 1919;

  /** MariaDB's ER_DYN_COL_IMPLEMENTATION_LIMIT: offsets or sizes out of range. */
  public static final int LIMIT = 1920;

  /** MariaDB's ER_DYN_COL_DATA: duplicate or out-of-range names, bad values. */
  public static final int DATA = 1921;

  /** MariaDB's ER_DYN_COL_WRONG_CHARSET. */
  public static final int CHARSET = 1922;

  private final int code;

  private DynColException(int code, String message) {
    super(message);
    this.code = code;
  }

  public int code() {
    return code;
  }

  public static DynColException format() {
    return new DynColException(WRONG_FORMAT, "Encountered illegal format of dynamic column string");
  }

  public static DynColException limit() {
    return new DynColException(LIMIT, "Dynamic column implementation limit reached");
  }

  public static DynColException data() {
    return new DynColException(DATA, "Illegal value used as argument of dynamic column function");
  }

  public static DynColException charset(int number) {
    return new DynColException(
        CHARSET, "Dynamic column contains unknown character set (" + number + ")");
  }
}

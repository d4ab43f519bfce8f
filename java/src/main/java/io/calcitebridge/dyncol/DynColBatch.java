package io.calcitebridge.dyncol;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.calcite.avatica.util.ByteString;

/**
 * One {@code COLUMN_*} call computed over a batch of rows: what generated code does for one row
 * ({@link DynColImplementor}), for every row of columns at once. Another engine that runs a
 * translated plan calls it once per batch.
 *
 * <p>The call is described by a spec, {@code OP;RESULT;GET_TYPE;operand;operand;...}: the function
 * ({@code COLUMN_GET}, ...), a code of the result type ({@link #result()}, read by the caller that
 * builds the result column), {@code COLUMN_GET}'s {@code AS} type in {@link DynType}'s spelling (''
 * for the other functions), then one field per argument column: a code of the column's type (read
 * by the caller that decodes the column) and, for the value of a COLUMN_CREATE or COLUMN_ADD pair,
 * {@code :kind:type}, the value's kind ({@link DynColRuntime#INT}, ...) and its {@code AS} type (''
 * when the SQL gave none). The argument columns hold values in Calcite's internal representation,
 * as {@link DynColRuntime} takes them.
 */
public final class DynColBatch {
  private final String function;
  private final String result;
  private final String getType;
  private final DynType.Kind getKind;
  private final List<String> codes;
  private final String[] kinds;
  private final String[] types;

  private DynColBatch(
      String function,
      String result,
      String getType,
      DynType.Kind getKind,
      List<String> codes,
      String[] kinds,
      String[] types) {
    this.function = function;
    this.result = result;
    this.getType = getType;
    this.getKind = getKind;
    this.codes = codes;
    this.kinds = kinds;
    this.types = types;
  }

  /** The call a spec describes; throws IllegalArgumentException for a malformed spec. */
  public static DynColBatch parse(String spec) {
    String[] fields = spec.split(";", -1);
    if (fields.length < 4) {
      throw new IllegalArgumentException("Malformed dynamic-columns call spec: " + spec);
    }
    String function = fields[0].toUpperCase(Locale.ROOT);
    DynColOperators.DynColFunction f = DynColOperators.byName(function);
    if (f == null) {
      throw new IllegalArgumentException("Unknown dynamic-columns function: " + fields[0]);
    }
    int n = fields.length - 3;
    if (!countFits(f.shape(), n)) {
      throw new IllegalArgumentException(
          "Incorrect parameter count in the call to native function '" + f.getName() + "'");
    }
    List<String> codes = new ArrayList<>();
    String[] kinds = new String[n];
    String[] types = new String[n];
    for (int i = 0; i < n; i++) {
      String[] parts = fields[3 + i].split(":", 3);
      codes.add(parts[0]);
      kinds[i] = parts.length > 1 ? parts[1] : null;
      types[i] = parts.length > 2 ? parts[2] : "";
    }
    DynType.Kind getKind = f.shape() == DynColShape.GET ? DynType.parse(fields[2]).kind : null;
    if (f.shape() == DynColShape.CREATE || f.shape() == DynColShape.ADD) {
      int start = f.shape() == DynColShape.ADD ? 1 : 0;
      for (int i = start + 1; i < n; i += 2) {
        if (kinds[i] == null) {
          throw new IllegalArgumentException("A value without a kind in the spec: " + spec);
        }
      }
    }
    return new DynColBatch(
        f.getName(), fields[1], fields[2], getKind, List.copyOf(codes), kinds, types);
  }

  /** Whether a function takes {@code n} argument columns (the {@code AS} types are in the spec). */
  private static boolean countFits(DynColShape shape, int n) {
    switch (shape) {
      case CREATE:
        return n >= 2 && n % 2 == 0;
      case ADD:
        return n >= 3 && n % 2 == 1;
      case GET:
      case EXISTS:
        return n == 2;
      case DELETE:
        return n >= 2;
      default:
        return n == 1;
    }
  }

  /** The function's name. */
  public String function() {
    return function;
  }

  /** The code of the result's type, as the spec gives it. */
  public String result() {
    return result;
  }

  /** The number of argument columns. */
  public int arity() {
    return codes.size();
  }

  /** The code of argument column {@code i}'s type, as the spec gives it. */
  public String code(int i) {
    return codes.get(i);
  }

  /**
   * The call over {@code rows} rows: {@code columns[i][r]} is argument {@code i} of row {@code r};
   * the result of row {@code r} is element {@code r}, in Calcite's internal representation (DATE as
   * Integer days, DATETIME as Long epoch milliseconds, BINARY as ByteString), null for NULL.
   */
  public Object[] apply(Object[][] columns, int rows) {
    if (columns.length != codes.size()) {
      throw new IllegalArgumentException(
          function + " takes " + codes.size() + " columns, not " + columns.length);
    }
    Object[] out = new Object[rows];
    for (int r = 0; r < rows; r++) {
      out[r] = row(columns, r);
    }
    return out;
  }

  private Object row(Object[][] c, int r) {
    switch (function) {
      case "COLUMN_CREATE":
        return pairs(c, r, 0, null);
      case "COLUMN_ADD":
        return pairs(c, r, 1, (ByteString) c[0][r]);
      case "COLUMN_DELETE":
        {
          Object[] keys = new Object[c.length - 1];
          for (int i = 1; i < c.length; i++) {
            keys[i - 1] = c[i][r];
          }
          return DynColRuntime.delete((ByteString) c[0][r], keys);
        }
      case "COLUMN_GET":
        return get((ByteString) c[0][r], c[1][r]);
      case "COLUMN_EXISTS":
        return DynColRuntime.exists((ByteString) c[0][r], c[1][r]);
      case "COLUMN_LIST":
        return DynColRuntime.list((ByteString) c[0][r]);
      case "COLUMN_CHECK":
        return DynColRuntime.check((ByteString) c[0][r]);
      default:
        return DynColRuntime.json((ByteString) c[0][r]);
    }
  }

  private Object pairs(Object[][] c, int r, int start, ByteString blob) {
    int n = (c.length - start) / 2;
    Object[] keys = new Object[n];
    Object[] values = new Object[n];
    String[] valueKinds = new String[n];
    String[] valueTypes = new String[n];
    for (int p = 0; p < n; p++) {
      int k = start + 2 * p;
      keys[p] = c[k][r];
      values[p] = c[k + 1][r];
      valueKinds[p] = kinds[k + 1];
      valueTypes[p] = types[k + 1];
    }
    return start == 0
        ? DynColRuntime.create(keys, values, valueKinds, valueTypes)
        : DynColRuntime.add(blob, keys, values, valueKinds, valueTypes);
  }

  private Object get(ByteString blob, Object key) {
    switch (getKind) {
      case INT:
        return DynColRuntime.getLong(blob, key, getType);
      case UNSIGNED:
      case DECIMAL:
        return DynColRuntime.getDecimal(blob, key, getType);
      case DOUBLE:
        return DynColRuntime.getDouble(blob, key, getType);
      case CHAR:
        return DynColRuntime.getString(blob, key, getType);
      case BINARY:
        return DynColRuntime.getBinary(blob, key, getType);
      case DATE:
        return DynColRuntime.getDate(blob, key, getType);
      case TIME:
        return DynColRuntime.getTime(blob, key, getType);
      default:
        return DynColRuntime.getTimestamp(blob, key, getType);
    }
  }
}

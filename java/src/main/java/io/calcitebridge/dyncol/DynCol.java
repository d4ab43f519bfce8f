package io.calcitebridge.dyncol;

import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * MariaDB's dynamic-columns binary format, both the numbered and the named layout, byte for byte.
 *
 * <p>Numbered layout: a flags byte (bits 0-1: offset size - 1), a 2-byte column count, then per
 * column a 2-byte number and an offset (1-4 bytes) holding {@code offset << 3 | type - 1}, then the
 * data. Named layout: flags (bits 0-1: offset size - 2, bit 2 set), column count, 2-byte size of
 * the name pool, then per column a 2-byte offset into the name pool and an offset (2-5 bytes)
 * holding {@code offset << 4 | type - 1}, then the names, then the data. Columns are sorted by
 * number, or by name length then name bytes; all integers are little-endian. NULL values are not
 * stored.
 *
 * <p>Keys passed to {@link #create}, {@link #add} and {@link #delete} are {@code String}s (names)
 * or {@code Integer}s/{@code Long}s (numbers, 0..65535). A blob is written in the named layout when
 * any key is a name, when the blob it updates is named, or when a value is a nested blob.
 */
public final class DynCol {
  private DynCol() {}

  /** The longest name, in bytes. */
  public static final int MAX_NAME_LENGTH = 16383;

  private static final int FLG_OFFSET = 3;
  private static final int FLG_NAMES = 4;
  private static final int FLG_KNOWN = 7;

  /** One stored column: its key, its type code and its encoded bytes. */
  static final class Entry {
    /** The name (named layout), or the number in decimal (numbered layout). */
    final byte[] name;

    final int num;
    final int type;
    final byte[] data;

    Entry(byte[] name, int num, int type, byte[] data) {
      this.name = name;
      this.num = num;
      this.type = type;
      this.data = data;
    }

    String nameString() {
      return new String(name, StandardCharsets.UTF_8);
    }
  }

  /** A parsed blob: its layout and columns in stored order. */
  static final class Parsed {
    final boolean named;
    final List<Entry> entries;

    /** False for the empty string (no header at all). */
    final boolean hasHeader;

    Parsed(boolean named, List<Entry> entries, boolean hasHeader) {
      this.named = named;
      this.entries = entries;
      this.hasHeader = hasHeader;
    }
  }

  // ---------------------------------------------------------------- reading

  static int u16(byte[] b, int at) {
    return (b[at] & 0xff) | (b[at + 1] & 0xff) << 8;
  }

  static long uint(byte[] b, int at, int len) {
    long v = 0;
    for (int i = 0; i < len; i++) {
      v |= (long) (b[at + i] & 0xff) << (8 * i);
    }
    return v;
  }

  /** Parses and checks the header and the directory of {@code blob}; values are not decoded. */
  static Parsed parse(byte[] blob) {
    if (blob.length == 0) {
      return new Parsed(false, List.of(), false);
    }
    int flags = blob[0] & 0xff;
    if ((flags & ~FLG_KNOWN) != 0) {
      throw DynColException.format();
    }
    boolean named = (flags & FLG_NAMES) != 0;
    int fixed = named ? 5 : 3;
    if (blob.length < fixed) {
      throw DynColException.format();
    }
    int offsetSize = (flags & FLG_OFFSET) + 1 + (named ? 1 : 0);
    int count = u16(blob, 1);
    int poolSize = named ? u16(blob, 3) : 0;
    int entrySize = 2 + offsetSize;
    long headerEnd = (long) fixed + (long) entrySize * count;
    if (headerEnd + poolSize > blob.length) {
      throw DynColException.format();
    }
    int pool = (int) headerEnd;
    int dataStart = pool + poolSize;
    long dataSize = blob.length - dataStart;
    int typeBits = named ? 4 : 3;
    long limit = named ? (1L << (offsetSize * 8 - 4)) - 1 : (1L << (offsetSize * 8 - 3)) - 1;
    long[] offsets = new long[count];
    int[] types = new int[count];
    for (int i = 0; i < count; i++) {
      int at = fixed + i * entrySize;
      long v = uint(blob, at + 2, offsetSize);
      types[i] = (int) (v & ((1 << typeBits) - 1)) + 1;
      offsets[i] = v >>> typeBits;
      if (offsets[i] >= limit || offsets[i] > dataSize) {
        throw DynColException.format();
      }
    }
    List<Entry> entries = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      int at = fixed + i * entrySize;
      long end = i + 1 < count ? offsets[i + 1] : dataSize;
      if (end < offsets[i]) {
        throw DynColException.format();
      }
      byte[] data = Arrays.copyOfRange(blob, dataStart + (int) offsets[i], dataStart + (int) end);
      if (named) {
        int nm = u16(blob, at);
        int nmEnd = i + 1 < count ? u16(blob, at + entrySize) : poolSize;
        if (nm > poolSize || nmEnd > poolSize || nmEnd < nm) {
          throw DynColException.format();
        }
        entries.add(
            new Entry(Arrays.copyOfRange(blob, pool + nm, pool + nmEnd), -1, types[i], data));
      } else {
        int num = u16(blob, at);
        entries.add(
            new Entry(
                Integer.toString(num).getBytes(StandardCharsets.US_ASCII), num, types[i], data));
      }
    }
    return new Parsed(named, entries, true);
  }

  // ---------------------------------------------------------------- writing

  private static int compareNames(byte[] a, byte[] b) {
    if (a.length != b.length) {
      return a.length < b.length ? -1 : 1;
    }
    return Arrays.compareUnsigned(a, b);
  }

  /** Writes sorted, unique entries in the given layout. */
  static byte[] write(boolean named, List<Entry> entries) {
    long dataSize = 0;
    int poolSize = 0;
    for (Entry e : entries) {
      dataSize += e.data.length;
      if (named) {
        poolSize += e.name.length;
      }
    }
    int offsetSize;
    if (named) {
      offsetSize = dataSize < 0xfff ? 2 : dataSize < 0xfffff ? 3 : dataSize < 0xfffffff ? 4 : 5;
      if (offsetSize >= 5 || poolSize > 0xffff) {
        throw DynColException.limit();
      }
    } else {
      offsetSize = dataSize < 0x1f ? 1 : dataSize < 0x1fff ? 2 : dataSize < 0x1fffff ? 3 : 4;
      if (offsetSize >= 4) {
        throw DynColException.limit();
      }
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int count = entries.size();
    out.write(named ? (offsetSize - 2) | FLG_NAMES : offsetSize - 1);
    out.write(count & 0xff);
    out.write(count >>> 8);
    if (named) {
      out.write(poolSize & 0xff);
      out.write(poolSize >>> 8);
    }
    long offset = 0;
    int nameOffset = 0;
    for (Entry e : entries) {
      int key = named ? nameOffset : e.num;
      out.write(key & 0xff);
      out.write(key >>> 8);
      long v = named ? offset << 4 | (e.type - 1) : offset << 3 | (e.type - 1);
      for (int i = 0; i < offsetSize; i++) {
        out.write((int) (v >>> (8 * i)) & 0xff);
      }
      offset += e.data.length;
      nameOffset += named ? e.name.length : 0;
    }
    if (named) {
      for (Entry e : entries) {
        out.writeBytes(e.name);
      }
    }
    for (Entry e : entries) {
      out.writeBytes(e.data);
    }
    return out.toByteArray();
  }

  /** A key as the entry of a layout: its name bytes and number. */
  private static Entry keyEntry(Object key, boolean named, int type, byte[] data) {
    if (key instanceof String) {
      byte[] name = ((String) key).getBytes(StandardCharsets.UTF_8);
      if (name.length > MAX_NAME_LENGTH) {
        throw DynColException.data();
      }
      return new Entry(name, -1, type, data);
    }
    if (!(key instanceof Number)) {
      throw DynColException.data();
    }
    long n = ((Number) key).longValue();
    if (n < 0 || n > 0xffff) {
      throw DynColException.data();
    }
    byte[] name = Long.toString(n).getBytes(StandardCharsets.US_ASCII);
    return new Entry(name, (int) n, type, data);
  }

  private static int compare(Entry a, Entry b, boolean named) {
    return named ? compareNames(a.name, b.name) : Integer.compare(a.num, b.num);
  }

  private static boolean anyName(List<?> keys) {
    for (Object k : keys) {
      if (k instanceof String) {
        return true;
      }
    }
    return false;
  }

  private static boolean anyNested(List<DynValue> values) {
    for (DynValue v : values) {
      if (v.type == DynValue.Type.DYNCOL) {
        return true;
      }
    }
    return false;
  }

  /** {@code COLUMN_CREATE}: a blob of the non-NULL values; duplicate keys are an error. */
  public static byte[] create(List<?> keys, List<DynValue> values) {
    if (keys.size() != values.size()) {
      throw new IllegalArgumentException("keys and values differ in number");
    }
    boolean named = anyName(keys) || anyNested(values);
    List<Entry> all = new ArrayList<>();
    for (int i = 0; i < keys.size(); i++) {
      all.add(keyEntry(keys.get(i), named, 0, null));
    }
    List<Entry> sorted = new ArrayList<>(all);
    sorted.sort((a, b) -> compare(a, b, named));
    for (int i = 0; i + 1 < sorted.size(); i++) {
      if (compare(sorted.get(i), sorted.get(i + 1), named) == 0) {
        throw DynColException.data();
      }
    }
    List<Entry> out = new ArrayList<>();
    for (int i = 0; i < keys.size(); i++) {
      DynValue v = values.get(i);
      if (!v.isNull()) {
        Entry k = all.get(i);
        out.add(new Entry(k.name, k.num, v.type.code, encode(v, named)));
      }
    }
    out.sort((a, b) -> compare(a, b, named));
    return write(named, out);
  }

  /** A blob that holds the given columns, typed as given (no NULLs). */
  public static byte[] create(Map<String, DynValue> columns) {
    return create(new ArrayList<>(columns.keySet()), new ArrayList<>(columns.values()));
  }

  /**
   * {@code COLUMN_ADD}: sets the given columns of {@code blob}; a NULL value removes its column.
   * Columns already stored keep their bytes.
   */
  public static byte[] add(byte[] blob, List<?> keys, List<DynValue> values) {
    if (keys.size() != values.size()) {
      throw new IllegalArgumentException("keys and values differ in number");
    }
    if (keys.isEmpty()) {
      return blob.clone();
    }
    Parsed p = parse(blob);
    boolean anyNotNull = false;
    for (DynValue v : values) {
      anyNotNull |= !v.isNull();
    }
    boolean stringKeys = anyName(keys) || anyNested(values);
    if (p.entries.isEmpty()) {
      if (!anyNotNull) {
        return blob.clone();
      }
      return create(toKeys(keys, stringKeys), values);
    }
    boolean named = p.named || stringKeys;
    List<Object> ks = toKeys(keys, named);
    List<Entry> changes = new ArrayList<>();
    for (int i = 0; i < ks.size(); i++) {
      DynValue v = values.get(i);
      Entry k = keyEntry(ks.get(i), named, 0, null);
      changes.add(
          v.isNull()
              ? new Entry(k.name, k.num, 0, null)
              : new Entry(k.name, k.num, v.type.code, encode(v, named)));
    }
    changes.sort((a, b) -> compare(a, b, named));
    for (int i = 0; i + 1 < changes.size(); i++) {
      if (compare(changes.get(i), changes.get(i + 1), named) == 0) {
        throw DynColException.data();
      }
    }
    List<Entry> merged = new ArrayList<>();
    int j = 0;
    List<Entry> old = p.entries;
    for (Entry c : changes) {
      while (j < old.size() && compare(old.get(j), c, named) < 0) {
        merged.add(old.get(j++));
      }
      if (j < old.size() && compare(old.get(j), c, named) == 0) {
        j++;
      }
      if (c.data != null) {
        merged.add(c);
      }
    }
    while (j < old.size()) {
      merged.add(old.get(j++));
    }
    return write(named, merged);
  }

  private static List<Object> toKeys(List<?> keys, boolean named) {
    List<Object> out = new ArrayList<>();
    for (Object k : keys) {
      if (named && k instanceof Number) {
        long n = ((Number) k).longValue();
        if (n < 0 || n > 0xffff) {
          throw DynColException.data();
        }
        out.add(Long.toString(n));
      } else if (!named && k instanceof String) {
        out.add(Long.parseLong((String) k));
      } else {
        out.add(k);
      }
    }
    return out;
  }

  /** {@code COLUMN_DELETE}: removes the given columns. */
  public static byte[] delete(byte[] blob, List<?> keys) {
    List<DynValue> nulls = new ArrayList<>();
    for (int i = 0; i < keys.size(); i++) {
      nulls.add(DynValue.NULL);
    }
    return add(blob, keys, nulls);
  }

  // ---------------------------------------------------------------- queries

  private static Entry find(Parsed p, Object key) {
    byte[] name;
    if (key instanceof Number) {
      name = Long.toString(((Number) key).longValue()).getBytes(StandardCharsets.US_ASCII);
    } else {
      String s = (String) key;
      if (!p.named) {
        if (s.isEmpty()) {
          s = "0";
        }
        for (int i = 0; i < s.length(); i++) {
          if (s.charAt(i) < '0' || s.charAt(i) > '9') {
            return null;
          }
        }
        s = new BigInteger(s).toString();
      }
      name = s.getBytes(StandardCharsets.UTF_8);
    }
    for (Entry e : p.entries) {
      if (Arrays.equals(e.name, name)) {
        return e;
      }
    }
    return null;
  }

  /** {@code COLUMN_GET} without conversion: the stored value, or {@link DynValue#NULL}. */
  public static DynValue get(byte[] blob, String name) {
    return getKey(blob, name);
  }

  /** The stored value of a numbered column, or {@link DynValue#NULL}. */
  public static DynValue get(byte[] blob, int number) {
    return getKey(blob, number);
  }

  private static DynValue getKey(byte[] blob, Object key) {
    Parsed p = parse(blob);
    Entry e = find(p, key);
    return e == null ? DynValue.NULL : decode(e.type, e.data);
  }

  /** {@code COLUMN_EXISTS}. */
  public static boolean exists(byte[] blob, String name) {
    return find(parse(blob), name) != null;
  }

  public static boolean exists(byte[] blob, int number) {
    return find(parse(blob), number) != null;
  }

  /** The names of the columns in stored order (numbers in decimal for the numbered layout). */
  public static List<String> names(byte[] blob) {
    List<String> out = new ArrayList<>();
    for (Entry e : parse(blob).entries) {
      out.add(e.nameString());
    }
    return out;
  }

  /** Every column decoded, in stored order. */
  public static Map<String, DynValue> unpack(byte[] blob) {
    Map<String, DynValue> out = new java.util.LinkedHashMap<>();
    for (Entry e : parse(blob).entries) {
      out.put(e.nameString(), decode(e.type, e.data));
    }
    return out;
  }

  /** Whether the blob uses the named layout. */
  public static boolean isNamed(byte[] blob) {
    return blob.length > 0 && (blob[0] & FLG_NAMES) != 0;
  }

  /** {@code COLUMN_LIST}: backquoted names, comma-separated. */
  public static String list(byte[] blob) {
    StringBuilder b = new StringBuilder();
    for (Entry e : parse(blob).entries) {
      if (b.length() > 0) {
        b.append(',');
      }
      b.append('`').append(e.nameString().replace("`", "``")).append('`');
    }
    return b.toString();
  }

  /** {@code COLUMN_JSON}: an empty blob gives the empty string. */
  public static String json(byte[] blob) {
    StringBuilder b = new StringBuilder();
    json(blob, b, 1);
    return b.toString();
  }

  private static void json(byte[] blob, StringBuilder b, int level) {
    if (level >= 10) {
      throw DynColException.limit();
    }
    if (blob.length == 0) {
      return;
    }
    Parsed p = parse(blob);
    b.append('{');
    boolean first = true;
    for (Entry e : p.entries) {
      if (!first) {
        b.append(',');
      }
      first = false;
      DynValue v = decode(e.type, e.data);
      b.append('"').append(e.nameString()).append("\":");
      switch (v.type) {
        case DYNCOL:
          json((byte[]) v.value, b, level + 1);
          break;
        case STRING:
          {
            String s =
                v.charset == DynValue.BINARY
                    ? new String((byte[]) v.value, StandardCharsets.ISO_8859_1)
                    : v.text();
            b.append('"');
            jsonEscape(s, b);
            b.append('"');
            break;
          }
        case DATE:
        case TIME:
        case DATETIME:
          b.append('"').append(v.value).append('"');
          break;
        default:
          b.append(DynConvert.toText(v));
      }
    }
    b.append('}');
  }

  private static void jsonEscape(String s, StringBuilder b) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"' || c == '\\') {
        b.append('\\').append(c);
      } else if (c < 0x20) {
        b.append(String.format("\\u%04X", (int) c));
      } else {
        b.append(c);
      }
    }
  }

  /** {@code COLUMN_CHECK}: whether {@code blob} is well formed (the empty string is). */
  public static boolean check(byte[] blob) {
    if (blob.length == 0) {
      return true;
    }
    try {
      Parsed p = parse(blob);
      Entry prev = null;
      long prevOffset = 0;
      long offset = 0;
      for (Entry e : p.entries) {
        if (prev != null) {
          if (compare(prev, e, p.named) >= 0) {
            return false;
          }
          int pt = prev.type;
          if (prev.data.length == 0
              && pt != DynValue.Type.INT.code
              && pt != DynValue.Type.UINT.code
              && pt != DynValue.Type.DECIMAL.code) {
            return false;
          }
        }
        if (offset < prevOffset) {
          return false;
        }
        prevOffset = offset;
        offset += e.data.length;
        decode(e.type, e.data);
        prev = e;
      }
      return true;
    } catch (DynColException e) {
      return false;
    }
  }

  // ---------------------------------------------------------------- values

  private static void varUint(ByteArrayOutputStream out, long v) {
    do {
      long rest = v >>> 7;
      out.write((int) ((v & 0x7f) | (rest != 0 ? 0x80 : 0)));
      v = rest;
    } while (v != 0);
  }

  private static void uintBytes(ByteArrayOutputStream out, long v) {
    for (; v != 0; v >>>= 8) {
      out.write((int) (v & 0xff));
    }
  }

  /** The number of integer digits a decimal is stored with (at least 1, as MariaDB counts). */
  static int intDigits(BigDecimal d) {
    return Math.max(1, d.precision() - d.scale());
  }

  private static final int[] DIG2BYTES = {0, 1, 1, 2, 2, 3, 3, 4, 4, 4};

  /** MariaDB's decimal2bin: groups of nine digits in 4 bytes, big-endian, sign in the top bit. */
  static byte[] decimalBin(BigDecimal d, int intg, int frac) {
    BigDecimal abs = d.abs().setScale(frac);
    String digits = abs.unscaledValue().toString();
    int total = intg + frac;
    if (digits.length() < total) {
      digits = "0".repeat(total - digits.length()) + digits;
    }
    String ip = digits.substring(digits.length() - total, digits.length() - frac);
    String fp = digits.substring(digits.length() - frac);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int lead = intg % 9;
    if (lead > 0) {
      beInt(out, Long.parseLong(ip.substring(0, lead)), DIG2BYTES[lead]);
    }
    for (int i = lead; i < intg; i += 9) {
      beInt(out, Long.parseLong(ip.substring(i, i + 9)), 4);
    }
    int full = frac / 9 * 9;
    for (int i = 0; i < full; i += 9) {
      beInt(out, Long.parseLong(fp.substring(i, i + 9)), 4);
    }
    int trail = frac % 9;
    if (trail > 0) {
      beInt(out, Long.parseLong(fp.substring(full)), DIG2BYTES[trail]);
    }
    byte[] b = out.toByteArray();
    if (d.signum() < 0) {
      for (int i = 0; i < b.length; i++) {
        b[i] = (byte) ~b[i];
      }
    }
    b[0] ^= (byte) 0x80;
    return b;
  }

  private static void beInt(ByteArrayOutputStream out, long v, int bytes) {
    for (int i = bytes - 1; i >= 0; i--) {
      out.write((int) (v >>> (8 * i)) & 0xff);
    }
  }

  static int decimalBinSize(int intg, int frac) {
    return intg / 9 * 4 + DIG2BYTES[intg % 9] + frac / 9 * 4 + DIG2BYTES[frac % 9];
  }

  static BigDecimal binDecimal(byte[] src, int at, int intg, int frac) {
    int size = decimalBinSize(intg, frac);
    byte[] b = Arrays.copyOfRange(src, at, at + size);
    boolean negative = (b[0] & 0x80) == 0;
    b[0] ^= (byte) 0x80;
    if (negative) {
      for (int i = 0; i < b.length; i++) {
        b[i] = (byte) ~b[i];
      }
    }
    StringBuilder digits = new StringBuilder();
    int pos = 0;
    int lead = intg % 9;
    if (lead > 0) {
      pos = group(b, pos, DIG2BYTES[lead], lead, digits);
    }
    for (int i = lead; i < intg; i += 9) {
      pos = group(b, pos, 4, 9, digits);
    }
    for (int i = 0; i < frac / 9; i++) {
      pos = group(b, pos, 4, 9, digits);
    }
    if (frac % 9 > 0) {
      pos = group(b, pos, DIG2BYTES[frac % 9], frac % 9, digits);
    }
    BigDecimal v =
        new BigDecimal(new BigInteger(digits.length() == 0 ? "0" : digits.toString()), frac);
    return negative ? v.negate() : v;
  }

  private static int group(byte[] b, int pos, int bytes, int width, StringBuilder digits) {
    long v = 0;
    for (int i = 0; i < bytes; i++) {
      v = v << 8 | (b[pos + i] & 0xff);
    }
    String s = Long.toString(v);
    if (s.length() > width) {
      throw DynColException.format();
    }
    digits.append("0".repeat(width - s.length())).append(s);
    return pos + bytes;
  }

  private static void dateBytes(ByteArrayOutputStream out, DynTime t) {
    out.write(t.day | (t.month & 0x7) << 5);
    out.write(t.month >> 3 | (t.year & 0x7f) << 1);
    out.write(t.year >> 7);
  }

  private static void timeBytes(ByteArrayOutputStream out, DynTime t, boolean named) {
    if (!named || t.micros != 0) {
      out.write(t.micros & 0xff);
      out.write(t.micros >> 8 & 0xff);
      out.write((t.second & 0xf) << 4 | (t.micros & 0xf0000) >> 16);
      out.write(t.minute << 2 | (t.second & 0x30) >> 4);
      out.write(t.hour & 0xff);
      out.write((t.negative ? 0x4 : 0) | t.hour >> 8);
    } else {
      out.write(t.second | (t.minute & 0x3) << 6);
      out.write(t.minute >> 2 | (t.hour & 0xf) << 4);
      out.write(t.hour >> 4 | (t.negative ? 0x80 : 0));
    }
  }

  /** The stored bytes of one value in the given layout. */
  public static byte[] encode(DynValue v, boolean named) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    switch (v.type) {
      case INT:
        {
          long x = v.longValue();
          uintBytes(out, x << 1 ^ (x >> 63));
          break;
        }
      case UINT:
        uintBytes(out, v.longValue());
        break;
      case DOUBLE:
        {
          long bits = Double.doubleToLongBits((Double) v.value);
          for (int i = 0; i < 8; i++) {
            out.write((int) (bits >>> (8 * i)) & 0xff);
          }
          break;
        }
      case STRING:
        varUint(out, v.charset);
        out.writeBytes((byte[]) v.value);
        break;
      case DECIMAL:
        {
          BigDecimal d = (BigDecimal) v.value;
          if (d.scale() < 0) {
            d = d.setScale(0);
          }
          if (d.signum() == 0) {
            break;
          }
          int intg = intDigits(d);
          int frac = d.scale();
          varUint(out, intg);
          varUint(out, frac);
          out.writeBytes(decimalBin(d, intg, frac));
          break;
        }
      case DATE:
        dateBytes(out, (DynTime) v.value);
        break;
      case TIME:
        timeBytes(out, (DynTime) v.value, named);
        break;
      case DATETIME:
        dateBytes(out, (DynTime) v.value);
        timeBytes(out, (DynTime) v.value, named);
        break;
      case DYNCOL:
        out.writeBytes((byte[]) v.value);
        break;
      default:
        throw DynColException.data();
    }
    return out.toByteArray();
  }

  private static long varUintGet(byte[] d, int[] pos) {
    long v = 0;
    int n = 0;
    while (pos[0] < d.length) {
      int b = d[pos[0]++] & 0xff;
      v += (long) (b & 0x7f) << (n * 7);
      n++;
      if ((b & 0x80) == 0) {
        return v;
      }
    }
    throw DynColException.format();
  }

  private static DynTime readDate(byte[] d, int at) {
    int day = d[at] & 0x1f;
    int month = (d[at + 1] & 0x1) << 3 | (d[at] & 0xff) >> 5;
    int year = (d[at + 2] & 0xff) << 7 | (d[at + 1] & 0xff) >> 1;
    if (day > 31 || month > 12 || year > 9999) {
      throw DynColException.format();
    }
    return DynTime.date(year, month, day);
  }

  private static DynTime readTime(byte[] d, int at, int len) {
    int micros;
    int second;
    int minute;
    int hour;
    boolean neg;
    if (len == 6) {
      micros = (d[at] & 0xff) | (d[at + 1] & 0xff) << 8 | (d[at + 2] & 0xf) << 16;
      second = (d[at + 2] & 0xff) >> 4 | (d[at + 3] & 0x3) << 4;
      minute = (d[at + 3] & 0xff) >> 2;
      hour = (d[at + 5] & 0x3) << 8 | (d[at + 4] & 0xff);
      neg = (d[at + 5] & 0x4) != 0;
    } else if (len == 3) {
      micros = 0;
      second = d[at] & 0x3f;
      minute = (d[at] & 0xff) >> 6 | (d[at + 1] & 0xf) << 2;
      hour = (d[at + 1] & 0xff) >> 4 | (d[at + 2] & 0x3f) << 4;
      neg = (d[at + 2] & 0x80) != 0;
    } else {
      throw DynColException.format();
    }
    if (second > 59 || minute > 59 || hour > 838 || micros > 999999) {
      throw DynColException.format();
    }
    return DynTime.time(neg, hour, minute, second, micros);
  }

  /** Decodes the stored bytes of one value of the given type code. */
  public static DynValue decode(int typeCode, byte[] d) {
    switch (DynValue.Type.of(typeCode)) {
      case INT:
        {
          if (d.length > 8) {
            throw DynColException.format();
          }
          long u = uint(d, 0, d.length);
          return DynValue.ofLong((u & 1) != 0 ? (u >>> 1) ^ -1L : u >>> 1);
        }
      case UINT:
        if (d.length > 8) {
          throw DynColException.format();
        }
        return DynValue.ofUnsigned(uint(d, 0, d.length));
      case DOUBLE:
        if (d.length != 8) {
          throw DynColException.format();
        }
        return DynValue.ofDouble(Double.longBitsToDouble(uint(d, 0, 8)));
      case STRING:
        {
          int[] pos = {0};
          long cs = varUintGet(d, pos);
          if (cs == 0 || cs > 2047) {
            throw DynColException.charset((int) cs);
          }
          return DynValue.ofString(Arrays.copyOfRange(d, pos[0], d.length), (int) cs);
        }
      case DECIMAL:
        {
          if (d.length == 0) {
            return DynValue.ofDecimal(BigDecimal.ZERO);
          }
          int[] pos = {0};
          long intg = varUintGet(d, pos);
          long frac = varUintGet(d, pos);
          if (intg + frac <= 0
              || intg + frac > 81
              || decimalBinSize((int) intg, (int) frac) != d.length - pos[0]) {
            throw DynColException.format();
          }
          return DynValue.ofDecimal(binDecimal(d, pos[0], (int) intg, (int) frac));
        }
      case DATETIME:
        {
          if (d.length != 6 && d.length != 9) {
            throw DynColException.format();
          }
          DynTime date = readDate(d, 0);
          DynTime time = readTime(d, 3, d.length - 3);
          return DynValue.ofTime(
              new DynTime(
                  DynTime.Kind.DATETIME,
                  date.year,
                  date.month,
                  date.day,
                  time.hour,
                  time.minute,
                  time.second,
                  time.micros,
                  time.negative));
        }
      case DATE:
        if (d.length != 3) {
          throw DynColException.format();
        }
        return DynValue.ofTime(readDate(d, 0));
      case TIME:
        return DynValue.ofTime(readTime(d, 0, d.length));
      case DYNCOL:
        return DynValue.ofDynCol(d);
      default:
        throw DynColException.format();
    }
  }
}

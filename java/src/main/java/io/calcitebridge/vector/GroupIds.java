package io.calcitebridge.vector;

import io.calcitebridge.arrow.ValueReaders;
import io.calcitebridge.arrow.ValueReaders.ValueReader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.calcite.sql.type.SqlTypeName;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Numbers the groups of a GROUP BY in the order they first appear: for each row of a batch, the id
 * of its key's group. A single BIGINT or INTEGER key is looked up in an open-addressing table of
 * primitive longs; any other key (one or more columns) as a list of values in Calcite's runtime
 * representation. A NULL key value is a value like any other: NULL keys form one group.
 */
abstract class GroupIds {
  /** The key values of each group, in group id order. */
  abstract List<Object[]> keys();

  /** The number of groups so far. */
  abstract int size();

  /** Writes into {@code ids} the group id of each of the {@code rows} rows of {@code keys}. */
  abstract void assign(FieldVector[] keys, int rows, int[] ids);

  /** Group ids for keys of these SQL types. */
  static GroupIds of(List<SqlTypeName> types) {
    if (types.size() == 1 && types.get(0) == SqlTypeName.BIGINT) {
      return new LongKeys(false);
    } else if (types.size() == 1 && types.get(0) == SqlTypeName.INTEGER) {
      return new LongKeys(true);
    }
    return new AnyKeys(types);
  }

  /** A key value in Calcite's runtime representation of {@code type}, whatever the vector's. */
  static @Nullable Object normalize(@Nullable Object value, SqlTypeName type) {
    if (!(value instanceof Number n)) {
      return value;
    }
    switch (type) {
      case TINYINT:
        return n.byteValue();
      case SMALLINT:
        return n.shortValue();
      case INTEGER:
      case DATE:
        return n.intValue();
      case BIGINT:
        return n.longValue();
      default:
        return value;
    }
  }

  /** Keys of any supported type, as lists of values. */
  private static final class AnyKeys extends GroupIds {
    private final SqlTypeName[] types;
    private final int width;
    private final Map<Object, Integer> ids = new HashMap<>();
    private final ArrayList<Object[]> keys = new ArrayList<>();

    AnyKeys(List<SqlTypeName> types) {
      this.types = types.toArray(new SqlTypeName[0]);
      this.width = this.types.length;
    }

    @Override
    List<Object[]> keys() {
      return keys;
    }

    @Override
    int size() {
      return keys.size();
    }

    @Override
    void assign(FieldVector[] vectors, int rows, int[] out) {
      ValueReader[] readers = new ValueReader[width];
      for (int k = 0; k < width; k++) {
        readers[k] = ValueReaders.of(vectors[k]);
      }
      for (int i = 0; i < rows; i++) {
        Object[] values = new Object[width];
        for (int k = 0; k < width; k++) {
          values[k] = normalize(readers[k].get(i), types[k]);
        }
        Object key = width == 1 ? values[0] : Arrays.asList(values);
        Integer id = ids.get(key == null ? NullKey.INSTANCE : key);
        if (id == null) {
          id = keys.size();
          ids.put(key == null ? NullKey.INSTANCE : key, id);
          keys.add(values);
        }
        out[i] = id;
      }
    }
  }

  /** Stands for a single NULL key in a map that does not take null keys. */
  private enum NullKey {
    INSTANCE
  }

  /** A single BIGINT or INTEGER key, in an open-addressing table with linear probing. */
  private static final class LongKeys extends GroupIds {
    private long[] slots = new long[1024];
    private int[] slotIds = new int[1024];
    private int count;
    private int nullId = -1;
    private final ArrayList<Object[]> keys = new ArrayList<>();
    private final boolean asInt;

    LongKeys(boolean asInt) {
      this.asInt = asInt;
      Arrays.fill(slotIds, -1);
    }

    @Override
    List<Object[]> keys() {
      return keys;
    }

    @Override
    int size() {
      return keys.size();
    }

    @Override
    void assign(FieldVector[] vectors, int rows, int[] out) {
      FieldVector v = vectors[0];
      boolean noNulls = v.getNullCount() == 0;
      if (v instanceof BigIntVector b) {
        for (int i = 0; i < rows; i++) {
          out[i] = noNulls || !b.isNull(i) ? id(b.get(i)) : nullId();
        }
      } else if (v instanceof IntVector b) {
        for (int i = 0; i < rows; i++) {
          out[i] = noNulls || !b.isNull(i) ? id(b.get(i)) : nullId();
        }
      } else {
        ValueReader r = ValueReaders.of(v);
        for (int i = 0; i < rows; i++) {
          Object o = r.get(i);
          out[i] = o == null ? nullId() : id(((Number) o).longValue());
        }
      }
    }

    private int nullId() {
      if (nullId < 0) {
        nullId = keys.size();
        keys.add(new Object[] {null});
      }
      return nullId;
    }

    private int id(long value) {
      int mask = slots.length - 1;
      int slot = hash(value) & mask;
      while (true) {
        int id = slotIds[slot];
        if (id < 0) {
          return add(value, slot);
        }
        if (slots[slot] == value) {
          return id;
        }
        slot = (slot + 1) & mask;
      }
    }

    private int add(long value, int slot) {
      int id = keys.size();
      slots[slot] = value;
      slotIds[slot] = id;
      keys.add(new Object[] {asInt ? (Object) (int) value : value});
      if (++count * 2 > slots.length) {
        grow();
      }
      return id;
    }

    private void grow() {
      long[] oldSlots = slots;
      int[] oldIds = slotIds;
      slots = new long[oldSlots.length * 2];
      slotIds = new int[oldSlots.length * 2];
      Arrays.fill(slotIds, -1);
      int mask = slots.length - 1;
      for (int s = 0; s < oldSlots.length; s++) {
        if (oldIds[s] >= 0) {
          int slot = hash(oldSlots[s]) & mask;
          while (slotIds[slot] >= 0) {
            slot = (slot + 1) & mask;
          }
          slots[slot] = oldSlots[s];
          slotIds[slot] = oldIds[s];
        }
      }
    }

    private static int hash(long value) {
      long h = value * 0x9E3779B97F4A7C15L;
      return (int) (h ^ (h >>> 32));
    }
  }
}

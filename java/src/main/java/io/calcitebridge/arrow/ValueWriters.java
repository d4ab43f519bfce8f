package io.calcitebridge.arrow;

import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.Decimal256Vector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.NullVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * Builds, for an Arrow vector created from {@link io.calcitebridge.types.ArrowTypes#toField}, a
 * {@link ValueWriter} that stores Calcite runtime values (and the lenient alternatives that {@link
 * Values} accepts) into it, NULLs included, at any nesting level.
 */
final class ValueWriters {
  /** Flink's DATE range, 0000-01-01 to 9999-12-31, in days from 1970-01-01. */
  private static final int MIN_DAYS = -719528;

  private static final int MAX_DAYS = 2932896;

  private ValueWriters() {}

  /** Writes one value (or null) at an index; returns roughly how many bytes it added. */
  @FunctionalInterface
  interface ValueWriter {
    long write(int index, Object value);
  }

  /** A writer for values that are known to be non-null. */
  @FunctionalInterface
  private interface NonNullWriter {
    long write(int index, Object value);
  }

  static ValueWriter of(FieldVector v) {
    if (v instanceof StructVector) {
      return struct((StructVector) v);
    } else if (v instanceof MapVector) {
      return map((MapVector) v);
    } else if (v instanceof ListVector) {
      return list((ListVector) v);
    } else if (v instanceof NullVector) {
      return (i, value) -> 0;
    }
    NonNullWriter w = scalar(v);
    return (i, value) -> {
      if (value == null) {
        v.setNull(i);
        return 1;
      }
      return w.write(i, value);
    };
  }

  private static NonNullWriter scalar(FieldVector v) {
    if (v instanceof BitVector) {
      BitVector b = (BitVector) v;
      return (i, x) -> {
        b.setSafe(i, Values.toBoolean(x) ? 1 : 0);
        return 1;
      };
    } else if (v instanceof TinyIntVector) {
      TinyIntVector t = (TinyIntVector) v;
      return (i, x) -> {
        t.setSafe(i, (byte) Values.toLong(x));
        return 1;
      };
    } else if (v instanceof SmallIntVector) {
      SmallIntVector t = (SmallIntVector) v;
      return (i, x) -> {
        t.setSafe(i, (short) Values.toLong(x));
        return 2;
      };
    } else if (v instanceof IntVector) {
      IntVector t = (IntVector) v;
      return (i, x) -> {
        t.setSafe(i, (int) Values.toLong(x));
        return 4;
      };
    } else if (v instanceof BigIntVector) {
      BigIntVector t = (BigIntVector) v;
      return (i, x) -> {
        t.setSafe(i, Values.toLong(x));
        return 8;
      };
    } else if (v instanceof Float4Vector) {
      Float4Vector t = (Float4Vector) v;
      return (i, x) -> {
        t.setSafe(i, (float) Values.toDouble(x));
        return 4;
      };
    } else if (v instanceof Float8Vector) {
      Float8Vector t = (Float8Vector) v;
      return (i, x) -> {
        t.setSafe(i, Values.toDouble(x));
        return 8;
      };
    }
    return other(v);
  }

  private static NonNullWriter other(FieldVector v) {
    if (v instanceof DecimalVector) {
      DecimalVector d = (DecimalVector) v;
      int scale = d.getScale();
      return (i, x) -> {
        d.setSafe(i, Values.toBigDecimal(x).setScale(scale, RoundingMode.HALF_UP));
        return 16;
      };
    } else if (v instanceof Decimal256Vector) {
      Decimal256Vector d = (Decimal256Vector) v;
      int scale = d.getScale();
      return (i, x) -> {
        d.setSafe(i, Values.toBigDecimal(x).setScale(scale, RoundingMode.HALF_UP));
        return 32;
      };
    } else if (v instanceof VarCharVector) {
      VarCharVector s = (VarCharVector) v;
      return (i, x) -> {
        byte[] b = x.toString().getBytes(StandardCharsets.UTF_8);
        s.setSafe(i, b);
        return b.length + 4;
      };
    } else if (v instanceof VarBinaryVector) {
      VarBinaryVector s = (VarBinaryVector) v;
      return (i, x) -> {
        byte[] b = Values.toBytes(x);
        s.setSafe(i, b);
        return b.length + 4;
      };
    } else if (v instanceof DateDayVector) {
      DateDayVector d = (DateDayVector) v;
      return (i, x) -> {
        int days = Values.toDays(x);
        if (days < MIN_DAYS || days > MAX_DAYS) {
          // DATE '2024-01-01' + INTERVAL '999999999' DAY(9): a DATE past Flink's range, which no
          // reader of the result could show (Python's date ends at 9999-12-31).
          throw new ArithmeticException(
              "DATE value out of range: "
                  + days
                  + " days from 1970-01-01, outside 0000-01-01 to 9999-12-31");
        }
        d.setSafe(i, days);
        return 4;
      };
    } else if (v instanceof TimeMilliVector) {
      TimeMilliVector t = (TimeMilliVector) v;
      return (i, x) -> {
        t.setSafe(i, Values.toTimeMillis(x));
        return 4;
      };
    } else if (v instanceof TimeStampVector) {
      TimeStampVector t = (TimeStampVector) v;
      TimeUnit unit = ((ArrowType.Timestamp) v.getField().getType()).getUnit();
      return (i, x) -> {
        t.setSafe(i, Values.toTimestamp(x, unit));
        return 8;
      };
    }
    if (v instanceof org.apache.arrow.vector.DurationVector) {
      org.apache.arrow.vector.DurationVector d = (org.apache.arrow.vector.DurationVector) v;
      return (i, x) -> {
        d.setSafe(i, ((Number) x).longValue());
        return 8;
      };
    } else if (v instanceof org.apache.arrow.vector.IntervalMonthDayNanoVector) {
      org.apache.arrow.vector.IntervalMonthDayNanoVector m =
          (org.apache.arrow.vector.IntervalMonthDayNanoVector) v;
      return (i, x) -> {
        m.setSafe(i, ((Number) x).intValue(), 0, 0L);
        return 16;
      };
    }
    throw new UnsupportedOperationException(
        "Cannot write Arrow vector of type "
            + v.getField().getType()
            + " (field '"
            + v.getField().getName()
            + "')");
  }

  private static ValueWriter struct(StructVector s) {
    List<FieldVector> children = s.getChildrenFromFields();
    List<String> names = new ArrayList<>();
    for (Field f : s.getField().getChildren()) {
      names.add(f.getName());
    }
    ValueWriter[] writers = new ValueWriter[children.size()];
    for (int k = 0; k < writers.length; k++) {
      writers[k] = of(children.get(k));
    }
    return (i, value) -> {
      long bytes = 1;
      if (value == null) {
        s.setNull(i);
        for (ValueWriter w : writers) {
          bytes += w.write(i, null);
        }
        return bytes;
      }
      Object[] fields = Values.fields(value, names);
      if (fields.length != writers.length) {
        throw new IllegalArgumentException(
            "ROW value has "
                + fields.length
                + " fields, type '"
                + s.getName()
                + "' has "
                + writers.length);
      }
      s.setIndexDefined(i);
      for (int k = 0; k < writers.length; k++) {
        bytes += writers[k].write(i, fields[k]);
      }
      return bytes;
    };
  }

  private static ValueWriter list(ListVector l) {
    ValueWriter element = of(l.getDataVector());
    return (i, value) -> {
      if (value == null) {
        l.setNull(i);
        return 5;
      }
      List<?> elements = Values.elements(value);
      int start = l.startNewValue(i);
      long bytes = 5;
      for (int k = 0; k < elements.size(); k++) {
        bytes += element.write(start + k, elements.get(k));
      }
      l.endValue(i, elements.size());
      return bytes;
    };
  }

  private static ValueWriter map(MapVector m) {
    StructVector entries = (StructVector) m.getDataVector();
    List<FieldVector> kv = entries.getChildrenFromFields();
    ValueWriter key = of(kv.get(0));
    ValueWriter val = of(kv.get(1));
    return (i, value) -> {
      if (value == null) {
        m.setNull(i);
        return 5;
      }
      if (value instanceof List<?> multiset) {
        // A MULTISET: each distinct element with the number of times it occurs.
        Map<Object, Integer> counts = new java.util.LinkedHashMap<>();
        for (Object e : multiset) {
          if (e == null) {
            // A map has no NULL key; Flink runs no MULTISET[...] constructor at all.
            throw new io.calcitebridge.errors.PositionedException(
                io.calcitebridge.errors.ErrorKind.UNSUPPORTED,
                "The MULTISET in column '"
                    + m.getName()
                    + "' holds a NULL, which its Arrow form, a map of each element to its"
                    + " count, cannot hold; leave NULL out of the MULTISET, or count it with"
                    + " CARDINALITY",
                org.apache.calcite.sql.parser.SqlParserPos.ZERO);
          }
          counts.merge(e, 1, Integer::sum);
        }
        value = counts;
      }
      if (!(value instanceof Map)) {
        throw Values.cannot(value, "a MAP");
      }
      Map<?, ?> map = (Map<?, ?>) value;
      int start = m.startNewValue(i);
      long bytes = 5;
      int k = start;
      for (Map.Entry<?, ?> e : map.entrySet()) {
        if (e.getKey() == null) {
          throw new IllegalArgumentException("MAP key is null in column '" + m.getName() + "'");
        }
        entries.setIndexDefined(k);
        bytes += key.write(k, e.getKey()) + val.write(k, e.getValue());
        k++;
      }
      m.endValue(i, map.size());
      return bytes;
    };
  }
}

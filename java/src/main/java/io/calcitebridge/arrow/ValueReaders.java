package io.calcitebridge.arrow;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.BaseVariableWidthViewVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DateMilliVector;
import org.apache.arrow.vector.Decimal256Vector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float2Vector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.LargeVarBinaryVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.NullVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeNanoVector;
import org.apache.arrow.vector.TimeSecVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.UInt2Vector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.LargeListVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.ListViewVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.calcite.avatica.util.ByteString;

/**
 * Builds, for an Arrow vector, a {@link ValueReader} that returns each value in Calcite's runtime
 * representation (see the package documentation).
 */
public final class ValueReaders {
  private static final long MILLIS_PER_DAY = 86_400_000L;

  private ValueReaders() {}

  /** Reads one value of a vector, or null, in Calcite's runtime representation. */
  @FunctionalInterface
  public interface ValueReader {
    Object get(int index);
  }

  public static ValueReader of(FieldVector v) {
    ValueReader r = nonNull(v);
    return i -> v.isNull(i) ? null : r.get(i);
  }

  private static ValueReader nonNull(FieldVector v) {
    if (v instanceof StructVector) {
      return struct((StructVector) v);
    } else if (v instanceof MapVector) {
      return map((MapVector) v);
    } else if (v instanceof ListVector) {
      ListVector l = (ListVector) v;
      return list(of(l.getDataVector()), l::getElementStartIndex, l::getElementEndIndex);
    } else if (v instanceof LargeListVector) {
      LargeListVector l = (LargeListVector) v;
      return list(
          of(l.getDataVector()),
          i -> Math.toIntExact(l.getElementStartIndex(i)),
          i -> Math.toIntExact(l.getElementEndIndex(i)));
    } else if (v instanceof FixedSizeListVector) {
      FixedSizeListVector l = (FixedSizeListVector) v;
      return list(of(l.getDataVector()), l::getElementStartIndex, l::getElementEndIndex);
    } else if (v instanceof ListViewVector) {
      ListViewVector l = (ListViewVector) v;
      return list(of(l.getDataVector()), l::getElementStartIndex, l::getElementEndIndex);
    }
    return scalar(v);
  }

  private static ValueReader scalar(FieldVector v) {
    if (v instanceof BitVector) {
      BitVector b = (BitVector) v;
      return i -> b.get(i) != 0;
    } else if (v instanceof TinyIntVector) {
      return ((TinyIntVector) v)::get;
    } else if (v instanceof SmallIntVector) {
      return ((SmallIntVector) v)::get;
    } else if (v instanceof IntVector) {
      return ((IntVector) v)::get;
    } else if (v instanceof BigIntVector) {
      return ((BigIntVector) v)::get;
    } else if (v instanceof UInt1Vector) {
      UInt1Vector u = (UInt1Vector) v;
      return i -> (short) Byte.toUnsignedInt(u.get(i));
    } else if (v instanceof UInt2Vector) {
      UInt2Vector u = (UInt2Vector) v;
      return i -> (int) u.get(i);
    } else if (v instanceof UInt4Vector) {
      UInt4Vector u = (UInt4Vector) v;
      return i -> Integer.toUnsignedLong(u.get(i));
    } else if (v instanceof UInt8Vector) {
      UInt8Vector u = (UInt8Vector) v;
      return i -> new java.math.BigDecimal(u.getObjectNoOverflow(i));
    } else if (v instanceof Float2Vector) {
      return ((Float2Vector) v)::getValueAsFloat;
    } else if (v instanceof Float4Vector) {
      return ((Float4Vector) v)::get;
    } else if (v instanceof Float8Vector) {
      return ((Float8Vector) v)::get;
    } else if (v instanceof DecimalVector) {
      return ((DecimalVector) v)::getObject;
    } else if (v instanceof Decimal256Vector) {
      return ((Decimal256Vector) v)::getObject;
    } else if (v instanceof VarCharVector
        || v instanceof LargeVarCharVector
        || (v instanceof BaseVariableWidthViewVector
            && v.getField().getType().getTypeID() == ArrowType.ArrowTypeID.Utf8View)) {
      return i -> new String(bytes(v, i), StandardCharsets.UTF_8);
    } else if (v instanceof VarBinaryVector
        || v instanceof LargeVarBinaryVector
        || v instanceof FixedSizeBinaryVector
        || v instanceof BaseVariableWidthViewVector) {
      return i -> new ByteString(bytes(v, i));
    }
    return temporal(v);
  }

  private static ValueReader temporal(FieldVector v) {
    if (v instanceof DateDayVector) {
      return ((DateDayVector) v)::get;
    } else if (v instanceof DateMilliVector) {
      DateMilliVector d = (DateMilliVector) v;
      return i -> Math.toIntExact(Math.floorDiv(d.get(i), MILLIS_PER_DAY));
    } else if (v instanceof TimeSecVector) {
      TimeSecVector t = (TimeSecVector) v;
      return i -> t.get(i) * 1000;
    } else if (v instanceof TimeMilliVector) {
      return ((TimeMilliVector) v)::get;
    } else if (v instanceof TimeMicroVector) {
      TimeMicroVector t = (TimeMicroVector) v;
      return i -> (int) Math.floorDiv(t.get(i), 1000L);
    } else if (v instanceof TimeNanoVector) {
      TimeNanoVector t = (TimeNanoVector) v;
      return i -> (int) Math.floorDiv(t.get(i), 1_000_000L);
    } else if (v instanceof TimeStampVector) {
      TimeStampVector t = (TimeStampVector) v;
      ArrowType.Timestamp type = (ArrowType.Timestamp) v.getField().getType();
      TimeUnit unit = type.getUnit();
      return i -> TimeUnits.toEngine(t.get(i), unit);
    } else if (v instanceof NullVector) {
      return i -> null;
    }
    throw new UnsupportedOperationException(
        "Cannot read Arrow vector of type "
            + v.getField().getType()
            + " (field '"
            + v.getField().getName()
            + "')");
  }

  private static byte[] bytes(FieldVector v, int i) {
    if (v instanceof VarCharVector) {
      return ((VarCharVector) v).get(i);
    } else if (v instanceof LargeVarCharVector) {
      return ((LargeVarCharVector) v).get(i);
    } else if (v instanceof VarBinaryVector) {
      return ((VarBinaryVector) v).get(i);
    } else if (v instanceof LargeVarBinaryVector) {
      return ((LargeVarBinaryVector) v).get(i);
    } else if (v instanceof FixedSizeBinaryVector) {
      return ((FixedSizeBinaryVector) v).get(i);
    }
    return ((BaseVariableWidthViewVector) v).get(i);
  }

  private static ValueReader struct(StructVector s) {
    List<FieldVector> children = s.getChildrenFromFields();
    ValueReader[] readers = new ValueReader[children.size()];
    for (int k = 0; k < readers.length; k++) {
      readers[k] = of(children.get(k));
    }
    return i -> {
      Object[] values = new Object[readers.length];
      for (int k = 0; k < readers.length; k++) {
        values[k] = readers[k].get(i);
      }
      return values;
    };
  }

  /** Index function used for list offsets. */
  @FunctionalInterface
  private interface IntIndex {
    int at(int index);
  }

  private static ValueReader list(ValueReader element, IntIndex start, IntIndex end) {
    return i -> {
      int from = start.at(i);
      int to = end.at(i);
      List<Object> out = new ArrayList<>(to - from);
      for (int k = from; k < to; k++) {
        out.add(element.get(k));
      }
      return out;
    };
  }

  private static ValueReader map(MapVector m) {
    StructVector entries = (StructVector) m.getDataVector();
    List<FieldVector> kv = entries.getChildrenFromFields();
    ValueReader key = of(kv.get(0));
    ValueReader value = of(kv.get(1));
    return i -> {
      int from = m.getElementStartIndex(i);
      int to = m.getElementEndIndex(i);
      Map<Object, Object> out = new LinkedHashMap<>();
      for (int k = from; k < to; k++) {
        out.put(key.get(k), value.get(k));
      }
      return out;
    };
  }
}

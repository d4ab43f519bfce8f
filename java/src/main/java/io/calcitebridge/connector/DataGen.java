package io.calcitebridge.connector;

import io.calcitebridge.catalog.ColumnDef;
import io.calcitebridge.catalog.TableDef;
import io.calcitebridge.catalog.TableStorage;
import io.calcitebridge.types.TypeNames;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Flink's {@code datagen} connector: rows generated from each physical column's type and its {@code
 * fields.<name>.*} options ({@code kind} random or sequence, {@code min}, {@code max}, {@code
 * max-past}, {@code length}, {@code var-len}, {@code null-rate}, {@code start}, {@code end}),
 * validated as Flink's {@code DataGenTableSourceFactory} validates them. The table holds {@code
 * number-of-rows} rows, or as many as its shortest sequence; without either it is unbounded and a
 * query reads it only up to a LIMIT. {@code rows-per-second} is accepted and does not slow a read.
 * With the option {@code seed} (ours) every scan gives the same rows.
 */
public final class DataGen implements TableStorage, ConnectorRoles {
  private static final String FIELDS = "fields";
  private static final float NO_NULLS = 0f;

  /** Makes a fresh generator of one value, for each scan. */
  private interface Spec extends Supplier<Gen> {}

  /** Generates one value at a time. */
  private interface Gen {
    @Nullable Object next(SplittableRandom random);
  }

  private final String table;
  private final List<Spec> fields;
  private final long rows; // -1: unbounded
  private final @Nullable Long seed;

  private DataGen(String table, List<Spec> fields, long rows, @Nullable Long seed) {
    this.table = table;
    this.fields = fields;
    this.rows = rows;
    this.seed = seed;
  }

  /** The storage of {@code def}, or an {@link IllegalArgumentException} with Flink's message. */
  static DataGen create(TableDef def) {
    ConnectorOptions options = new ConnectorOptions(def.options());
    options.longValue("rows-per-second", 10000);
    Long numberOfRows = options.longValue("number-of-rows");
    options.intValue("scan.parallelism", 1);
    Long seed = options.longValue("seed");
    List<Spec> fields = new ArrayList<>();
    long sequenceRows = -1;
    for (ColumnDef c : def.columns()) {
      if (c.isMetadata()) {
        throw new IllegalArgumentException(
            "Table '"
                + def.name()
                + "' declares metadata columns, but the underlying DynamicTableSource doesn't"
                + " implement the SupportsReadingMetadata interface. Therefore, metadata cannot be"
                + " read from the given table.");
      }
      if (!c.isScanned()) {
        continue;
      }
      String kind = options.string(key(c.name(), "kind"), "random");
      boolean notNull = !c.type().isNullable();
      if (kind.equals("random")) {
        fields.add(random(c.name(), c.type(), options, notNull));
      } else if (kind.equals("sequence")) {
        long[] range = new long[3];
        fields.add(sequence(c.name(), c.type(), options, range));
        if (range[2] == 1) {
          long n = Math.max(0, range[1] - range[0] + 1);
          sequenceRows = sequenceRows < 0 ? n : Math.min(sequenceRows, n);
        }
      } else {
        throw new IllegalArgumentException("Unsupported generator kind: " + kind);
      }
    }
    options.checkConsumed("datagen");
    long rows = numberOfRows == null ? sequenceRows : numberOfRows;
    if (numberOfRows != null && sequenceRows >= 0) {
      rows = Math.min(numberOfRows, sequenceRows);
    }
    return new DataGen(def.name(), fields, rows, seed);
  }

  /** Whether the table has no end: no {@code number-of-rows} and no sequence. */
  public boolean unbounded() {
    return rows < 0;
  }

  /** The table's name. */
  public String table() {
    return table;
  }

  @Override
  public Enumerable<Object[]> scan() {
    return scan(List.of(), null, null);
  }

  @Override
  public boolean takesLimit() {
    return true;
  }

  @Override
  public Enumerable<Object[]> scan(
      List<io.calcitebridge.expr.Expression> filters,
      int @Nullable [] projection,
      @Nullable Integer limit) {
    long n = rows;
    if (limit != null && (n < 0 || limit < n)) {
      n = limit;
    }
    final long count = n;
    Enumerable<Object[]> all =
        new AbstractEnumerable<Object[]>() {
          @Override
          public Enumerator<Object[]> enumerator() {
            List<Gen> gens = fields.stream().map(Supplier::get).toList();
            SplittableRandom random =
                seed == null ? new SplittableRandom() : new SplittableRandom(seed);
            return new Enumerator<Object[]>() {
              private long made;
              private Object @Nullable [] current;

              @Override
              public Object[] current() {
                return java.util.Objects.requireNonNull(current);
              }

              @Override
              public boolean moveNext() {
                if (count >= 0 && made >= count) {
                  return false;
                }
                Object[] row = new Object[gens.size()];
                for (int i = 0; i < row.length; i++) {
                  row[i] = gens.get(i).next(random);
                }
                made++;
                current = row;
                return true;
              }

              @Override
              public void reset() {
                throw new UnsupportedOperationException();
              }

              @Override
              public void close() {}
            };
          }
        };
    if (projection == null) {
      return all;
    }
    return all.select(
        r -> {
          Object[] out = new Object[projection.length];
          for (int i = 0; i < projection.length; i++) {
            out[i] = r[projection[i]];
          }
          return out;
        });
  }

  @Override
  public Enumerable<Object[]> scan(List<io.calcitebridge.expr.Expression> filters) {
    if (!filters.isEmpty()) {
      throw new IllegalStateException("this table takes no filters");
    }
    return scan(filters, null, null);
  }

  @Override
  public long insert(List<Object[]> rows) {
    throw new IllegalArgumentException(
        "Connector 'datagen' can only be used as a source. It cannot be used as a sink.");
  }

  @Override
  public boolean isWritable() {
    return false;
  }

  @Override
  public @Nullable Refusal sourceRefusal(String name) {
    return null;
  }

  @Override
  public @Nullable Refusal sinkRefusal(String name) {
    return new Refusal(
        io.calcitebridge.errors.ErrorKind.VALIDATION,
        "Connector 'datagen' can only be used as a source. It cannot be used as a sink.");
  }

  // ------------------------------------------------------------------ random

  private static String key(String field, String option) {
    return FIELDS + "." + field + "." + option;
  }

  private static Spec random(
      String name, RelDataType type, ConnectorOptions options, boolean notNull) {
    SqlTypeName t = type.getSqlTypeName();
    String nullKey = key(name, "null-rate");
    switch (t) {
      case BOOLEAN:
        return nullable(options, nullKey, notNull, () -> r -> r.nextBoolean());
      case TINYINT:
      case SMALLINT:
      case INTEGER:
        {
          long lo =
              t == SqlTypeName.TINYINT
                  ? Byte.MIN_VALUE
                  : t == SqlTypeName.SMALLINT ? Short.MIN_VALUE : Integer.MIN_VALUE;
          long hi =
              t == SqlTypeName.TINYINT
                  ? Byte.MAX_VALUE
                  : t == SqlTypeName.SMALLINT ? Short.MAX_VALUE : Integer.MAX_VALUE;
          long min = options.intValue(key(name, "min"), (int) lo);
          long max = options.intValue(key(name, "max"), (int) hi);
          return nullable(options, nullKey, notNull, () -> r -> narrow(t, between(r, min, max)));
        }
      case BIGINT:
        {
          long min = options.longValue(key(name, "min"), Long.MIN_VALUE);
          long max = options.longValue(key(name, "max"), Long.MAX_VALUE);
          return nullable(options, nullKey, notNull, () -> r -> between(r, min, max));
        }
      case REAL:
      case FLOAT:
        {
          // Flink's FLOAT: four bytes, whatever class holds it at run time
          float min = options.floatValue(key(name, "min"), Float.MIN_VALUE);
          float max = options.floatValue(key(name, "max"), Float.MAX_VALUE);
          boolean real = t == SqlTypeName.REAL;
          return nullable(
              options,
              nullKey,
              notNull,
              () ->
                  r -> {
                    float v = (float) (min + r.nextDouble() * ((double) max - min));
                    return real ? (Object) v : (Object) (double) v;
                  });
        }
      case DOUBLE:
        {
          double min = options.doubleValue(key(name, "min"), Double.MIN_VALUE);
          double max = options.doubleValue(key(name, "max"), Double.MAX_VALUE);
          return nullable(
              options, nullKey, notNull, () -> r -> min + r.nextDouble() * (max / 2 - min / 2) * 2);
        }
      case DECIMAL:
        {
          double min = options.doubleValue(key(name, "min"), Double.MIN_VALUE);
          double max = options.doubleValue(key(name, "max"), Double.MAX_VALUE);
          int p = type.getPrecision();
          int s = type.getScale();
          double bound = Math.pow(10, p - s) - Math.pow(10, -s);
          double lo = Math.max(min, -bound);
          double hi = Math.min(max, bound);
          return nullable(
              options,
              nullKey,
              notNull,
              () ->
                  r -> {
                    BigDecimal v =
                        new BigDecimal(lo + r.nextDouble() * (hi - lo))
                            .setScale(s, RoundingMode.DOWN);
                    return v.precision() > p ? BigDecimal.ZERO.setScale(s) : v;
                  });
        }
      case CHAR:
        {
          int length = type.getPrecision();
          return nullable(options, nullKey, notNull, () -> r -> hex(r, length));
        }
      case VARCHAR:
        {
          int declared = type.getPrecision();
          int length = options.intValue(key(name, "length"), declared);
          int chars =
              length == Integer.MAX_VALUE || length == RelDataType.PRECISION_NOT_SPECIFIED
                  ? 100
                  : length;
          boolean varLen = options.booleanValue(key(name, "var-len"), false);
          return nullable(
              options,
              nullKey,
              notNull,
              () -> r -> hex(r, varLen ? r.nextInt(1, Math.max(2, chars)) : chars));
        }
      case BINARY:
        {
          int length = type.getPrecision();
          return () -> r -> bytes(r, length);
        }
      case VARBINARY:
        {
          int declared = type.getPrecision();
          int length = options.intValue(key(name, "length"), declared);
          int n =
              length == Integer.MAX_VALUE || length == RelDataType.PRECISION_NOT_SPECIFIED
                  ? 100
                  : length;
          boolean varLen = options.booleanValue(key(name, "var-len"), false);
          return () -> r -> bytes(r, varLen ? r.nextInt(1, Math.max(2, n)) : n);
        }
      case TIMESTAMP:
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
        {
          Duration maxPast = options.duration(key(name, "max-past"), Duration.ZERO);
          long pastMillis = maxPast.toMillis();
          long scale = scale(type);
          return nullable(
              options,
              nullKey,
              notNull,
              () ->
                  r -> {
                    long past = pastMillis > 0 ? r.nextLong(0, pastMillis) : 0;
                    return (System.currentTimeMillis() - past) * scale;
                  });
        }
      case DATE:
      case TIME:
        return current(type);
      case ARRAY:
      case MULTISET:
        {
          int length = options.intValue(key(name, "length"), 3);
          Spec element =
              random(
                  name + ".element",
                  java.util.Objects.requireNonNull(type.getComponentType()),
                  options,
                  false);
          return nullable(
              options,
              nullKey,
              notNull,
              () -> {
                Gen e = element.get();
                return r -> {
                  List<@Nullable Object> out = new ArrayList<>();
                  for (int i = 0; i < length; i++) {
                    out.add(e.next(r));
                  }
                  return out;
                };
              });
        }
      case MAP:
        {
          int length = options.intValue(key(name, "length"), 3);
          Spec k =
              random(
                  name + ".key",
                  java.util.Objects.requireNonNull(type.getKeyType()),
                  options,
                  false);
          Spec v =
              random(
                  name + ".value",
                  java.util.Objects.requireNonNull(type.getValueType()),
                  options,
                  false);
          return nullable(
              options,
              nullKey,
              notNull,
              () -> {
                Gen kg = k.get();
                Gen vg = v.get();
                return r -> {
                  Map<@Nullable Object, @Nullable Object> out = new LinkedHashMap<>();
                  for (int i = 0; i < length; i++) {
                    out.put(kg.next(r), vg.next(r));
                  }
                  return out;
                };
              });
        }
      case ROW:
        {
          List<Spec> specs = new ArrayList<>();
          for (RelDataTypeField f : type.getFieldList()) {
            specs.add(
                random(name + "." + f.getName(), f.getType(), options, !f.getType().isNullable()));
          }
          return nullable(
              options,
              nullKey,
              notNull,
              () -> {
                List<Gen> gens = specs.stream().map(Supplier::get).toList();
                return r -> {
                  Object[] out = new Object[gens.size()];
                  for (int i = 0; i < out.length; i++) {
                    out[i] = gens.get(i).next(r);
                  }
                  return out;
                };
              });
        }
      default:
        if (t.getFamily() == SqlTypeFamily.INTERVAL_YEAR_MONTH) {
          long min = options.intValue(key(name, "min"), 0);
          long max = options.intValue(key(name, "max"), 120000);
          return nullable(options, nullKey, notNull, () -> r -> (int) between(r, min, max));
        }
        if (t.getFamily() == SqlTypeFamily.INTERVAL_DAY_TIME) {
          long min = options.longValue(key(name, "min"), Long.MIN_VALUE);
          long max = options.longValue(key(name, "max"), Long.MAX_VALUE);
          return nullable(options, nullKey, notNull, () -> r -> between(r, min, max));
        }
        throw new IllegalArgumentException("Unsupported type: " + TypeNames.renderNullable(type));
    }
  }

  /** A column of the current date or time, as Flink's datagen fills DATE and TIME columns. */
  private static Spec current(RelDataType type) {
    if (type.getSqlTypeName() == SqlTypeName.DATE) {
      return () -> r -> (int) LocalDate.now().toEpochDay();
    }
    return () -> r -> (int) (LocalTime.now().toNanoOfDay() / 1_000_000);
  }

  /** The factor from milliseconds to a TIMESTAMP(p)'s runtime unit. */
  private static long scale(RelDataType type) {
    if (type.getSqlTypeName() != SqlTypeName.TIMESTAMP || type.getPrecision() <= 3) {
      return 1;
    }
    return type.getPrecision() <= 6 ? 1_000 : 1_000_000;
  }

  /** {@code spec} giving NULL at the column's {@code null-rate} (never in a NOT NULL column). */
  private static Spec nullable(
      ConnectorOptions options, String nullKey, boolean notNull, Spec spec) {
    float rate = options.floatValue(nullKey, NO_NULLS);
    if (rate == NO_NULLS || notNull) {
      return spec;
    }
    return () -> {
      Gen g = spec.get();
      return r -> r.nextFloat() < rate ? null : g.next(r);
    };
  }

  private static long between(SplittableRandom r, long min, long max) {
    if (min >= max) {
      return min;
    }
    if (max < Long.MAX_VALUE) {
      return r.nextLong(min, max + 1);
    }
    if (min > Long.MIN_VALUE) {
      return r.nextLong(min - 1, max) + 1;
    }
    return r.nextLong();
  }

  private static Object narrow(SqlTypeName t, long v) {
    return switch (t) {
      case TINYINT -> (byte) v;
      case SMALLINT -> (short) v;
      default -> (int) v;
    };
  }

  private static String hex(SplittableRandom r, int length) {
    StringBuilder b = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      b.append(Character.forDigit(r.nextInt(16), 16));
    }
    return b.toString();
  }

  private static ByteString bytes(SplittableRandom r, int length) {
    byte[] out = new byte[length];
    r.nextBytes(out);
    return new ByteString(out);
  }

  // ------------------------------------------------------------------ sequence

  /**
   * A sequence from {@code start} to {@code end} (both required), as Flink's {@code
   * SequenceGeneratorVisitor}; {@code range} receives them.
   */
  private static Spec sequence(
      String name, RelDataType type, ConnectorOptions options, long[] range) {
    String startKey = key(name, "start");
    String endKey = key(name, "end");
    if (!options.has(startKey)) {
      throw new IllegalArgumentException(
          "Could not find required property '" + startKey + "' for sequence generator.");
    }
    if (!options.has(endKey)) {
      throw new IllegalArgumentException(
          "Could not find required property '" + endKey + "' for sequence generator.");
    }
    SqlTypeName t = type.getSqlTypeName();
    switch (t) {
      case BOOLEAN:
        return () -> r -> r.nextBoolean();
      case DATE:
      case TIME:
        return current(type);
      case TIMESTAMP:
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
        {
          long scale = scale(type);
          return () -> r -> System.currentTimeMillis() * scale;
        }
      default:
        break;
    }
    boolean wide =
        t == SqlTypeName.BIGINT
            || t == SqlTypeName.CHAR
            || t == SqlTypeName.VARCHAR
            || t == SqlTypeName.BINARY
            || t == SqlTypeName.VARBINARY;
    long start;
    long end;
    if (wide) {
      start = options.longValue(startKey, 0);
      end = options.longValue(endKey, 0);
    } else {
      start = options.intValue(startKey, 0);
      end = options.intValue(endKey, 0);
    }
    range[0] = start;
    range[1] = end;
    range[2] = 1;
    java.util.function.LongFunction<Object> value;
    switch (t) {
      case TINYINT:
        value = v -> (byte) v;
        break;
      case SMALLINT:
        value = v -> (short) v;
        break;
      case INTEGER:
        value = v -> (int) v;
        break;
      case BIGINT:
        value = v -> v;
        break;
      case REAL:
        value = v -> (float) (short) v;
        break;
      case FLOAT:
        value = v -> (double) (float) (short) v;
        break;
      case DOUBLE:
        value = v -> (double) v;
        break;
      case DECIMAL:
        {
          int s = type.getScale();
          value = v -> BigDecimal.valueOf(v).setScale(s, RoundingMode.DOWN);
          break;
        }
      case CHAR:
      case VARCHAR:
        value = Long::toString;
        break;
      case BINARY:
      case VARBINARY:
        value = v -> new ByteString(ByteBuffer.allocate(8).putLong(v).array());
        break;
      default:
        throw new IllegalArgumentException("Unsupported type: " + TypeNames.renderNullable(type));
    }
    return () -> {
      long[] next = new long[] {start};
      return r -> value.apply(next[0]++);
    };
  }
}

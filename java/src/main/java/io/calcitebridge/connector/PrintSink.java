package io.calcitebridge.connector;

import io.calcitebridge.catalog.ColumnDef;
import io.calcitebridge.catalog.TableDef;
import io.calcitebridge.catalog.TableStorage;
import io.calcitebridge.errors.ErrorKind;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.type.SqlTypeName;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Flink's sinks {@code print} (each row written as Flink's {@code Row} prints it, {@code +I[1, a]},
 * to standard output, or standard error with {@code 'standard-error' = 'true'}, after {@code
 * 'print-identifier'> } when one is given) and {@code blackhole} (rows dropped). Neither can be
 * read.
 */
public final class PrintSink implements TableStorage, ConnectorRoles {
  /** Where printed rows go instead of standard output and standard error (a test, a callback). */
  private static volatile @Nullable Consumer<String> redirect;

  private final String connector;
  private final List<RelDataType> types;
  private final String prefix;
  private final boolean standardError;

  private PrintSink(
      String connector, List<RelDataType> types, String prefix, boolean standardError) {
    this.connector = connector;
    this.types = types;
    this.prefix = prefix;
    this.standardError = standardError;
  }

  static PrintSink print(TableDef def) {
    ConnectorOptions options = new ConnectorOptions(def.options());
    options.accept("property-version");
    String identifier = options.string("print-identifier", "");
    boolean standardError = options.booleanValue("standard-error", false);
    options.intValue("sink.parallelism", 1);
    options.checkConsumed("print");
    return new PrintSink(
        "print", types(def), identifier.isEmpty() ? "" : identifier + "> ", standardError);
  }

  static PrintSink blackhole(TableDef def) {
    ConnectorOptions options = new ConnectorOptions(def.options());
    options.accept("property-version");
    options.checkConsumed("blackhole");
    return new PrintSink("blackhole", types(def), "", false);
  }

  private static List<RelDataType> types(TableDef def) {
    return def.writableColumns().stream().map(ColumnDef::type).toList();
  }

  /**
   * Sends the lines the print connector writes to {@code lines} instead of standard output, or back
   * to it with null.
   */
  public static void redirect(@Nullable Consumer<String> lines) {
    redirect = lines;
  }

  @Override
  public @Nullable Refusal sourceRefusal(String name) {
    return new Refusal(
        ErrorKind.VALIDATION,
        "Connector '" + connector + "' can only be used as a sink. It cannot be used as a source.");
  }

  @Override
  public @Nullable Refusal sinkRefusal(String name) {
    return null;
  }

  @Override
  public Enumerable<Object[]> scan() {
    throw new IllegalStateException(
        "Connector '" + connector + "' can only be used as a sink. It cannot be used as a source.");
  }

  @Override
  public long insert(List<Object[]> rows) {
    if (connector.equals("blackhole")) {
      return rows.size();
    }
    Consumer<String> to = redirect;
    PrintStream out = standardError ? System.err : System.out;
    for (Object[] row : rows) {
      String line = prefix + "+I" + rowText(row, types);
      if (to != null) {
        to.accept(line);
      } else {
        out.println(line);
      }
    }
    out.flush();
    return rows.size();
  }

  /** A row as Flink's {@code Row.toString} writes it: {@code [1, a, null]}. */
  static String rowText(Object[] row, List<RelDataType> types) {
    List<String> parts = new ArrayList<>();
    for (int i = 0; i < row.length; i++) {
      parts.add(text(row[i], types.get(i)));
    }
    return "[" + String.join(", ", parts) + "]";
  }

  /** A value as Flink's print connector writes it: its external Java object's text. */
  static String text(@Nullable Object v, RelDataType type) {
    if (v == null) {
      return "null";
    }
    SqlTypeName t = type.getSqlTypeName();
    switch (t) {
      case DATE:
        return LocalDate.ofEpochDay(((Number) v).longValue()).toString();
      case TIME:
        return LocalTime.ofNanoOfDay(((Number) v).longValue() * 1_000_000).toString();
      case TIMESTAMP:
        {
          long n = ((Number) v).longValue();
          int p = type.getPrecision();
          long nanosPerUnit = p <= 3 ? 1_000_000 : p <= 6 ? 1_000 : 1;
          long perSecond = 1_000_000_000 / nanosPerUnit;
          long seconds = Math.floorDiv(n, perSecond);
          long nanos = Math.floorMod(n, perSecond) * nanosPerUnit;
          return LocalDateTime.ofEpochSecond(seconds, (int) nanos, ZoneOffset.UTC).toString();
        }
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
        return Instant.ofEpochMilli(((Number) v).longValue()).toString();
      case BINARY:
      case VARBINARY:
        return Arrays.toString(((ByteString) v).getBytes());
      case DECIMAL:
        return v instanceof BigDecimal d ? d.toPlainString() : v.toString();
      case ARRAY:
        {
          RelDataType e = java.util.Objects.requireNonNull(type.getComponentType());
          List<String> parts = new ArrayList<>();
          for (Object o : (List<?>) v) {
            parts.add(text(o, e));
          }
          return "[" + String.join(", ", parts) + "]";
        }
      case MULTISET:
        {
          RelDataType e = java.util.Objects.requireNonNull(type.getComponentType());
          Map<String, Integer> counts = new LinkedHashMap<>();
          for (Object o : (List<?>) v) {
            counts.merge(text(o, e), 1, Integer::sum);
          }
          return counts.toString();
        }
      case MAP:
        {
          RelDataType k = java.util.Objects.requireNonNull(type.getKeyType());
          RelDataType val = java.util.Objects.requireNonNull(type.getValueType());
          List<String> parts = new ArrayList<>();
          for (Iterator<? extends Map.Entry<?, ?>> it = ((Map<?, ?>) v).entrySet().iterator();
              it.hasNext(); ) {
            Map.Entry<?, ?> en = it.next();
            parts.add(text(en.getKey(), k) + "=" + text(en.getValue(), val));
          }
          return "{" + String.join(", ", parts) + "}";
        }
      case ROW:
        {
          Object[] fields = v instanceof Object[] a ? a : ((List<?>) v).toArray();
          List<RelDataType> fieldTypes =
              type.getFieldList().stream().map(f -> f.getType()).toList();
          return "+I" + rowText(fields, fieldTypes);
        }
      default:
        return v.toString();
    }
  }
}

package io.calcitebridge.statement;

import io.calcitebridge.errors.ErrorKind;
import io.calcitebridge.errors.PositionedException;
import io.calcitebridge.json.JsonValues;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.avatica.util.TimeUnit;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.util.SqlShuttle;
import org.apache.calcite.util.DateString;
import org.apache.calcite.util.TimeString;
import org.apache.calcite.util.TimestampString;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The values of a statement's {@code ?} placeholders (positional, in the order they appear). Each
 * value replaces its placeholder in the parsed statement as a typed literal node (or an {@code
 * ARRAY[...]}, {@code MAP[...]}, {@code ROW(...)} of them): never as SQL text, so a value cannot
 * change the statement. A value has the type a literal of it has: an integer is {@code INT} when it
 * fits, else {@code BIGINT} or {@code DECIMAL}; a string {@code CHAR(n)}; a {@link LocalDateTime}
 * {@code TIMESTAMP}, an {@link Instant} {@code TIMESTAMP_LTZ}; a {@link Duration} {@code INTERVAL
 * DAY TO SECOND}; a {@link List} an {@code ARRAY}, a {@link Map} a {@code MAP}, an {@code Object[]}
 * a {@code ROW}.
 */
public final class Parameters {

  private final List<@Nullable Object> values;

  private Parameters(List<@Nullable Object> values) {
    this.values = values;
  }

  /**
   * The values, in the order of the placeholders. JDBC's {@link java.sql.Date}, {@link
   * java.sql.Time} and {@link java.sql.Timestamp} are their {@code java.time} values, in lists and
   * maps too.
   */
  public static Parameters of(List<?> values) {
    List<@Nullable Object> out = new ArrayList<>(values.size());
    for (Object v : values) {
      out.add(jdbc(v));
    }
    return new Parameters(Collections.unmodifiableList(out));
  }

  private static @Nullable Object jdbc(@Nullable Object value) {
    if (value instanceof java.sql.Timestamp t) {
      return t.toLocalDateTime();
    }
    if (value instanceof java.sql.Date d) {
      return d.toLocalDate();
    }
    if (value instanceof java.sql.Time t) {
      return t.toLocalTime();
    }
    if (value instanceof List<?> list) {
      List<@Nullable Object> out = new ArrayList<>(list.size());
      for (Object v : list) {
        out.add(jdbc(v));
      }
      return out;
    }
    if (value instanceof Map<?, ?> map) {
      Map<@Nullable Object, @Nullable Object> out = new LinkedHashMap<>();
      for (Map.Entry<?, ?> e : map.entrySet()) {
        out.put(jdbc(e.getKey()), jdbc(e.getValue()));
      }
      return out;
    }
    return value;
  }

  /** How many values there are. */
  public int size() {
    return values.size();
  }

  /**
   * The values Python sends: a JSON list of {@code {"t": type, "v": value}} (see {@code
   * calcite_bridge/_params.py}), or null for a statement without parameters.
   */
  public static @Nullable Parameters fromJson(@Nullable String json) {
    if (json == null) {
      return null;
    }
    return of(read(json));
  }

  /**
   * The values Python sends as Java scalars, when each is null, a {@link Boolean}, a {@link Long},
   * a {@link Double} or a {@link String} (JPype's conversion of None, bool, int, float and str):
   * bound as the same values sent as JSON are.
   */
  public static Parameters fromScalars(@Nullable Object[] values) {
    return new Parameters(Collections.unmodifiableList(java.util.Arrays.asList(values.clone())));
  }

  /**
   * A short name of the values' types ({@code i} an INT, {@code l} a BIGINT, {@code s3} a CHAR(3),
   * ...), the same for any values whose literals have the same types, so that the types a plan is
   * kept for are found without making a literal of each value; null when a value is of another
   * class, or one whose type this name cannot tell (a NULL, a non-finite double, a string with a
   * surrogate).
   */
  public @Nullable String typeSignature() {
    StringBuilder out = new StringBuilder(values.size() * 3);
    for (Object v : values) {
      if (v instanceof Boolean) {
        out.append('b');
      } else if (v instanceof Long || v instanceof Integer) {
        long n = ((Number) v).longValue();
        out.append(n >= Integer.MIN_VALUE && n <= Integer.MAX_VALUE ? 'i' : 'l');
      } else if (v instanceof Double d && Double.isFinite(d)) {
        out.append('d');
      } else if (v instanceof String text && !hasSurrogate(text)) {
        out.append('s').append(text.length()).append(',');
      } else {
        return null;
      }
    }
    return out.toString();
  }

  private static boolean hasSurrogate(String text) {
    for (int i = 0; i < text.length(); i++) {
      if (Character.isSurrogate(text.charAt(i))) {
        return true;
      }
    }
    return false;
  }

  /** Rows of values, as Python sends them for a batch: a JSON list of {@link #fromJson} lists. */
  public static List<Parameters> rowsFromJson(String json) {
    List<Parameters> rows = new ArrayList<>();
    for (Object row : items(read(json))) {
      rows.add(of(row));
    }
    return rows;
  }

  /**
   * The JSON value of {@code json}, read without Jackson's data binding (whose first mapper costs a
   * new process's first statement with parameters 60 ms or more).
   */
  private static @Nullable Object read(String json) {
    try {
      return JsonValues.parse(json);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("Malformed parameters: " + e.getMessage(), e);
    }
  }

  /** The elements of a JSON array (none for any other value). */
  private static List<?> items(@Nullable Object array) {
    return array instanceof List<?> list ? list : List.of();
  }

  /** A JSON value as a boolean, as Jackson's {@code asBoolean()}: "true", or a non-zero number. */
  private static boolean bool(@Nullable Object value) {
    if (value instanceof Boolean b) {
      return b;
    }
    if (value instanceof Number n) {
      return n.intValue() != 0;
    }
    return value instanceof String s && s.trim().equals("true");
  }

  private static Parameters of(@Nullable Object list) {
    List<@Nullable Object> out = new ArrayList<>();
    for (Object item : items(list)) {
      out.add(decode(item));
    }
    return new Parameters(Collections.unmodifiableList(out));
  }

  private static @Nullable Object decode(@Nullable Object item) {
    Map<?, ?> entry = item instanceof Map<?, ?> m ? m : Map.of();
    String type = JsonValues.text(entry.get("t"));
    Object v = entry.get("v");
    switch (type) {
      case "NULL":
        return null;
      case "BOOLEAN":
        return bool(v);
      case "INTEGER":
        return new BigInteger(JsonValues.text(v));
      case "DECIMAL":
        return new BigDecimal(JsonValues.text(v));
      case "DOUBLE":
        return Double.valueOf(JsonValues.text(v));
      case "STRING":
        return JsonValues.text(v);
      case "BYTES":
        return Base64.getDecoder().decode(JsonValues.text(v));
      case "DATE":
        return LocalDate.parse(JsonValues.text(v));
      case "TIME":
        return LocalTime.parse(JsonValues.text(v));
      case "TIMESTAMP":
        return LocalDateTime.parse(JsonValues.text(v));
      case "TIMESTAMP_LTZ":
        return Instant.parse(JsonValues.text(v));
      case "INTERVAL":
        return Duration.ofSeconds(0, 1000L * Long.parseLong(JsonValues.text(v)));
      case "ARRAY":
        {
          List<@Nullable Object> elements = new ArrayList<>();
          items(v).forEach(e -> elements.add(decode(e)));
          return elements;
        }
      case "MAP":
        {
          Map<@Nullable Object, @Nullable Object> map = new LinkedHashMap<>();
          for (Object e : items(v)) {
            List<?> pair = items(e);
            map.put(decode(pair.get(0)), decode(pair.get(1)));
          }
          return map;
        }
      case "ROW":
        {
          List<@Nullable Object> fields = new ArrayList<>();
          items(v).forEach(e -> fields.add(decode(e)));
          return new Row(fields.toArray());
        }
      default:
        return new Unbindable(v == null ? type : JsonValues.text(v));
    }
  }

  /** A ROW value that came from Python (a tuple). */
  private record Row(@Nullable Object[] fields) {}

  /** A value Python could not send as any SQL type; binding it fails at its placeholder. */
  private record Unbindable(String description) {}

  /** The placeholders of {@code node}, in the order of their index. */
  public static List<SqlDynamicParam> placeholders(SqlNode node) {
    List<SqlDynamicParam> found = new ArrayList<>();
    node.accept(
        new SqlShuttle() {
          @Override
          public SqlNode visit(SqlDynamicParam param) {
            found.add(param);
            return param;
          }
        });
    found.sort(java.util.Comparator.comparingInt(SqlDynamicParam::getIndex));
    return found;
  }

  /**
   * {@code node} with each placeholder replaced by its value; a count that differs from the
   * placeholders' fails at the first placeholder without a value (or the last one, with too many
   * values), and so does a value that cannot be bound, at its own. {@code zone} is the session time
   * zone, in which an {@link Instant} becomes a {@code TIMESTAMP_LTZ}.
   */
  public SqlNode bind(SqlNode node, ZoneId zone) {
    return bind(node, zone, true, null);
  }

  /**
   * As {@link #bind(SqlNode, ZoneId)}, for a statement that Calcite's engine runs with its values
   * as literals (an INSERT): a DOUBLE {@code -0.0}, which no literal holds (a literal's number is a
   * BigDecimal, and a constant expression's zero has no sign, as in Flink), stays a placeholder,
   * {@code CAST(? AS DOUBLE)}, numbered after those in {@code kept} (in the order of the text, as
   * the parser numbers the placeholders of a statement unparsed and read again), its value put in
   * {@code kept} under the name the engine's code reads it by ({@code "?0"}). So the value keeps
   * its sign, as a query's parameter and a stored value do.
   */
  public SqlNode bindKeepingZeros(SqlNode node, ZoneId zone, Map<String, Object> kept) {
    return bind(node, zone, true, kept);
  }

  /** Whether {@code value} is a floating-point zero with a minus sign. */
  private static boolean negativeZero(@Nullable Object value) {
    return (value instanceof Double || value instanceof Float)
        && ((Number) value).doubleValue() == 0.0
        && 1 / ((Number) value).doubleValue() < 0;
  }

  /**
   * An {@code INSERT ... VALUES (?, ...)} of one row with every placeholder in that row, made an
   * {@code INSERT} of one row per element of {@code rows}, each bound to its values: one statement,
   * planned once, for a whole batch. Null for any other statement, which then runs once per row.
   */
  public static @Nullable SqlNode batch(SqlNode node, List<Parameters> rows, ZoneId zone) {
    return batch(node, rows, zone, null);
  }

  /**
   * As {@link #batch(SqlNode, List, ZoneId)}, a DOUBLE {@code -0.0} of any row kept a placeholder
   * whose value is put in {@code kept}, as {@link #bindKeepingZeros} keeps it.
   */
  public static @Nullable SqlNode batch(
      SqlNode node, List<Parameters> rows, ZoneId zone, @Nullable Map<String, Object> kept) {
    if (!(node instanceof org.apache.calcite.sql.SqlInsert insert) || rows.isEmpty()) {
      return null;
    }
    SqlNode source = insert.getSource();
    if (source.getKind() != org.apache.calcite.sql.SqlKind.VALUES
        || !(source instanceof org.apache.calcite.sql.SqlCall values)
        || values.operandCount() != 1) {
      return null;
    }
    SqlNode row = values.operand(0);
    int inRow = placeholders(row).size();
    if (inRow == 0 || inRow != placeholders(node).size()) {
      return null;
    }
    List<SqlNode> bound = new ArrayList<>();
    for (Parameters p : rows) {
      bound.add(p.bind(row, zone, false, kept));
    }
    insert.setOperand(2, SqlStdOperatorTable.VALUES.createCall(source.getParserPosition(), bound));
    return insert;
  }

  private SqlNode bind(
      SqlNode node, ZoneId zone, boolean statement, @Nullable Map<String, Object> kept) {
    List<SqlDynamicParam> params = checked(node, statement);
    if (params.isEmpty()) {
      return node;
    }
    for (SqlDynamicParam p : rowCounts(node)) {
      checkCount(values.get(p.getIndex()), p);
    }
    SqlNode[] bound = new SqlNode[params.size()];
    for (SqlDynamicParam p : params) {
      Object value = values.get(p.getIndex());
      if (kept != null && negativeZero(value)) {
        SqlParserPos pos = p.getParserPosition();
        int index = kept.size();
        kept.put("?" + index, ((Number) value).doubleValue());
        bound[p.getIndex()] =
            cast(new SqlDynamicParam(index, pos), type(SqlTypeName.DOUBLE, -1, pos), pos);
      } else {
        bound[p.getIndex()] = literal(value, p.getIndex() + 1, p, zone);
      }
    }
    SqlNode out =
        node.accept(
            new SqlShuttle() {
              @Override
              public SqlNode visit(SqlDynamicParam param) {
                return bound[param.getIndex()];
              }
            });
    return java.util.Objects.requireNonNull(out);
  }

  /**
   * The placeholders of {@code node}, once their count is the values' and (for a {@code statement})
   * the statement is one that may have parameters.
   */
  private List<SqlDynamicParam> checked(SqlNode node, boolean statement) {
    List<SqlDynamicParam> params = placeholders(node);
    if (params.size() != values.size()) {
      SqlParserPos pos =
          params.isEmpty()
              ? node.getParserPosition()
              : params.get(Math.min(values.size(), params.size() - 1)).getParserPosition();
      throw new PositionedException(
          ErrorKind.VALIDATION,
          "The statement has "
              + count(params.size(), "parameter")
              + " (?) but "
              + count(values.size(), "value")
              + (values.size() == 1 ? " was" : " were")
              + " given",
          pos);
    }
    if (params.isEmpty()) {
      return params;
    }
    if (statement
        && !node.isA(org.apache.calcite.sql.SqlKind.QUERY)
        && !node.isA(
            java.util.EnumSet.of(
                org.apache.calcite.sql.SqlKind.INSERT,
                org.apache.calcite.sql.SqlKind.UPDATE,
                org.apache.calcite.sql.SqlKind.DELETE,
                org.apache.calcite.sql.SqlKind.EXPLAIN))) {
      throw new PositionedException(
          ErrorKind.VALIDATION,
          "Parameters (?) are allowed in queries, INSERT, UPDATE, DELETE and EXPLAIN only, not in "
              + node.getKind(),
          params.get(0).getParserPosition());
    }
    return params;
  }

  /** The SQL types a value may keep as a typed dynamic parameter of a cached plan. */
  private static final java.util.Set<SqlTypeName> DYNAMIC =
      java.util.EnumSet.of(
          SqlTypeName.BOOLEAN,
          SqlTypeName.INTEGER,
          SqlTypeName.BIGINT,
          SqlTypeName.DECIMAL,
          SqlTypeName.DOUBLE,
          SqlTypeName.CHAR,
          SqlTypeName.DATE,
          SqlTypeName.TIMESTAMP);

  /**
   * The type of each value, the type a literal of it has (as {@link #bind} makes it), when every
   * value can be bound at execution into a plan that keeps its placeholder as a typed dynamic
   * parameter; null when one cannot (NULL, a value of another type, a timestamp finer than a
   * millisecond, a non-finite double), and the statement is then planned with its values as
   * literals.
   */
  public @Nullable List<RelDataType> dynamicTypes(
      org.apache.calcite.rel.type.RelDataTypeFactory typeFactory, ZoneId zone) {
    List<RelDataType> types = new ArrayList<>();
    for (Object value : values) {
      if (value == null || value instanceof Unbindable) {
        return null;
      }
      SqlNode node;
      try {
        node = node(value, SqlParserPos.ZERO, zone);
      } catch (IllegalArgumentException | java.time.DateTimeException e) {
        return null; // fails at its placeholder on the literal path
      }
      if (!(node instanceof SqlLiteral literal)) {
        return null;
      }
      RelDataType type = literal.createSqlType(typeFactory);
      SqlTypeName name = type.getSqlTypeName();
      if (!DYNAMIC.contains(name)
          || (name == SqlTypeName.TIMESTAMP && type.getPrecision() > 3)
          || (value instanceof LocalTime)) {
        return null;
      }
      types.add(typeFactory.createTypeWithNullability(type, false));
    }
    return types;
  }

  /**
   * {@code node} with each placeholder kept as a dynamic parameter cast to {@code types}' type (NOT
   * NULL): {@code CAST(? AS INTEGER)}, so the statement validates, infers and plans as it would
   * with the values as literals, and one plan serves every value of those types. The count and the
   * kind of statement are checked as {@link #bind} checks them.
   */
  public SqlNode parametrize(SqlNode node, List<RelDataType> types) {
    List<SqlDynamicParam> params = checked(node, true);
    if (params.isEmpty()) {
      return node;
    }
    SqlNode out =
        node.accept(
            new SqlShuttle() {
              @Override
              public SqlNode visit(SqlDynamicParam param) {
                SqlParserPos pos = param.getParserPosition();
                SqlDataTypeSpec spec =
                    org.apache.calcite.sql.type.SqlTypeUtil.convertTypeToSpec(
                            types.get(param.getIndex()))
                        .withNullable(false);
                return cast(param, spec, pos);
              }
            });
    return java.util.Objects.requireNonNull(out);
  }

  /** The placeholders of {@code node} that are a LIMIT, OFFSET or FETCH count. */
  private static List<SqlDynamicParam> rowCounts(SqlNode node) {
    List<SqlDynamicParam> found = new ArrayList<>();
    node.accept(
        new SqlShuttle() {
          @Override
          public @Nullable SqlNode visit(org.apache.calcite.sql.SqlCall call) {
            List<@Nullable SqlNode> counts =
                call instanceof org.apache.calcite.sql.SqlSelect select
                    ? java.util.Arrays.asList(select.getFetch(), select.getOffset())
                    : call instanceof org.apache.calcite.sql.SqlOrderBy order
                        ? java.util.Arrays.asList(order.fetch, order.offset)
                        : List.of();
            for (SqlNode n : counts) {
              if (n instanceof SqlDynamicParam p) {
                found.add(p);
              }
            }
            return super.visit(call);
          }
        });
    return found;
  }

  /**
   * A LIMIT, OFFSET or FETCH count must be a whole number of rows, 0 or more, as its literal must
   * be: anything else is a validation error at its placeholder (it failed inside the plan, or in a
   * source's scan).
   */
  private static void checkCount(@Nullable Object value, SqlDynamicParam param) {
    if (value instanceof Unbindable) {
      return; // its own error, when it is bound
    }
    BigInteger n = null;
    if (value instanceof Integer
        || value instanceof Long
        || value instanceof Short
        || value instanceof Byte
        || value instanceof BigInteger) {
      n = new BigInteger(value.toString());
    } else if (value instanceof BigDecimal d && d.stripTrailingZeros().scale() <= 0) {
      n = d.toBigIntegerExact();
    }
    if (n != null && n.signum() >= 0 && n.bitLength() < 64) {
      return;
    }
    String given =
        value == null
            ? "NULL"
            : n != null
                ? n.toString()
                : value instanceof String text
                    ? "the string '" + text + "'"
                    : value instanceof Number
                        ? "the number " + value
                        : "a " + value.getClass().getSimpleName() + " (" + value + ")";
    throw new PositionedException(
        ErrorKind.VALIDATION,
        "Parameter "
            + (param.getIndex() + 1)
            + " is a count of rows (LIMIT, OFFSET or FETCH): it must be a whole number of 0 or"
            + " more, not "
            + given,
        param.getParserPosition());
  }

  /**
   * Whether a placeholder of {@code node} is a LIMIT, OFFSET or FETCH count, which a plan takes as
   * a number, not as an expression: such a query is planned with its values as literals.
   */
  public static boolean countsRows(SqlNode node) {
    boolean[] found = {false};
    node.accept(
        new SqlShuttle() {
          @Override
          public @Nullable SqlNode visit(org.apache.calcite.sql.SqlCall call) {
            if (call instanceof org.apache.calcite.sql.SqlSelect select) {
              found[0] |=
                  select.getFetch() instanceof SqlDynamicParam
                      || select.getOffset() instanceof SqlDynamicParam;
            } else if (call instanceof org.apache.calcite.sql.SqlOrderBy order) {
              found[0] |=
                  order.fetch instanceof SqlDynamicParam || order.offset instanceof SqlDynamicParam;
            }
            return super.visit(call);
          }
        });
    return found[0];
  }

  /**
   * Value {@code i} as Calcite's generated code reads a dynamic parameter of {@code type} from its
   * context ({@code "?i"}): an int of days for a DATE, a long of milliseconds for a TIMESTAMP, a
   * BigDecimal, an Integer, a Long, a Double, a String, a Boolean.
   */
  public @Nullable Object local(int i, RelDataType type) {
    Object v = values.get(i);
    switch (type.getSqlTypeName()) {
      case INTEGER:
        return ((Number) java.util.Objects.requireNonNull(v)).intValue();
      case BIGINT:
        return ((Number) java.util.Objects.requireNonNull(v)).longValue();
      case DECIMAL:
        return v instanceof BigDecimal d ? d : new BigDecimal(String.valueOf(v));
      case DOUBLE:
        return ((Number) java.util.Objects.requireNonNull(v)).doubleValue();
      case DATE:
        return (int) ((LocalDate) java.util.Objects.requireNonNull(v)).toEpochDay();
      case TIMESTAMP:
        {
          LocalDateTime t = (LocalDateTime) java.util.Objects.requireNonNull(v);
          return t.toInstant(java.time.ZoneOffset.UTC).toEpochMilli();
        }
      case CHAR:
        return v instanceof Character c ? c.toString() : v;
      default:
        return v;
    }
  }

  /** Value {@code i} as it was given. */
  public @Nullable Object value(int i) {
    return values.get(i);
  }

  /** Value {@code i} when it is an integer of 64 bits, else null. */
  @Nullable Long integer(int i) {
    Object v = values.get(i);
    return v instanceof Long || v instanceof Integer ? ((Number) v).longValue() : null;
  }

  /** Value {@code i} as a literal of {@code type}, for a filter offered to a source. */
  public org.apache.calcite.rex.RexNode rexLiteral(
      int i, org.apache.calcite.rex.RexBuilder rexBuilder, RelDataType type) {
    Object v = java.util.Objects.requireNonNull(values.get(i));
    Object literal;
    switch (type.getSqlTypeName()) {
      case INTEGER:
      case BIGINT:
      case DECIMAL:
        literal = v instanceof BigDecimal d ? d : new BigDecimal(String.valueOf(v));
        break;
      case DOUBLE:
        literal = ((Number) v).doubleValue();
        break;
      case DATE:
        {
          LocalDate d = (LocalDate) v;
          literal = new DateString(d.getYear(), d.getMonthValue(), d.getDayOfMonth());
          break;
        }
      case TIMESTAMP:
        {
          LocalDateTime t = (LocalDateTime) v;
          literal =
              new TimestampString(
                      t.getYear(),
                      t.getMonthValue(),
                      t.getDayOfMonth(),
                      t.getHour(),
                      t.getMinute(),
                      t.getSecond())
                  .withNanos(t.getNano());
          break;
        }
      case CHAR:
        literal = String.valueOf(v);
        break;
      default:
        literal = v;
    }
    return rexBuilder.makeLiteral(literal, type, false);
  }

  private static String count(int n, String noun) {
    return n + " " + noun + (n == 1 ? "" : "s");
  }

  private static SqlNode literal(
      @Nullable Object value, int number, SqlDynamicParam param, ZoneId zone) {
    SqlParserPos pos = param.getParserPosition();
    try {
      SqlNode node = node(value, pos, zone);
      // A number known to the validator as a parameter's, which a narrower column takes when it
      // fits (an int into a TINYINT column).
      return node instanceof SqlNumericLiteral n
          ? io.calcitebridge.sql.ParameterNumber.of(n, number)
          : node;
    } catch (IllegalArgumentException | java.time.DateTimeException e) {
      throw new PositionedException(
          ErrorKind.VALIDATION, "Parameter " + number + " cannot be bound: " + e.getMessage(), pos);
    }
  }

  private static SqlNode node(@Nullable Object value, SqlParserPos pos, ZoneId zone) {
    if (value == null) {
      return SqlLiteral.createNull(pos);
    }
    if (value instanceof Boolean b) {
      return SqlLiteral.createBoolean(b, pos);
    }
    if (value instanceof Integer
        || value instanceof Long
        || value instanceof Short
        || value instanceof Byte
        || value instanceof BigInteger) {
      BigInteger i = new BigInteger(value.toString());
      if (i.abs().toString().length() > 38) {
        throw new IllegalArgumentException(
            "the integer " + i + " has more than 38 digits, the most a DECIMAL holds");
      }
      return exact(new BigDecimal(i), pos);
    }
    if (value instanceof BigDecimal d) {
      if (d.precision() > 38) {
        throw new IllegalArgumentException(
            "the decimal " + d.toPlainString() + " has more than 38 digits");
      }
      return exact(d, pos);
    }
    if (value instanceof Double || value instanceof Float) {
      double d = ((Number) value).doubleValue();
      if (!Double.isFinite(d)) {
        String text = Double.isNaN(d) ? "NaN" : d > 0 ? "Infinity" : "-Infinity";
        return cast(SqlLiteral.createCharString(text, pos), type(SqlTypeName.DOUBLE, -1, pos), pos);
      }
      SqlNumericLiteral literal =
          SqlLiteral.createApproxNumeric(
              new BigDecimal(Double.toString(Math.abs(d))).toPlainString() + "E0", pos);
      return d < 0 || (d == 0 && 1 / d < 0) ? SqlLiteral.createNegative(literal, pos) : literal;
    }
    if (value instanceof String s) {
      return SqlLiteral.createCharString(s, pos);
    }
    if (value instanceof Character c) {
      return SqlLiteral.createCharString(c.toString(), pos);
    }
    if (value instanceof byte[] bytes) {
      return SqlLiteral.createBinaryString(bytes, pos);
    }
    if (value instanceof LocalDate d) {
      return SqlLiteral.createDate(
          new DateString(d.getYear(), d.getMonthValue(), d.getDayOfMonth()), pos);
    }
    if (value instanceof LocalTime t) {
      if (t.getNano() % 1_000_000 != 0) {
        // Flink's TIME holds milliseconds (TIME(0) to TIME(3)), and so do the engines here: a
        // finer fraction would be cut off in silence.
        throw new IllegalArgumentException(
            "the time "
                + t
                + " has a fraction of a millisecond; a TIME holds milliseconds (TIME(3)):"
                + " round the value to milliseconds");
      }
      TimeString time =
          new TimeString(t.getHour(), t.getMinute(), t.getSecond()).withNanos(t.getNano());
      return SqlLiteral.createTime(time, precision(t.getNano()), pos);
    }
    if (value instanceof LocalDateTime t) {
      return timestamp(t, pos);
    }
    if (value instanceof Instant
        || value instanceof OffsetDateTime
        || value instanceof ZonedDateTime) {
      Instant instant =
          value instanceof Instant i
              ? i
              : value instanceof OffsetDateTime o
                  ? o.toInstant()
                  : ((ZonedDateTime) value).toInstant();
      LocalDateTime local = LocalDateTime.ofInstant(instant, zone);
      return cast(
          timestamp(local, pos),
          type(SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE, precision(local.getNano()), pos),
          pos);
    }
    if (value instanceof Duration d) {
      return interval(d, pos);
    }
    if (value instanceof List<?> list) {
      if (list.isEmpty()) {
        throw new IllegalArgumentException("an empty list has no element type to make an ARRAY of");
      }
      List<SqlNode> elements = new ArrayList<>();
      for (Object e : list) {
        elements.add(node(e, pos, zone));
      }
      return SqlStdOperatorTable.ARRAY_VALUE_CONSTRUCTOR.createCall(pos, elements);
    }
    if (value instanceof Map<?, ?> map) {
      if (map.isEmpty()) {
        throw new IllegalArgumentException(
            "an empty dict (map) has no key and value types to make a MAP of");
      }
      List<SqlNode> entries = new ArrayList<>();
      for (Map.Entry<?, ?> e : map.entrySet()) {
        entries.add(node(e.getKey(), pos, zone));
        entries.add(node(e.getValue(), pos, zone));
      }
      return SqlStdOperatorTable.MAP_VALUE_CONSTRUCTOR.createCall(pos, entries);
    }
    if (value instanceof Row row) {
      return row(row.fields(), pos, zone);
    }
    if (value instanceof Object[] fields) {
      return row(fields, pos, zone);
    }
    if (value instanceof Unbindable u) {
      throw new IllegalArgumentException(u.description());
    }
    throw new IllegalArgumentException(
        "a " + value.getClass().getName() + " has no SQL type (see the Java API's parameters)");
  }

  private static SqlNode row(@Nullable Object[] fields, SqlParserPos pos, ZoneId zone) {
    if (fields.length == 0) {
      throw new IllegalArgumentException("an empty tuple makes no ROW");
    }
    List<SqlNode> operands = new ArrayList<>();
    for (Object f : fields) {
      operands.add(node(f, pos, zone));
    }
    return SqlStdOperatorTable.ROW.createCall(pos, operands);
  }

  private static SqlNode exact(BigDecimal d, SqlParserPos pos) {
    // As the parser reads "-5": one negative literal, so that -2147483648 is an INT.
    SqlNumericLiteral literal = SqlLiteral.createExactNumeric(d.abs().toPlainString(), pos);
    return d.signum() < 0 ? SqlLiteral.createNegative(literal, pos) : literal;
  }

  private static SqlNode timestamp(LocalDateTime t, SqlParserPos pos) {
    TimestampString ts =
        new TimestampString(
                t.getYear(),
                t.getMonthValue(),
                t.getDayOfMonth(),
                t.getHour(),
                t.getMinute(),
                t.getSecond())
            .withNanos(t.getNano());
    return SqlLiteral.createTimestamp(SqlTypeName.TIMESTAMP, ts, precision(t.getNano()), pos);
  }

  /** The fewest digits of a second's fraction that hold {@code nanos}: 0, 3, 6 or 9. */
  private static int precision(int nanos) {
    if (nanos == 0) {
      return 0;
    }
    if (nanos % 1_000_000 == 0) {
      return 3;
    }
    return nanos % 1000 == 0 ? 6 : 9;
  }

  private static SqlNode interval(Duration d, SqlParserPos pos) {
    if (d.getNano() % 1_000_000 != 0) {
      throw new IllegalArgumentException(
          "the duration " + d + " has a fraction of a millisecond; an INTERVAL holds milliseconds");
    }
    int sign = d.isNegative() ? -1 : 1;
    Duration abs = d.abs();
    long days = abs.toDays();
    String text =
        String.format(
            java.util.Locale.ROOT,
            "%d %02d:%02d:%02d.%03d",
            days,
            abs.toHoursPart(),
            abs.toMinutesPart(),
            abs.toSecondsPart(),
            abs.toMillisPart());
    int dayDigits = Math.max(2, Long.toString(days).length());
    SqlIntervalQualifier qualifier =
        new SqlIntervalQualifier(TimeUnit.DAY, dayDigits, TimeUnit.SECOND, 3, pos);
    return SqlLiteral.createInterval(sign, text, qualifier, pos);
  }

  private static SqlDataTypeSpec type(SqlTypeName name, int precision, SqlParserPos pos) {
    return new SqlDataTypeSpec(new SqlBasicTypeNameSpec(name, precision, pos), pos);
  }

  private static SqlNode cast(SqlNode value, SqlDataTypeSpec type, SqlParserPos pos) {
    return SqlStdOperatorTable.CAST.createCall(pos, value, type);
  }

  /**
   * The types the validator inferred for the placeholders of {@code node}, as a JSON list of {@code
   * {"index", "type", "nullable", "line", "column"}} (1-based).
   */
  public static String describe(
      List<SqlDynamicParam> params, java.util.function.Function<SqlNode, RelDataType> typeOf) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (SqlDynamicParam p : params) {
      RelDataType type = typeOf.apply(p);
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("index", p.getIndex() + 1);
      entry.put("type", type == null ? null : io.calcitebridge.types.TypeNames.render(type));
      entry.put("nullable", type == null || type.isNullable());
      entry.put("line", p.getParserPosition().getLineNum());
      entry.put("column", p.getParserPosition().getColumnNum());
      out.add(entry);
    }
    return JsonValues.write(out);
  }
}

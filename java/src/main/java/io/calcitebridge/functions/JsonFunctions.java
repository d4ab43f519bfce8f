package io.calcitebridge.functions;

import static io.calcitebridge.functions.Fn.Nulls.ALWAYS;
import static io.calcitebridge.functions.Fn.Nulls.ANY;
import static io.calcitebridge.functions.Fn.strict;
import static io.calcitebridge.functions.Fn.string;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Set;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlJsonQueryEmptyOrErrorBehavior;
import org.apache.calcite.sql.SqlJsonQueryWrapperBehavior;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlReturnTypeInference;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Flink's JSON functions that Calcite lacks ({@code JSON_STRING}, {@code JSON}, {@code PARSE_JSON},
 * {@code TRY_PARSE_JSON}, whose {@code VARIANT} is held as a Jackson tree and written to Arrow as
 * its JSON text), and Flink's type for the results of Calcite's: {@code STRING}, where Calcite's
 * are {@code VARCHAR(2000)} ({@link #STRING_RESULTS}; the validator gives them Flink's type and SQL
 * conversion casts to it).
 */
public final class JsonFunctions {
  private JsonFunctions() {}

  private static final Class<?> C = JsonFunctions.class;

  /**
   * Jackson's mappers, and Calcite's JSON functions set to read and write as Flink's: made when a
   * JSON value is first read or written, or a statement is first planned ({@link
   * #readAndWriteAsFlink}), not when the operator table is built. Starting Jackson took a third of
   * a first session, which a session that never plans or runs a JSON function did not need.
   */
  private static final class Jackson {
    static final ObjectMapper MAPPER = new ObjectMapper().registerModule(flinkDoubles());
    static final ObjectMapper STRICT =
        new ObjectMapper().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

    static {
      setCalcitesReader();
      flinkReady = true;
    }

    private Jackson() {}

    /** Nothing more than the class's initialisation, which its first call runs. */
    static void ready() {}
  }

  /**
   * A finite DOUBLE written as Flink writes it in JSON, the text of its shortest {@code BigDecimal}
   * ({@code 1.0E+20}, {@code 123456789}, {@code 0.000010}); Jackson's own text is Java's ({@code
   * 1.0E20}, {@code 1.23456789E8}, {@code 1.0E-5}); a FLOAT as the DOUBLE it widens to ({@code
   * 0.10000000149011612}). NaN and the infinities stay Jackson's ({@code "NaN"}).
   */
  private static com.fasterxml.jackson.databind.Module flinkDoubles() {
    com.fasterxml.jackson.databind.module.SimpleModule m =
        new com.fasterxml.jackson.databind.module.SimpleModule("flink-doubles");
    com.fasterxml.jackson.databind.JsonSerializer<Double> doubles =
        new com.fasterxml.jackson.databind.JsonSerializer<>() {
          @Override
          public void serialize(
              Double d,
              com.fasterxml.jackson.core.JsonGenerator gen,
              com.fasterxml.jackson.databind.SerializerProvider provider)
              throws java.io.IOException {
            if (Double.isFinite(d)) {
              gen.writeNumber(java.math.BigDecimal.valueOf(d));
            } else {
              gen.writeNumber(d);
            }
          }
        };
    m.addSerializer(Double.class, doubles);
    m.addSerializer(double.class, doubles);
    com.fasterxml.jackson.databind.JsonSerializer<Float> floats =
        new com.fasterxml.jackson.databind.JsonSerializer<>() {
          @Override
          public void serialize(
              Float x,
              com.fasterxml.jackson.core.JsonGenerator gen,
              com.fasterxml.jackson.databind.SerializerProvider provider)
              throws java.io.IOException {
            doubles.serialize(x.doubleValue(), gen, provider);
          }
        };
    m.addSerializer(Float.class, floats);
    m.addSerializer(float.class, floats);
    return m;
  }

  /**
   * Makes Calcite's JSON functions read and write as Flink's ({@link #setCalcitesReader}), once per
   * JVM: called before anything can run them, that is before compiled code runs: the executor that
   * folds constants while planning ({@code flink.Constants}) and Calcite's engine ({@code
   * StatementExecutor}) call it. A query DuckDB or Spark runs, which folds no constant, does not
   * start Jackson.
   */
  public static void readAndWriteAsFlink() {
    Jackson.ready();
  }

  private static volatile boolean flinkReady;

  /**
   * {@link #readAndWriteAsFlink} before code runs that {@code text} describes (a plan or its
   * expressions, as text), when the text names a JSON function: every JSON operator, Calcite's and
   * Flink's, has {@code JSON} in its name ({@code JSON_VALUE}, {@code IS JSON OBJECT}, {@code
   * FORMAT JSON}, {@code JSON_ARRAYAGG}, ...), and this class's own functions start Jackson
   * themselves. A plan that names none, the usual first plan on Calcite's engine, then does not
   * start Jackson (60-90 ms of a new process's first such query); a name that merely has "json" in
   * it starts it as before.
   */
  public static void readAndWriteAsFlinkFor(java.util.function.Supplier<String> text) {
    if (!flinkReady && text.get().toUpperCase(java.util.Locale.ROOT).contains("JSON")) {
      Jackson.ready();
    }
  }

  /**
   * Calcite's JSON functions ({@code JSON_VALUE}, {@code JSON_QUERY}, {@code JSON_EXISTS}, {@code
   * JSON_OBJECT}, {@code JSON_ARRAY} and their aggregates) read and write JSON with Flink's Jackson
   * settings: a number with a fraction or an exponent is read as a {@code BigDecimal}, which keeps
   * its digits ({@code 1.50}, {@code 1E+400}; a {@code double} made them {@code 1.5} and {@code
   * Infinity}), the keys of an object are written in order, and a DOUBLE is written as Flink writes
   * it ({@link #flinkDoubles}). Calcite keeps its JSON provider in a private field with no setting,
   * so the mapper of that provider is replaced here, once, before any query runs; a Calcite whose
   * provider is not where this looks fails loudly here rather than read numbers otherwise.
   */
  private static void setCalcitesReader() {
    ObjectMapper flink =
        new ObjectMapper()
            .configure(
                com.fasterxml.jackson.databind.SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true)
            .configure(
                com.fasterxml.jackson.databind.DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS,
                true)
            .registerModule(flinkDoubles());
    try {
      java.lang.reflect.Field held =
          org.apache.calcite.runtime.JsonFunctions.class.getDeclaredField(
              "JSON_PATH_JSON_PROVIDER");
      held.setAccessible(true);
      Object provider = held.get(null);
      field(provider.getClass(), "objectMapper").set(provider, flink);
      field(provider.getClass(), "objectReader")
          .set(provider, flink.reader().forType(Object.class));
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot set Calcite's JSON reader to Flink's", e);
    }
    if (!(org.apache.calcite.runtime.JsonFunctions.dejsonize("1.50")
        instanceof java.math.BigDecimal)) {
      throw new IllegalStateException("Calcite's JSON reader does not read numbers as Flink's");
    }
  }

  private static java.lang.reflect.Field field(Class<?> type, String name)
      throws NoSuchFieldException {
    for (Class<?> c = type; c != null; c = c.getSuperclass()) {
      try {
        java.lang.reflect.Field f = c.getDeclaredField(name);
        f.setAccessible(true);
        return f;
      } catch (NoSuchFieldException e) {
        // look in the superclass
      }
    }
    throw new NoSuchFieldException(type.getName() + "." + name);
  }

  /** {@code JSON_STRING(value)}: the value as JSON text; NULL for NULL. */
  public static final SqlOperator JSON_STRING =
      strict(
          "JSON_STRING",
          string(ANY),
          Fn.notDateOrTime(
              OperandTypes.or(
                  OperandTypes.NUMERIC,
                  OperandTypes.BOOLEAN,
                  OperandTypes.CHARACTER,
                  OperandTypes.BINARY,
                  OperandTypes.family(SqlTypeFamily.TIMESTAMP),
                  OperandTypes.ARRAY,
                  OperandTypes.MAP,
                  OperandTypes.family(SqlTypeFamily.VARIANT))),
          C,
          "jsonString");

  /**
   * The ISO text Flink's JSON_STRING gives a {@code TIMESTAMP} ({@code 2023-11-14T22:13:20.12}),
   * and with {@code ltz} a {@code TIMESTAMP_LTZ}, an instant ({@code 2023-11-14T22:13:20Z}). SQL
   * conversion puts it around a timestamp operand of JSON_STRING; SQL cannot call it.
   */
  public static SqlOperator isoText(boolean ltz) {
    return ltz ? ISO_INSTANT_TEXT : ISO_TIMESTAMP_TEXT;
  }

  private static final SqlOperator ISO_TIMESTAMP_TEXT =
      strict("ISO_TIMESTAMP_TEXT", string(ANY), OperandTypes.ANY, C, "isoTimestamp");
  private static final SqlOperator ISO_INSTANT_TEXT =
      strict("ISO_INSTANT_TEXT", string(ANY), OperandTypes.ANY, C, "isoInstant");

  public static String isoTimestamp(long millis) {
    return java.time.LocalDateTime.ofEpochSecond(
            Math.floorDiv(millis, 1000L),
            (int) Math.floorMod(millis, 1000L) * 1_000_000,
            java.time.ZoneOffset.UTC)
        .format(java.time.format.DateTimeFormatter.ISO_LOCAL_DATE_TIME);
  }

  public static String isoInstant(long millis) {
    return isoTimestamp(millis) + "Z";
  }

  /**
   * {@code JSON_QUERY(json, path RETURNING ARRAY<...> ...)} on Calcite's engine: a value that is
   * not an array (an object) is an error, handled as the call's ON ERROR clause says (NULL by
   * default, an empty array for EMPTY ARRAY ON ERROR), as in Flink; Calcite's code cast the object
   * to a list and failed with a ClassCastException whatever the clause. Not in the operator table:
   * {@link #queryArray} puts it in plans.
   */
  private static final SqlOperator JSON_QUERY_ARRAY =
      Fn.fn(
          "$JSON_QUERY_ARRAY",
          ReturnTypes.ARG0,
          OperandTypes.ANY,
          C,
          "jsonQueryArray",
          org.apache.calcite.adapter.enumerable.NullPolicy.STRICT);

  /**
   * {@code call} computed by {@link #JSON_QUERY_ARRAY} when it is a JSON_QUERY RETURNING ARRAY;
   * else {@code call}. The planner applies it to each call of a plan for Calcite's engine.
   */
  public static RexNode queryArray(RexBuilder rex, RexCall call) {
    if (call.getOperator() != SqlStdOperatorTable.JSON_QUERY
        || call.getType().getSqlTypeName() != SqlTypeName.ARRAY
        || call.getOperands().size() != 5) {
      return call;
    }
    List<RexNode> operands = new java.util.ArrayList<>();
    for (RexNode o : call.getOperands()) {
      operands.add(
          o instanceof RexLiteral l && l.getValue() instanceof Enum<?> e
              ? rex.makeLiteral(e.name())
              : o);
    }
    return rex.makeCall(call.getType(), JSON_QUERY_ARRAY, operands);
  }

  public static @Nullable List<?> jsonQueryArray(
      String input, String path, String wrapper, String empty, String error) {
    SqlJsonQueryEmptyOrErrorBehavior onError = SqlJsonQueryEmptyOrErrorBehavior.valueOf(error);
    Object value =
        new org.apache.calcite.runtime.JsonFunctions.StatefulFunction()
            .jsonQuery(
                input,
                path,
                SqlJsonQueryWrapperBehavior.valueOf(wrapper),
                SqlJsonQueryEmptyOrErrorBehavior.valueOf(empty),
                onError,
                false);
    if (value == null) {
      return null;
    }
    if (value instanceof List<?> list) {
      // An object or array element is its JSON text, as Flink writes it.
      List<@Nullable Object> out = new java.util.ArrayList<>();
      for (Object e : list) {
        out.add(
            e instanceof java.util.Map<?, ?> || e instanceof List<?>
                ? org.apache.calcite.runtime.JsonFunctions.jsonize(e)
                : e);
      }
      return out;
    }
    return switch (onError) {
      case NULL -> null;
      case EMPTY_ARRAY -> List.of();
      default ->
          throw new IllegalArgumentException(
              "JSON_QUERY RETURNING ARRAY: the value at " + path + " is not an array");
    };
  }

  /**
   * {@code JSON(text)}: JSON text that {@code JSON_OBJECT} and {@code JSON_ARRAY} take as a JSON
   * value rather than a string; SQL conversion makes it Calcite's {@code FORMAT JSON} there.
   */
  public static final SqlOperator JSON =
      strict("JSON", string(ANY), OperandTypes.CHARACTER, C, "json");

  /** Messages of the errors of the JSON functions. */
  public interface Messages {
    Messages RESOURCE = org.apache.calcite.runtime.Resources.create(Messages.class);

    @org.apache.calcite.runtime.Resources.BaseMessage(
        "Unsupported type ''{0}'' for RETURNING in JSON_VALUE().")
    org.apache.calcite.runtime.Resources.ExInst<
            org.apache.calcite.sql.validate.SqlValidatorException>
        jsonValueReturning(String type);
  }

  /**
   * The {@code DOUBLE} of a JSON number that {@code JSON_VALUE(... RETURNING DOUBLE)} found, as
   * Flink computes it: the double nearest the number's {@code BigDecimal} ({@code Infinity} past
   * the range), where Calcite cast the value it read to a {@code Double} and failed. A JSON integer
   * and a {@code DEFAULT} of the call are their {@code DOUBLE} too, where Flink fails (it casts
   * them to a {@code BigDecimal}); a string or a boolean is an error, as in Flink. SQL conversion
   * puts it around JSON_VALUE; SQL cannot call it.
   */
  public static final SqlOperator JSON_VALUE_DOUBLE =
      strict(
          "JSON_VALUE",
          Fn.type(f -> f.createSqlType(SqlTypeName.DOUBLE), ALWAYS),
          OperandTypes.ANY,
          C,
          "jsonValueDouble");

  public static Double jsonValueDouble(Object value) {
    return ((Number) value).doubleValue();
  }

  /** Calcite's JSON functions whose {@code VARCHAR(2000)} result is Flink's {@code STRING}. */
  public static final Set<SqlOperator> STRING_RESULTS =
      Set.of(
          SqlStdOperatorTable.JSON_VALUE,
          SqlStdOperatorTable.JSON_QUERY,
          SqlStdOperatorTable.JSON_OBJECT,
          SqlStdOperatorTable.JSON_ARRAY);

  /**
   * {@code x IS JSON [VALUE | OBJECT | ARRAY | SCALAR]}: FALSE, not NULL, for a NULL {@code x}, as
   * in Flink; the result is {@code BOOLEAN NOT NULL}.
   */
  public static final Set<SqlOperator> IS_JSON =
      Set.of(
          SqlStdOperatorTable.IS_JSON_VALUE,
          SqlStdOperatorTable.IS_JSON_OBJECT,
          SqlStdOperatorTable.IS_JSON_ARRAY,
          SqlStdOperatorTable.IS_JSON_SCALAR);

  /** Flink's {@code VARIANT}: a JSON value, written to Arrow as its JSON text. */
  private static SqlReturnTypeInference variant(Fn.Nulls nulls) {
    return Fn.type(f -> f.createSqlType(SqlTypeName.VARIANT), nulls);
  }

  /**
   * {@code PARSE_JSON(text [, allow_duplicate_keys])}: the JSON value of the text, a {@code
   * VARIANT}; an error for text that is not JSON (and for a repeated key unless allowed). NULL for
   * NULL.
   */
  public static final SqlOperator PARSE_JSON =
      strict(
          "PARSE_JSON",
          variant(ANY),
          OperandTypes.or(
              OperandTypes.CHARACTER,
              OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.BOOLEAN)),
          C,
          "parseJson");

  /** {@code TRY_PARSE_JSON(text [, allow_duplicate_keys])}: as PARSE_JSON, NULL where it fails. */
  public static final SqlOperator TRY_PARSE_JSON =
      strict(
          "TRY_PARSE_JSON",
          variant(ALWAYS),
          OperandTypes.or(
              OperandTypes.CHARACTER,
              OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.BOOLEAN)),
          C,
          "tryParseJson");

  public static final List<SqlOperator> ALL =
      List.of(JSON_STRING, JSON, PARSE_JSON, TRY_PARSE_JSON);

  /**
   * Flink's {@code v['key']} and {@code v[i]} of a {@code VARIANT}: an object's field by its key
   * (case-sensitive), an array's element by its 1-based index; NULL where there is none, or for a
   * NULL key. A JSON {@code null} is a VARIANT, not NULL. A key of an array or scalar, or an index
   * of an object or scalar, is an error, as in Flink. SQL conversion gives {@code ITEM} of a
   * VARIANT these operators; SQL cannot call them.
   */
  public static SqlOperator variantItem(boolean byKey) {
    return byKey ? VARIANT_FIELD : VARIANT_ELEMENT;
  }

  private static final SqlOperator VARIANT_FIELD =
      strict("ITEM", variant(ALWAYS), OperandTypes.ANY_ANY, C, "variantField");
  private static final SqlOperator VARIANT_ELEMENT =
      strict("ITEM", variant(ALWAYS), OperandTypes.ANY_ANY, C, "variantElement");

  public static @Nullable Object variantField(Object value, String key) {
    JsonNode node = (JsonNode) value;
    if (!node.isObject()) {
      throw new IllegalArgumentException(
          "String key access on variant requires an object variant, but a non-object variant"
              + " was provided.");
    }
    return node.get(key);
  }

  public static @Nullable Object variantElement(Object value, long index) {
    JsonNode node = (JsonNode) value;
    if (!node.isArray()) {
      throw new IllegalArgumentException(
          "Integer index access on variant requires an array variant, but a non-array variant"
              + " was provided.");
    }
    return index < 1 || index > node.size() ? null : node.get((int) (index - 1));
  }

  /**
   * Flink's type for a result of {@link #STRING_RESULTS} (STRING for VARCHAR(2000)) or {@link
   * #IS_JSON} (NOT NULL).
   */
  public static RelDataType flinkType(RelDataTypeFactory f, RelDataType type, SqlOperator op) {
    if (IS_JSON.contains(op)) {
      return f.createTypeWithNullability(type, false);
    }
    if (type.getSqlTypeName() == SqlTypeName.VARCHAR && type.getPrecision() == 2000) {
      return f.createTypeWithNullability(
          f.createSqlType(SqlTypeName.VARCHAR, Integer.MAX_VALUE), type.isNullable());
    }
    return type;
  }

  public static String jsonString(Object value) {
    if (value instanceof org.apache.calcite.avatica.util.ByteString bytes) {
      // BYTES as a JSON string of their Base64, as Flink writes them.
      value = java.util.Base64.getEncoder().encodeToString(bytes.getBytes());
    }
    try {
      return Jackson.MAPPER.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("JSON_STRING: " + e.getOriginalMessage(), e);
    }
  }

  public static String json(String text) {
    return text;
  }

  public static Object parseJson(String text) {
    return parseJson(text, false);
  }

  /** A parsed JSON value (a Jackson tree, whose text is its compact JSON). */
  public static Object parseJson(String text, boolean allowDuplicateKeys) {
    try {
      JsonNode node = (allowDuplicateKeys ? Jackson.MAPPER : Jackson.STRICT).readTree(text);
      if (node == null || node.isMissingNode()) {
        throw new IllegalArgumentException("PARSE_JSON: no JSON value in ''");
      }
      return node;
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("PARSE_JSON: " + e.getOriginalMessage(), e);
    }
  }

  public static @Nullable Object tryParseJson(String text) {
    return tryParseJson(text, false);
  }

  public static @Nullable Object tryParseJson(String text, boolean allowDuplicateKeys) {
    try {
      return parseJson(text, allowDuplicateKeys);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }
}

package io.calcitebridge.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * JSON text as plain Java values, and back: objects as {@code Map<String, Object>} (in their keys'
 * order), arrays as lists, strings, numbers (an integer as the smallest of Integer, Long and
 * BigInteger that holds it, any other number as a Double), booleans and null. These are the values
 * Jackson's {@code ObjectMapper.readValue(json, Object.class)} gives, read and written with
 * Jackson's streaming parser and generator only.
 *
 * <p>The wire format between the JVM and a source's host (offers of filters, answers, requests) is
 * this JSON. Jackson's data binding would read it as well, but a mapper's first use initialises
 * Jackson's date formats and locale data: tens of milliseconds of a new process's first
 * registration of a source, and of its first query over one.
 */
public final class JsonValues {
  private static final JsonFactory FACTORY = new JsonFactory();

  private JsonValues() {}

  /**
   * The value of {@code json}: its first JSON value.
   *
   * @throws IllegalArgumentException when it does not start with a JSON value
   */
  public static @Nullable Object parse(String json) {
    try (JsonParser p = FACTORY.createParser(json)) {
      if (p.nextToken() == null) {
        throw new IllegalArgumentException("No JSON value in an empty text");
      }
      return read(p); // what follows the value is not read, as a mapper does not by default
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalArgumentException(e.getOriginalMessage(), e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static @Nullable Object read(JsonParser p) throws IOException {
    JsonToken token = p.currentToken();
    switch (token) {
      case START_OBJECT:
        {
          Map<String, @Nullable Object> object = new LinkedHashMap<>();
          while (p.nextToken() == JsonToken.FIELD_NAME) {
            String key = p.currentName();
            p.nextToken();
            object.put(key, read(p));
          }
          return object;
        }
      case START_ARRAY:
        {
          List<@Nullable Object> array = new ArrayList<>();
          while (p.nextToken() != JsonToken.END_ARRAY) {
            array.add(read(p));
          }
          return array;
        }
      case VALUE_STRING:
        return p.getText();
      case VALUE_NUMBER_INT:
        return p.getNumberValue();
      case VALUE_NUMBER_FLOAT:
        return p.getDoubleValue();
      case VALUE_TRUE:
        return Boolean.TRUE;
      case VALUE_FALSE:
        return Boolean.FALSE;
      case VALUE_NULL:
        return null;
      default:
        throw new IllegalArgumentException("Unexpected JSON token " + token);
    }
  }

  /**
   * A JSON value as text, as Jackson's tree nodes give it ({@code asText()}): a string as it is, a
   * number or a boolean as written; "" for null, an array or an object.
   */
  public static String text(@Nullable Object value) {
    return value == null || value instanceof Map || value instanceof List
        ? ""
        : String.valueOf(value);
  }

  /**
   * {@code value} as JSON text: maps (their keys as strings), collections, strings, numbers,
   * booleans and null, nested.
   *
   * @throws IllegalArgumentException for a value of any other class
   */
  public static String write(@Nullable Object value) {
    return write(value, false);
  }

  /**
   * {@code value} as JSON text laid out as Jackson's default pretty printer lays it out (two spaces
   * an indent, {@code "key" : value}), as {@link #write(Object)} takes it.
   */
  public static String writePretty(@Nullable Object value) {
    return write(value, true);
  }

  private static String write(@Nullable Object value, boolean pretty) {
    StringWriter out = new StringWriter();
    try (JsonGenerator g = FACTORY.createGenerator(out)) {
      if (pretty) {
        g.useDefaultPrettyPrinter();
      }
      write(g, value);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }

  private static void write(JsonGenerator g, @Nullable Object value) throws IOException {
    if (value == null) {
      g.writeNull();
    } else if (value instanceof String s) {
      g.writeString(s);
    } else if (value instanceof Boolean b) {
      g.writeBoolean(b);
    } else if (value instanceof Integer
        || value instanceof Long
        || value instanceof Short
        || value instanceof Byte) {
      g.writeNumber(((Number) value).longValue());
    } else if (value instanceof Double d) {
      g.writeNumber(d);
    } else if (value instanceof Float f) {
      g.writeNumber(f);
    } else if (value instanceof BigDecimal d) {
      g.writeNumber(d);
    } else if (value instanceof BigInteger i) {
      g.writeNumber(i);
    } else if (value instanceof Map<?, ?> map) {
      g.writeStartObject();
      for (Map.Entry<?, ?> e : map.entrySet()) {
        g.writeFieldName(String.valueOf(e.getKey()));
        write(g, e.getValue());
      }
      g.writeEndObject();
    } else if (value instanceof Collection<?> items) {
      g.writeStartArray();
      for (Object item : items) {
        write(g, item);
      }
      g.writeEndArray();
    } else {
      throw new IllegalArgumentException(
          "No JSON form for a " + value.getClass().getName() + ": " + value);
    }
  }
}

package io.calcitebridge.errors;

import io.calcitebridge.json.JsonValues;
import java.util.LinkedHashMap;
import java.util.Map;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The text form of a {@link BridgeError}, for the places where only text crosses: the error of an
 * Arrow C stream ({@code get_last_error}) and a Python source's answers. One line: {@value
 * #MARKER}, then the kind, message, position and detail as JSON; whatever follows the JSON is
 * ignored. Python reads it in {@code errors.from_stream_failure}.
 */
public final class CarriedError {
  /** Starts the text of every carried failure. */
  public static final String MARKER = "calcite-bridge-error:";

  private CarriedError() {}

  /** {@code error} as one line of text: {@link #MARKER}, then JSON. */
  public static String encode(BridgeError error) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("kind", error.kind());
    m.put("message", error.getMessage());
    m.put("line", error.line());
    m.put("column", error.column());
    m.put("end_line", error.endLine());
    m.put("end_column", error.endColumn());
    m.put("detail", error.detail());
    return MARKER + JsonValues.write(m);
  }

  /**
   * The failure carried in {@code text} (an error of an imported stream), or null when the text
   * carries none.
   */
  public static @Nullable BridgeError decode(@Nullable String text) {
    if (text == null) {
      return null;
    }
    int at = text.indexOf(MARKER);
    if (at < 0) {
      return null;
    }
    String rest = text.substring(at + MARKER.length());
    int nl = rest.indexOf('\n');
    String json = nl < 0 ? rest : rest.substring(0, nl);
    Map<?, ?> n;
    try {
      n = JsonValues.parse(json) instanceof Map<?, ?> m ? m : Map.of();
    } catch (IllegalArgumentException e) {
      return null;
    }
    ErrorKind kind;
    try {
      kind = ErrorKind.valueOf(JsonValues.text(n.get("kind")));
    } catch (IllegalArgumentException e) {
      kind = ErrorKind.EXECUTION;
    }
    return new BridgeError(
        kind,
        JsonValues.text(n.get("message")),
        number(n.get("line")),
        number(n.get("column")),
        number(n.get("end_line")),
        number(n.get("end_column")),
        JsonValues.text(n.get("detail")),
        null);
  }

  /** A JSON number as an int: 0 for anything else (a position that is not known). */
  private static int number(@Nullable Object value) {
    return value instanceof Number n ? n.intValue() : 0;
  }
}

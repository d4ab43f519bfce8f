package io.calcitebridge.errors;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A failure that happened while rows streamed, carried across the Arrow C Data Interface.
 *
 * <p>The interface passes only the text of an error ({@code get_last_error}), which Arrow Java
 * fills with the exception's stack trace. This exception has no stack trace and no cause, and its
 * text is one line: {@value #MARKER} followed by the translated failure as JSON (kind, message,
 * position, detail). The consumer, Python's {@code errors.from_stream_failure} or {@link #decode}
 * in the JVM, turns it back into the same typed error.
 */
public final class StreamFailure extends IOException {
  private static final long serialVersionUID = 1L;

  /** Starts the text of every carried failure. */
  public static final String MARKER = "calcite-bridge-error:";

  private static final ObjectMapper JSON = new ObjectMapper();

  private final transient BridgeError error;

  private StreamFailure(BridgeError error) {
    super(error.getMessage());
    this.error = error;
  }

  /** {@code t}, raised while rows were produced, translated and ready to cross the stream. */
  public static StreamFailure of(Throwable t) {
    if (t instanceof StreamFailure) {
      return (StreamFailure) t;
    }
    return new StreamFailure(Errors.translateRunning(t));
  }

  /** The translated failure. */
  public BridgeError error() {
    return error;
  }

  @Override
  public synchronized Throwable fillInStackTrace() {
    return this;
  }

  @Override
  public String toString() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("kind", error.kind());
    m.put("message", error.getMessage());
    m.put("line", error.line());
    m.put("column", error.column());
    m.put("end_line", error.endLine());
    m.put("end_column", error.endColumn());
    m.put("detail", error.detail());
    try {
      return MARKER + JSON.writeValueAsString(m);
    } catch (JsonProcessingException e) {
      return MARKER + "{\"kind\":\"EXECUTION\",\"message\":\"The query failed while it ran\"}";
    }
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
    try {
      JsonNode n = JSON.readTree(json);
      ErrorKind kind;
      try {
        kind = ErrorKind.valueOf(n.path("kind").asText());
      } catch (IllegalArgumentException e) {
        kind = ErrorKind.EXECUTION;
      }
      return new BridgeError(
          kind,
          n.path("message").asText(),
          n.path("line").asInt(),
          n.path("column").asInt(),
          n.path("end_line").asInt(),
          n.path("end_column").asInt(),
          n.path("detail").asText(""),
          null);
    } catch (JsonProcessingException e) {
      return null;
    }
  }

  /**
   * The typed failure behind {@code t}, thrown by an imported stream: the carried one when there is
   * one, otherwise {@code t} translated as a failure of the running statement.
   */
  public static BridgeError fromImported(Throwable t) {
    return Errors.translateRunning(t);
  }
}

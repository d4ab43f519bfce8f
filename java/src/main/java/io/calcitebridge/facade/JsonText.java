package io.calcitebridge.facade;

import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * JSON string literals (RFC 8259) for the few small objects the facade writes on every query's
 * path, where starting Jackson would cost a new process's first query a tenth of a second.
 */
final class JsonText {
  private JsonText() {}

  private static final char[] HEX = "0123456789abcdef".toCharArray();

  /** Appends {@code s} as a JSON string, or {@code null}. */
  static void string(StringBuilder out, @Nullable String s) {
    if (s == null) {
      out.append("null");
      return;
    }
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        case '\b' -> out.append("\\b");
        case '\f' -> out.append("\\f");
        default -> {
          // Control characters, and lone surrogates, which are not valid UTF-8 once encoded.
          if (c < 0x20 || (Character.isSurrogate(c) && !pairedSurrogate(s, i))) {
            out.append("\\u")
                .append(HEX[(c >> 12) & 0xf])
                .append(HEX[(c >> 8) & 0xf])
                .append(HEX[(c >> 4) & 0xf])
                .append(HEX[c & 0xf]);
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }

  private static boolean pairedSurrogate(String s, int i) {
    char c = s.charAt(i);
    if (Character.isHighSurrogate(c)) {
      return i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
    }
    return i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
  }
}

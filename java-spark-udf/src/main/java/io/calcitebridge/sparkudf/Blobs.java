package io.calcitebridge.sparkudf;

import org.apache.calcite.avatica.util.ByteString;

/** A Spark BINARY value (byte[]) as the codec's ByteString. */
final class Blobs {
  private Blobs() {}

  static ByteString of(Object value) {
    if (value == null) {
      return null;
    }
    if (value instanceof byte[] bytes) {
      return new ByteString(bytes);
    }
    throw new IllegalArgumentException(
        "A dynamic-columns blob must be BINARY, not " + value.getClass().getSimpleName());
  }
}

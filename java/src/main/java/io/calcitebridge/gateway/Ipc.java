package io.calcitebridge.gateway;

import io.calcitebridge.arrow.ArrowMemory;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.types.pojo.Schema;
import org.checkerframework.checker.nullness.qual.Nullable;

/** Arrow IPC stream bytes, the form Arrow data takes between two processes. */
final class Ipc {
  private Ipc() {}

  /** A reader of the IPC stream {@code bytes}; the caller closes it. */
  static ArrowReader reader(byte[] bytes) {
    return new ArrowStreamReader(new ByteArrayInputStream(bytes), ArrowMemory.allocator());
  }

  /** The schema of the IPC stream {@code bytes}. */
  static Schema schema(byte[] bytes) {
    try (ArrowReader reader = reader(bytes)) {
      return reader.getVectorSchemaRoot().getSchema();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** An IPC stream of {@code schema} without batches. */
  static byte[] of(Schema schema) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, ArrowMemory.allocator());
        ArrowStreamWriter writer = writer(root, out)) {
      writer.start();
      writer.end();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  /** Every batch of {@code reader} as one IPC stream; the reader is left open. */
  static byte[] of(ArrowReader reader) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (ArrowStreamWriter writer = writer(reader.getVectorSchemaRoot(), out)) {
      writer.start();
      while (reader.loadNextBatch()) {
        writer.writeBatch();
      }
      writer.end();
    }
    return out.toByteArray();
  }

  static ArrowStreamWriter writer(VectorSchemaRoot root, ByteArrayOutputStream out) {
    return new ArrowStreamWriter(
        root, new DictionaryProvider.MapDictionaryProvider(), Channels.newChannel(out));
  }

  /**
   * The JSON error object that a Python callback answered instead of an IPC stream, or null. An IPC
   * stream starts with a 0xFFFFFFFF continuation marker, never with {@code '{'}.
   */
  static @Nullable String error(byte @Nullable [] answer) {
    if (answer == null || answer.length == 0) {
      return "{\"error\": {\"kind\": \"SOURCE\", \"message\": \"the source answered nothing\"}}";
    }
    return answer[0] == '{' ? new String(answer, StandardCharsets.UTF_8) : null;
  }
}

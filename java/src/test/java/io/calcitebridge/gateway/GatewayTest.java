package io.calcitebridge.gateway;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.calcitebridge.arrow.ArrowMemory;
import io.calcitebridge.errors.BridgeError;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The gateway's guards, and a remote session's answers read as a Python client reads them. */
class GatewayTest {
  private static final String TOKEN = "a-token-of-24-bytes-long";

  private final RemoteSession session = new RemoteSession();

  @AfterEach
  void tearDown() {
    session.close();
  }

  @Test
  void refusesAnAddressOtherThanLoopbackUnlessAllowed() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> BridgeGateway.start("192.0.2.1", 0, TOKEN, false));
    assertTrue(e.getMessage().contains("loopback"), e.getMessage());
  }

  @Test
  void refusesAnEmptyToken() {
    assertThrows(IllegalArgumentException.class, () -> BridgeGateway.start(0, " "));
  }

  @Test
  void refusesATokenUnder16BytesSayingWhy() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> BridgeGateway.start(0, "a"));
    assertTrue(e.getMessage().contains("1 bytes long"), e.getMessage());
    assertTrue(e.getMessage().contains("at least 16 bytes"), e.getMessage());
    assertTrue(e.getMessage().contains("guessed"), e.getMessage());
    // 8 characters but 15 bytes of UTF-8: still too short; 16 ASCII bytes are enough
    assertThrows(
        IllegalArgumentException.class,
        () -> BridgeGateway.start(0, "\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9a"));
    try (BridgeGateway gateway = BridgeGateway.start(0, "0123456789abcdef")) {
      assertTrue(gateway.port() > 0);
    }
  }

  @Test
  void listensOnAnEphemeralLoopbackPort() {
    try (BridgeGateway gateway = BridgeGateway.start(0, TOKEN)) {
      assertTrue(gateway.port() > 0);
      assertEquals("127.0.0.1:" + gateway.port(), gateway.address());
    }
  }

  /** Every answer of statement {@code id}, as a client fetches them. */
  private List<byte[]> answers(long id, int chunkBytes) {
    List<byte[]> out = new ArrayList<>();
    while (true) {
      String answer = session.fetch(id, 200, chunkBytes);
      if (answer == null) {
        continue;
      }
      if (answer.isEmpty()) {
        return out;
      }
      out.add(Base64.getDecoder().decode(answer));
    }
  }

  /** The header of the first chunk, and the rows of the whole IPC stream as strings. */
  private List<String> rows(List<byte[]> chunks) throws IOException {
    byte[] first = chunks.get(0);
    int newline = new String(first, StandardCharsets.ISO_8859_1).indexOf('\n');
    ByteArrayOutputStream stream = new ByteArrayOutputStream();
    stream.write(first, newline + 1, first.length - newline - 1);
    for (byte[] chunk : chunks.subList(1, chunks.size())) {
      stream.write(chunk);
    }
    List<String> out = new ArrayList<>();
    out.add(new String(first, 0, newline, StandardCharsets.UTF_8));
    try (ArrowReader reader = Ipc.reader(stream.toByteArray())) {
      VectorSchemaRoot root = reader.getVectorSchemaRoot();
      while (reader.loadNextBatch()) {
        for (int i = 0; i < root.getRowCount(); i++) {
          out.add(String.valueOf(root.getVector(0).getObject(i)));
        }
      }
    }
    return out;
  }

  @Test
  void rowsCrossAsOneChunkOrMany() throws IOException {
    answers(session.execute("CREATE TABLE t (a BIGINT) WITH ('connector' = 'memory')"), 1 << 20);
    List<String> inserted =
        rows(answers(session.execute("INSERT INTO t VALUES (1), (2), (3)"), 1 << 20));
    assertEquals(List.of("insert;last", "3"), inserted);

    List<byte[]> whole = answers(session.query("SELECT a FROM t ORDER BY a"), 1 << 20);
    assertEquals(1, whole.size());
    assertEquals(List.of("query;last", "1", "2", "3"), rows(whole));

    String many =
        "SELECT x FROM (VALUES "
            + String.join(", ", java.util.Collections.nCopies(5000, "(1)"))
            + ") v(x)";
    List<byte[]> chunks = answers(session.query(many), 64);
    assertTrue(chunks.size() > 1, "several chunks");
    List<String> read = rows(chunks);
    assertEquals("query;more", read.get(0));
    assertEquals(5001, read.size());
  }

  @Test
  void textAnswersAndFailuresWithPositions() {
    List<byte[]> plan = answers(session.explain("SELECT 1 AS a", "text"), 1 << 20);
    assertTrue(new String(plan.get(0), StandardCharsets.UTF_8).contains("EnumerableValues"));
    List<byte[]> count =
        answers(
            session.executeScript(
                "SET 'table.local-time-zone' = 'UTC'; RESET 'table.local-time-zone'"),
            1 << 20);
    assertArrayEquals("2".getBytes(StandardCharsets.UTF_8), count.get(0));

    long id = session.query("SELECT nme FROM (VALUES (1)) v(name)");
    BridgeError e = assertThrows(BridgeError.class, () -> answers(id, 1 << 20));
    assertEquals("VALIDATION", e.kind());
    assertEquals(1, e.line());
    assertEquals(8, e.column());
    assertThrows(BridgeError.class, () -> session.setConfig("no.such.key", "x"));
  }

  @Test
  void aCancelledStatementFailsAsCancelled() {
    String values = String.join(", ", java.util.Collections.nCopies(2000, "(1)"));
    long id =
        session.query(
            "SELECT COUNT(*) FROM (VALUES "
                + values
                + ") a(x), (VALUES "
                + values
                + ") b(y), (VALUES "
                + values
                + ") c(z)");
    assertEquals(null, session.fetch(id, 50, 1 << 20));
    session.cancel(id);
    assertEquals("", session.fetch(id, 50, 1 << 20));
  }

  /** A source in "another process": it answers IPC bytes, as the Python side does. */
  private static final class Numbers implements RemoteSource {
    private final List<String> scans = new ArrayList<>();

    @Override
    public String name() {
      return "numbers";
    }

    @Override
    public String abilities() {
      return "{\"filters\": false}";
    }

    private static Schema schemaOf() {
      return new Schema(
          List.of(new Field("n", FieldType.nullable(new ArrowType.Int(64, true)), null)));
    }

    @Override
    public byte[] schema() {
      return Ipc.of(schemaOf());
    }

    @Override
    public String applyFilters(String filtersJson) {
      return "{\"accepted\": [], \"remaining\": []}";
    }

    @Override
    public byte[] scan(String requestJson) {
      scans.add(requestJson);
      try (VectorSchemaRoot root = VectorSchemaRoot.create(schemaOf(), ArrowMemory.allocator())) {
        BigIntVector n = (BigIntVector) root.getVector(0);
        for (int i = 0; i < 4; i++) {
          n.setSafe(i, i * 10L);
        }
        root.setRowCount(4);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (var writer = Ipc.writer(root, out)) {
          writer.start();
          writer.writeBatch();
          writer.end();
        }
        return out.toByteArray();
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    }

    @Override
    public String readableMetadata() {
      return "{}";
    }

    @Override
    public String discoverColumn(String column) {
      return null;
    }

    @Override
    public String write(String rows, String metadataKeysJson) {
      return "{\"error\": {\"kind\": \"SOURCE\", \"message\": \"read-only\"}}";
    }
  }

  @Test
  void aRemoteSourceIsScannedThroughIpcBytes() throws IOException {
    Numbers numbers = new Numbers();
    session.registerSource("numbers", numbers, false);
    List<String> read = rows(answers(session.query("SELECT n FROM numbers WHERE n > 5"), 1 << 20));
    assertEquals(List.of("query;last", "10", "20", "30"), read);
    assertEquals(1, numbers.scans.size());
    assertEquals("[\"numbers\"]", session.tableNames());
  }
}

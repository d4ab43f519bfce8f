package io.calcitebridge.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.calcitebridge.api.source.FilterPushDownResult;
import io.calcitebridge.api.source.ScanRequest;
import io.calcitebridge.api.source.SupportsDynamicColumns;
import io.calcitebridge.api.source.SupportsFilterPushDown;
import io.calcitebridge.api.source.TableSource;
import io.calcitebridge.expr.Call;
import io.calcitebridge.expr.Expression;
import io.calcitebridge.expr.Literal;
import io.calcitebridge.facade.BridgeSession;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Failures of Java sources: SOURCE when they throw, SOURCE_CONTRACT when they break the rules. */
class JavaSourceErrorsTest {
  private BridgeEnvironment env;

  @BeforeEach
  void setUp() {
    env = BridgeEnvironment.create();
  }

  @AfterEach
  void tearDown() {
    env.close();
  }

  /** A source that answers {@code applyFilters} in one of several wrong ways. */
  private static final class Breaker extends RowSource implements SupportsFilterPushDown {
    private final String how;

    Breaker(String how) {
      super(Users.SCHEMA, Users.ROWS);
      this.how = how;
    }

    @Override
    public FilterPushDownResult applyFilters(List<Expression> filters) {
      switch (how) {
        case "invent":
          // The expression model's counterpart of an index out of range: a filter never offered.
          Expression invented =
              new Call("=", List.of(new Literal(1L, "INT"), new Literal(2L, "INT")), "BOOLEAN");
          return FilterPushDownResult.of(List.of(invented), filters);
        case "lose":
          return FilterPushDownResult.of(filters.subList(1, filters.size()), List.of());
        case "null":
          return null;
        default:
          throw new IllegalStateException("applyFilters exploded");
      }
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"invent", "lose", "null"})
  void aBrokenFilterAnswerIsAContractViolation(String how) {
    env.registerSource("users", new Breaker(how));
    BridgeException e =
        assertThrows(
            BridgeException.class,
            () -> env.sql("SELECT id FROM users WHERE id > 1 AND score < 5"));
    assertEquals("SOURCE_CONTRACT", e.kind(), e.getMessage());
    assertTrue(e.getMessage().contains("Source 'users'"), e.getMessage());
    String named = Map.of("invent", "=(1, 2)", "lose", ">(id, 1)", "null", "null").get(how);
    assertTrue(e.getMessage().contains(named), e.getMessage());
  }

  @Test
  void applyFiltersThatThrowsIsASourceError() {
    env.registerSource("users", new Breaker("throw"));
    BridgeException e =
        assertThrows(BridgeException.class, () -> env.explain("SELECT id FROM users WHERE id > 1"));
    assertEquals("SOURCE", e.kind());
    assertTrue(
        e.getMessage()
            .contains(
                "Source 'users' failed in applyFilters(): IllegalStateException: applyFilters"),
        e.getMessage());
  }

  @Test
  void aThrowingScanIsASourceErrorWithTheStackTrace() {
    env.registerSource(
        "users",
        new RowSource(Users.SCHEMA, Users.ROWS) {
          @Override
          public ArrowReader scan(ScanRequest request, BufferAllocator allocator) {
            throw new IllegalArgumentException("the backend is down");
          }
        });
    BridgeException e = assertThrows(BridgeException.class, () -> env.sql("SELECT * FROM users"));
    assertEquals("SOURCE", e.kind());
    assertEquals(
        "Source 'users' failed in scan(): IllegalArgumentException: the backend is down",
        e.getMessage());
    assertTrue(e.detail().contains("at io.calcitebridge.api.JavaSourceErrorsTest"), e.detail());
    assertEquals(0, BridgeSession.allocatedBytes());
  }

  @Test
  void aSchemaThatThrowsFailsTheRegistration() {
    TableSource broken =
        new RowSource(Users.SCHEMA, Users.ROWS) {
          @Override
          public Schema schema() {
            throw new UnsupportedOperationException("no schema yet");
          }
        };
    BridgeException e =
        assertThrows(BridgeException.class, () -> env.registerSource("users", broken));
    assertEquals("SOURCE", e.kind());
    assertTrue(e.getMessage().contains("schema(): UnsupportedOperationException"), e.getMessage());
    assertEquals(List.of(), env.tables());
  }

  @Test
  void aColumnMissingFromTheScanIsAContractViolation() {
    env.registerSource(
        "users",
        new RowSource(Users.SCHEMA, Users.ROWS) {
          @Override
          public ArrowReader scan(ScanRequest request, BufferAllocator allocator) {
            return super.scan(ScanRequest.all(), allocator);
          }
        });
    assertEquals(List.of("[1]"), Users.rows(env.sql("SELECT id FROM users WHERE id = 1")));
    env.registerSource(
        "renamed",
        new RowSource(Users.SCHEMA, Users.ROWS) {
          @Override
          public ArrowReader scan(ScanRequest request, BufferAllocator allocator) {
            return io.calcitebridge.api.source.ArrowRows.reader(
                allocator, new Schema(List.of(Users.SCHEMA.getFields().get(2))), List.of());
          }
        });
    BridgeException e =
        assertThrows(BridgeException.class, () -> env.sql("SELECT id FROM renamed"));
    assertEquals("SOURCE_CONTRACT", e.kind());
    assertTrue(e.getMessage().contains("returned no column 'id'"), e.getMessage());
  }

  @Test
  void aReaderThatFailsMidwayFailsWhileTheRowsAreRead() throws IOException {
    env.registerSource(
        "users",
        new RowSource(Users.SCHEMA, Users.ROWS) {
          @Override
          public ArrowReader scan(ScanRequest request, BufferAllocator allocator) {
            ArrowReader rows = super.scan(request, allocator);
            return new ArrowReader(allocator) {
              private boolean first = true;

              @Override
              public boolean loadNextBatch() throws IOException {
                if (!first) {
                  throw new IOException("lost the connection");
                }
                first = false;
                return true;
              }

              @Override
              public long bytesRead() {
                return 0;
              }

              @Override
              protected void closeReadSource() throws IOException {
                rows.close();
              }

              @Override
              protected Schema readSchema() throws IOException {
                return rows.getVectorSchemaRoot().getSchema();
              }
            };
          }
        });
    // The source's own stream goes back to the caller: the failure comes with a later batch.
    try (ArrowReader reader = env.sql("SELECT * FROM users")) {
      BridgeException e =
          assertThrows(
              BridgeException.class,
              () -> {
                while (reader.loadNextBatch()) {
                  reader.getVectorSchemaRoot();
                }
              });
      assertEquals("SOURCE", e.kind());
      assertTrue(e.getMessage().contains("lost the connection"), e.getMessage());
      assertTrue(
          e.getMessage().startsWith("Source 'users' failed while it was read"), e.getMessage());
      assertFalse(e.getMessage().contains("java."), e.getMessage());
    }
    // A sort reads every row before the first batch: the statement itself fails.
    BridgeException e =
        assertThrows(BridgeException.class, () -> env.sql("SELECT id + 1 FROM users ORDER BY 1"));
    assertEquals("SOURCE", e.kind());
    assertTrue(e.getMessage().contains("Source 'users' failed while it was read"), e.getMessage());
    assertTrue(e.getMessage().contains("lost the connection"), e.getMessage());
  }

  @Test
  void discoveryThatThrowsIsASourceError() {
    class Discovering extends RowSource implements SupportsDynamicColumns {
      Discovering() {
        super(Users.SCHEMA, Users.ROWS);
      }

      @Override
      public Optional<String> discoverColumn(String name) {
        throw new IllegalStateException("catalog unreachable");
      }
    }
    env.registerSource("users", new Discovering());
    BridgeException e =
        assertThrows(BridgeException.class, () -> env.validate("SELECT extra FROM users"));
    assertEquals("SOURCE", e.kind());
    assertTrue(e.getMessage().contains("catalog unreachable"), e.getMessage());
  }

  @Test
  void aFactoryThatThrowsFailsTheCreateTable() {
    env.registerConnector(
        "broken",
        (table, options, schema) -> {
          throw new IllegalArgumentException("missing option 'url'");
        });
    BridgeException e =
        assertThrows(
            BridgeException.class,
            () -> env.executeScript("CREATE TABLE b (id INT) WITH ('connector' = 'broken')"));
    assertEquals("SOURCE", e.kind());
    assertTrue(
        e.getMessage()
            .contains(
                "Connector 'broken' could not create the source of table 'b':"
                    + " IllegalArgumentException: missing option 'url'"),
        e.getMessage());
    assertEquals(List.of(), env.tables());
    BridgeException unknown =
        assertThrows(
            BridgeException.class,
            () -> env.executeScript("CREATE TABLE c (id INT) WITH ('connector' = 'nope')"));
    assertTrue(unknown.getMessage().contains("available: memory, broken"), unknown.getMessage());
  }

  @Test
  void interruptingTheCallerCancelsTheStatement() throws Exception {
    CountDownLatch scanning = new CountDownLatch(1);
    env.registerSource(
        "slow",
        new RowSource(Users.SCHEMA, Users.ROWS) {
          @Override
          public ArrowReader scan(ScanRequest request, BufferAllocator allocator) {
            scanning.countDown();
            try {
              Thread.sleep(60_000);
            } catch (InterruptedException e) {
              throw new IllegalStateException("interrupted", e);
            }
            return super.scan(request, allocator);
          }
        });
    CompletableFuture<BridgeException> failure = new CompletableFuture<>();
    Thread caller =
        new Thread(
            () -> {
              try {
                env.sql("SELECT * FROM slow").close();
                failure.complete(null);
              } catch (BridgeException e) {
                failure.complete(e);
              } catch (IOException e) {
                failure.completeExceptionally(e);
              }
            });
    caller.start();
    assertTrue(scanning.await(10, TimeUnit.SECONDS));
    caller.interrupt();
    BridgeException e = failure.get(10, TimeUnit.SECONDS);
    assertEquals("CANCELLED", e.kind(), String.valueOf(e));
  }
}

package io.calcitebridge.connector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.calcitebridge.catalog.ColumnDef;
import io.calcitebridge.catalog.FilterableStorage.Decision;
import io.calcitebridge.catalog.TableDef;
import io.calcitebridge.errors.SourceException;
import io.calcitebridge.expr.Call;
import io.calcitebridge.expr.Expression;
import io.calcitebridge.expr.FieldReference;
import io.calcitebridge.expr.Literal;
import io.calcitebridge.expr.NestedFieldReference;
import io.calcitebridge.types.BridgeTypeFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.Test;

/**
 * {@link SourceStorage}'s plan-time conversation with a source, over a fake {@link PythonSource}
 * that answers with canned JSON: filter offers and decisions, discovery, metadata keys, errors.
 */
class SourceStorageTest {
  private static final TableDef DEF =
      new TableDef(
          "s",
          List.of(
              ColumnDef.physical(
                  "id", BridgeTypeFactory.INSTANCE.createSqlType(SqlTypeName.INTEGER))),
          Map.of("connector", "fake"),
          false,
          null);

  @Test
  void filtersCrossAsJsonAndDecisionsComeBack() {
    Fake fake = new Fake();
    fake.filterAnswer = "{\"accepted\": [1], \"remaining\": [0, 1]}";
    SourceStorage storage = new SourceStorage(fake, null, DEF);
    List<Expression> offered =
        List.of(
            new Call(
                ">",
                List.of(new FieldReference("id", "INT", 0, 0), new Literal(1L, "INT NOT NULL")),
                "BOOLEAN"),
            new Call(
                "IS NULL",
                List.of(new NestedFieldReference(List.of("u", "age"), List.of(1, 1), "INT", 0)),
                "BOOLEAN NOT NULL"));
    Decision d = storage.applyFilters(offered);
    assertEquals(List.of(1), d.accepted());
    assertEquals(List.of(0, 1), d.remaining());
    assertEquals(1, fake.offers.size());
    // what the source got reads back as the offered expressions
    List<Expression> received = new ArrayList<>();
    for (String json : splitArray(fake.offers.get(0))) {
      received.add(Expression.fromJson(json));
    }
    assertEquals(offered, received);
  }

  @Test
  void missingListsInADecisionAreEmpty() {
    Fake fake = new Fake();
    fake.filterAnswer = "{\"accepted\": [0]}";
    Decision d =
        new SourceStorage(fake, null, DEF)
            .applyFilters(List.of(new Literal(true, "BOOLEAN NOT NULL")));
    assertEquals(List.of(0), d.accepted());
    assertEquals(List.of(), d.remaining());
  }

  @Test
  void sourceErrorsBecomeSourceExceptions() {
    Fake fake = new Fake();
    fake.filterAnswer =
        "{\"error\": {\"kind\": \"SOURCE_CONTRACT\", \"message\": \"bad index\","
            + " \"traceback\": \"Traceback ...\"}}";
    SourceException e =
        assertThrows(
            SourceException.class,
            () ->
                new SourceStorage(fake, null, DEF)
                    .applyFilters(List.of(new Literal(true, "BOOLEAN NOT NULL"))));
    assertEquals("bad index", e.getMessage());
    assertTrue(e.isContractViolation());
    assertEquals("Traceback ...", e.sourceTraceback());

    SourceException plain =
        assertThrows(
            SourceException.class,
            () ->
                SourceStorage.check("{\"error\": {\"kind\": \"SOURCE\", \"message\": \"boom\"}}"));
    assertFalse(plain.isContractViolation());
    assertThrows(IllegalStateException.class, () -> SourceStorage.check("not json"));
    assertNull(SourceStorage.check(null));
    assertNull(SourceStorage.check(""));
    assertEquals(
        java.util.Set.of("error", "n"),
        ((java.util.Map<?, ?>) SourceStorage.check("{\"error\": null, \"n\": 3}")).keySet());
    assertEquals(
        3, ((java.util.Map<?, ?>) SourceStorage.check("{\"error\": null, \"n\": 3}")).get("n"));
    // An error that is not an object still fails, with its text as the message.
    assertEquals(
        "down",
        assertThrows(SourceException.class, () -> SourceStorage.check("{\"error\": \"down\"}"))
            .getMessage());
  }

  @Test
  void capabilitiesComeFromTheSource() {
    Fake fake = new Fake();
    SourceStorage storage = new SourceStorage(fake, null, DEF);
    assertFalse(storage.supportsFilterPushDown());
    assertFalse(storage.supportsNestedFilters());
    assertFalse(storage.supportsNestedProjection());
    assertFalse(storage.supportsAggregatePushDown());
    assertFalse(storage.discovers());
    assertFalse(storage.isWritable());
    fake.capable = true;
    assertTrue(storage.supportsFilterPushDown());
    assertTrue(storage.supportsNestedFilters());
    assertTrue(storage.supportsNestedProjection());
    assertTrue(storage.supportsAggregatePushDown());
    assertTrue(storage.discovers());
    assertTrue(storage.isWritable());
    assertEquals("fake", storage.sourceName());
  }

  @Test
  void readOnlySourceRefusesInserts() {
    SourceStorage storage = new SourceStorage(new Fake(), null, DEF);
    UnsupportedOperationException e =
        assertThrows(
            UnsupportedOperationException.class,
            () -> storage.insert(List.<Object[]>of(new Object[] {1})));
    assertEquals("Source 'fake' is read-only: it has no write()", e.getMessage());
  }

  @Test
  void discoveryPassesTypesAndErrors() {
    Fake fake = new Fake();
    fake.capable = true;
    SourceStorage storage = new SourceStorage(fake, null, DEF);
    assertEquals("BIGINT", storage.discover("n"));
    assertNull(storage.discover("none"));
    SourceException e = assertThrows(SourceException.class, () -> storage.discover("broken"));
    assertEquals("cannot look", e.getMessage());
    // a copy for another definition talks to the same source
    assertEquals("BIGINT", storage.forDef(DEF.withColumns(List.of())).discover("n"));
  }

  @Test
  void readableMetadataKeys() {
    Fake fake = new Fake();
    assertEquals(Map.of(), new SourceStorage(fake, null, DEF).readableMetadata());
    fake.metadata = "{\"offset\": \"BIGINT\", \"partition\": \"INT\"}";
    assertEquals(
        List.of("offset", "partition"),
        List.copyOf(new SourceStorage(fake, null, DEF).readableMetadata().keySet()));
    assertEquals("INT", new SourceStorage(fake, null, DEF).readableMetadata().get("partition"));
  }

  /** The elements of a JSON array of objects, as JSON text. */
  private static List<String> splitArray(String json) {
    List<String> out = new ArrayList<>();
    try {
      var mapper = new com.fasterxml.jackson.databind.ObjectMapper();
      for (var node : mapper.readTree(json)) {
        out.add(mapper.writeValueAsString(node));
      }
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new AssertionError(e);
    }
    return out;
  }

  /** A source answering with canned JSON. */
  private static final class Fake implements PythonSource {
    boolean capable;
    String filterAnswer = "{\"accepted\": [], \"remaining\": []}";
    String metadata = "{}";
    final List<String> offers = new ArrayList<>();

    @Override
    public String name() {
      return "fake";
    }

    @Override
    public String exportSchema(long address) {
      throw new UnsupportedOperationException();
    }

    @Override
    public boolean supportsFilterPushDown() {
      return capable;
    }

    @Override
    public boolean supportsNestedFilters() {
      return capable;
    }

    @Override
    public String applyFilters(String filtersJson) {
      offers.add(filtersJson);
      return filterAnswer;
    }

    @Override
    public String scan(String requestJson, ArrowArrayStream out) {
      throw new UnsupportedOperationException();
    }

    @Override
    public String readableMetadata() {
      return metadata;
    }

    @Override
    public String write(long address, String metadataKeysJson) {
      throw new UnsupportedOperationException();
    }

    @Override
    public boolean supportsNestedProjection() {
      return capable;
    }

    @Override
    public boolean supportsAggregatePushDown() {
      return capable;
    }

    @Override
    public boolean supportsDynamicColumns() {
      return capable;
    }

    @Override
    public String discoverColumn(String name) {
      switch (name) {
        case "n":
          return "BIGINT";
        case "broken":
          return "{\"error\": {\"kind\": \"SOURCE\", \"message\": \"cannot look\"}}";
        default:
          return null;
      }
    }

    @Override
    public boolean supportsWriting() {
      return capable;
    }
  }
}

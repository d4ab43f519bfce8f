package io.calcitebridge.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/**
 * The jar's Arrow {@code Schema} (Arrow 19.0.0's, its JSON mapper made at first use) still writes
 * and reads its JSON form as Arrow's does.
 */
class PatchedSchemaTest {
  @Test
  void theSchemaStillRoundTripsThroughItsJson() throws Exception {
    Schema schema = new Schema(Users.SCHEMA.getFields(), Map.of("origin", "test"));
    String json = schema.toJson();
    assertTrue(json.contains("\"name\" : \"user\""), json);
    assertEquals(schema, Schema.fromJSON(json));
  }
}

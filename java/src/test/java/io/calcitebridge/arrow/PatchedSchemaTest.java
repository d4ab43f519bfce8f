package io.calcitebridge.arrow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/**
 * The jar's Arrow {@code Schema} (Arrow 19.0.0's, its JSON mapper made at first use) still writes
 * and reads its JSON form as Arrow's does.
 */
class PatchedSchemaTest {
  @Test
  void theSchemaStillRoundTripsThroughItsJson() throws Exception {
    Schema schema =
        new Schema(
            List.of(
                new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
                new Field(
                    "user",
                    FieldType.nullable(ArrowType.Struct.INSTANCE),
                    List.of(Field.nullable("name", ArrowType.Utf8.INSTANCE))),
                Field.nullable(
                    "score", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE))),
            Map.of("origin", "test"));
    String json = schema.toJson();
    assertTrue(json.contains("\"name\" : \"user\""), json);
    assertEquals(schema, Schema.fromJSON(json));
  }
}

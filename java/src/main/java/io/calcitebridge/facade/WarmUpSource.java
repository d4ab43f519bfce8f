package io.calcitebridge.facade;

import io.calcitebridge.arrow.ArrowMemory;
import io.calcitebridge.connector.PythonSource;
import java.util.List;
import java.util.StringJoiner;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.ArrowSchema;
import org.apache.arrow.c.Data;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The idle-time warm-up's stand-in for a registered source that takes nested filters ({@link
 * IdleWarmUp}): {@code people (id BIGINT, person ROW<name STRING, age INT>, score DOUBLE)}. It
 * accepts every filter it is offered, so the warm-up's statements take the path a Python or Java
 * source's pushdown takes in the JVM (the offer and the answer as JSON, the scan that keeps the
 * filters), without calling into the host. It is only planned, never scanned.
 */
final class WarmUpSource implements PythonSource {
  static final String NAME = "people";

  private static final Schema SCHEMA =
      new Schema(
          List.of(
              Field.nullable("id", new ArrowType.Int(64, true)),
              new Field(
                  "person",
                  FieldType.nullable(ArrowType.Struct.INSTANCE),
                  List.of(
                      Field.nullable("name", ArrowType.Utf8.INSTANCE),
                      Field.nullable("age", new ArrowType.Int(32, true)))),
              Field.nullable("score", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE))));

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public @Nullable String exportSchema(long address) {
    Data.exportSchema(ArrowMemory.allocator(), SCHEMA, null, ArrowSchema.wrap(address));
    return null;
  }

  @Override
  public boolean supportsFilterPushDown() {
    return true;
  }

  @Override
  public boolean supportsNestedFilters() {
    return true;
  }

  /**
   * Accepts all {@code n} filters offered: {@code {"accepted": [0, ..., n-1], "remaining": []}}.
   */
  @Override
  public String applyFilters(String filtersJson) {
    int offered =
        io.calcitebridge.connector.SourceStorage.check(filtersJson) instanceof List<?> offer
            ? offer.size()
            : 0;
    StringJoiner accepted = new StringJoiner(", ", "[", "]");
    for (int i = 0; i < offered; i++) {
      accepted.add(Integer.toString(i));
    }
    return "{\"accepted\": " + accepted + ", \"remaining\": []}";
  }

  @Override
  public String scan(String requestJson, ArrowArrayStream out) {
    throw new UnsupportedOperationException("the warm-up's source is planned, never scanned");
  }

  @Override
  public String readableMetadata() {
    return "{}";
  }

  @Override
  public String write(long address, String metadataKeysJson) {
    throw new UnsupportedOperationException("the warm-up's source is not written");
  }

  @Override
  public boolean supportsNestedProjection() {
    return true;
  }

  @Override
  public boolean supportsAggregatePushDown() {
    return false;
  }

  @Override
  public boolean supportsDynamicColumns() {
    return false;
  }

  @Override
  public @Nullable String discoverColumn(String name) {
    return null;
  }

  @Override
  public boolean supportsWriting() {
    return false;
  }
}

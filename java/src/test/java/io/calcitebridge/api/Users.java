package io.calcitebridge.api;

import io.calcitebridge.api.source.ArrowRows;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/** The users table of the tests: NULLs at every nesting level, and helpers to read results. */
final class Users {
  private Users() {}

  /** {@code id BIGINT NOT NULL, user ROW<name STRING, age INT>, score DOUBLE}. */
  static final Schema SCHEMA =
      new Schema(
          List.of(
              new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
              new Field(
                  "user",
                  FieldType.nullable(ArrowType.Struct.INSTANCE),
                  List.of(
                      Field.nullable("name", ArrowType.Utf8.INSTANCE),
                      Field.nullable("age", new ArrowType.Int(32, true)))),
              Field.nullable("score", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE))));

  /** A NULL user, users with a NULL name or age, and ordinary ones. */
  static final List<Object[]> ROWS =
      List.of(
          new Object[] {1L, new Object[] {"ann", 25}, 1.5},
          new Object[] {2L, new Object[] {"bob", 41}, null},
          new Object[] {3L, null, 3.0},
          new Object[] {4L, new Object[] {"carl", null}, 4.5},
          new Object[] {5L, new Object[] {null, 29}, 5.0},
          new Object[] {6L, new Object[] {"dora", 30}, 6.5},
          new Object[] {7L, new Object[] {"abe", 17}, null});

  /** Reads every row of {@code reader} and closes it; a row renders as {@code [1, [ann, 25]]}. */
  static List<String> rows(ArrowReader reader) {
    try (reader) {
      List<String> out = new ArrayList<>();
      for (Object[] row : ArrowRows.read(reader)) {
        out.add(Arrays.deepToString(row));
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

package io.calcitebridge.udf;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.calcitebridge.arrow.ArrowMemory;
import io.calcitebridge.arrow.RowsToArrow;
import io.calcitebridge.arrow.ValueReaders;
import io.calcitebridge.errors.ErrorKind;
import io.calcitebridge.errors.SourceException;
import io.calcitebridge.functions.UserFunction;
import io.calcitebridge.types.BridgeTypeFactory;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.c.ArrowArray;
import org.apache.arrow.c.ArrowSchema;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;

/**
 * The runtime of the Python functions on Calcite's engine: a batch of rows of argument values
 * crosses to Python as one Arrow record batch (one column an argument, then a column of NULLs of
 * the result's type, which tells Python the type to return), and the result column comes back as
 * one Arrow array, both through the C Data Interface in one JVM-to-Python call.
 */
public final class PythonCalls implements UserFunction.Invoker {
  private static final PythonCalls INSTANCE = new PythonCalls();

  private PythonCalls() {}

  /**
   * The reader of a Python function's error object, made when a function first fails: every session
   * installs this runtime ({@link #install}), and a first session that made a mapper would spend a
   * quarter of its time on Jackson's own start-up (its date formats) for nothing.
   */
  private static final class Json {
    static final ObjectMapper MAPPER = new ObjectMapper();
  }

  /** Makes {@link UserFunction}s call their Python implementations through this runtime. */
  public static void install() {
    UserFunction.setInvoker(INSTANCE);
  }

  @Override
  public Object[] apply(UserFunction function, RelDataType arguments, List<Object[]> rows) {
    if (rows.isEmpty()) {
      return new Object[0];
    }
    if (!(function.handle() instanceof PythonFunction python)) {
      throw new IllegalStateException("not a Python function: " + function.getName());
    }
    RelDataTypeFactory factory = BridgeTypeFactory.INSTANCE;
    RelDataTypeFactory.Builder b = factory.builder();
    for (RelDataTypeField f : arguments.getFieldList()) {
      b.add(f.getName(), f.getType());
    }
    b.add("$result", factory.createTypeWithNullability(function.result(), true));
    RelDataType batchType = b.build();
    int n = arguments.getFieldCount();
    List<Object[]> padded = new ArrayList<>(rows.size());
    for (Object[] row : rows) {
      padded.add(Arrays.copyOf(row, n + 1));
    }
    BufferAllocator allocator = ArrowMemory.allocator();
    try (RowsToArrow reader =
            new RowsToArrow(
                allocator, batchType, Linq4j.enumerator(padded), padded.size(), Long.MAX_VALUE);
        ArrowArray inArray = ArrowArray.allocateNew(allocator);
        ArrowSchema inSchema = ArrowSchema.allocateNew(allocator);
        ArrowArray outArray = ArrowArray.allocateNew(allocator);
        ArrowSchema outSchema = ArrowSchema.allocateNew(allocator)) {
      reader.loadNextBatch();
      VectorSchemaRoot root = reader.getVectorSchemaRoot();
      Data.exportVectorSchemaRoot(allocator, root, null, inArray, inSchema);
      String error;
      try {
        error = python.apply(inArray, inSchema, outArray, outSchema);
      } finally {
        releaseIfHeld(inArray, inSchema);
      }
      if (error != null) {
        releaseIfHeld(outArray, outSchema);
        throw failure(function.getName(), error);
      }
      try (FieldVector result = Data.importVector(allocator, outArray, outSchema, null)) {
        if (result.getValueCount() != rows.size()) {
          throw new SourceException(
              "The function "
                  + function.getName()
                  + " returned "
                  + result.getValueCount()
                  + " values for "
                  + rows.size()
                  + " rows",
              ErrorKind.EXECUTION,
              "");
        }
        ValueReaders.ValueReader values = ValueReaders.of(result);
        Object[] out = new Object[rows.size()];
        for (int i = 0; i < out.length; i++) {
          out[i] = values.get(i);
        }
        return out;
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static void releaseIfHeld(ArrowArray array, ArrowSchema schema) {
    if (array.snapshot().release != 0) {
      array.release();
    }
    if (schema.snapshot().release != 0) {
      schema.release();
    }
  }

  /** The failure a Python function's error object describes. */
  static RuntimeException failure(String name, String error) {
    try {
      JsonNode e = Json.MAPPER.readTree(error).path("error");
      ErrorKind kind = ErrorKind.EXECUTION;
      try {
        kind = ErrorKind.valueOf(e.path("kind").asText("EXECUTION"));
      } catch (IllegalArgumentException ignored) {
        // EXECUTION
      }
      return new SourceException(
          e.path("message").asText("The function " + name + " failed"),
          kind,
          e.path("traceback").asText(""));
    } catch (IOException e) {
      return new SourceException(
          "The function " + name + " failed: " + error, ErrorKind.EXECUTION, "");
    }
  }
}

package io.calcitebridge.statement;

import io.calcitebridge.arrow.ArrowMemory;
import io.calcitebridge.arrow.ArrowStreams;
import io.calcitebridge.arrow.ExportedStream;
import io.calcitebridge.arrow.GuardedReader;
import io.calcitebridge.arrow.RowsToArrow;
import io.calcitebridge.catalog.ColumnDef;
import io.calcitebridge.catalog.TableDef;
import io.calcitebridge.connector.PythonSource;
import io.calcitebridge.connector.SourceStorage;
import io.calcitebridge.errors.Errors;
import io.calcitebridge.plan.PlannerContext;
import io.calcitebridge.pushdown.BridgeTable;
import io.calcitebridge.types.ArrowTypes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.c.ArrowSchema;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;

/**
 * Where rows become Arrow C streams for Python, and Python's Arrow streams become tables. One
 * allocator serves the whole JVM and outlives every batch handed to Python.
 */
public final class ArrowResults {
  private static final BufferAllocator ALLOCATOR = ArrowMemory.allocator();

  private ArrowResults() {}

  /**
   * Exports {@code rows} as an Arrow C stream; the stream pulls rows as Python reads it. A failure
   * while rows are produced crosses the stream as a {@link StreamFailure}, so the consumer raises
   * the same typed error.
   */
  public static ExportedStream export(RowSet rows) {
    return export(rows, 0);
  }

  /**
   * As {@link #export(RowSet)}; the rows Calcite's engine produces hold at most {@code memoryLimit}
   * bytes of Arrow buffers at once (none when 0), those the reader still holds included, past which
   * the stream fails with a RESOURCE error ({@code execution.memory-limit}).
   */
  public static ExportedStream export(RowSet rows, long memoryLimit) {
    ArrowReader reader;
    BufferAllocator allocator = ALLOCATOR;
    if (rows.direct() != null) {
      reader = rows.direct();
    } else if (memoryLimit > 0) {
      org.apache.calcite.linq4j.Enumerator<Object[]> source = enumerator(rows);
      ArrowMemory.Scoped scoped = ArrowMemory.scoped(memoryLimit);
      // The exported batches stay charged to the allocator that exports them.
      allocator = scoped.allocator();
      reader =
          new RowsToArrow(scoped.allocator(), rows.rowType(), source) {
            @Override
            protected void closeReadSource() {
              try {
                super.closeReadSource();
              } finally {
                scoped.done();
              }
            }
          };
    } else {
      reader = new RowsToArrow(ALLOCATOR, rows.rowType(), enumerator(rows));
    }
    return ArrowStreams.exportStream(
        allocator, new GuardedReader(allocator, reader, Errors::forStream));
  }

  /**
   * The enumerator of {@code rows}. Making it may already compute rows (a sort reads its input
   * there): a failure then is one of the running statement, as it would be while rows stream.
   */
  private static org.apache.calcite.linq4j.Enumerator<Object[]> enumerator(RowSet rows) {
    try {
      return rows.rows().enumerator();
    } catch (RuntimeException | LinkageError e) {
      throw Errors.translateRunning(e);
    }
  }

  /**
   * Exports a scan a backend reads; a failure while its rows are produced crosses the stream typed,
   * as a result's does.
   */
  public static ExportedStream exportScan(ArrowReader reader) {
    return ArrowStreams.exportStream(
        ALLOCATOR, new GuardedReader(ALLOCATOR, reader, Errors::forStream));
  }

  /** Registers a Python source as table {@code name}, with the columns of its schema. */
  public static void registerSource(
      PlannerContext context, String name, PythonSource source, boolean replace) {
    Schema schema;
    try (ArrowSchema struct = ArrowSchema.allocateNew(ALLOCATOR)) {
      SourceStorage.check(source.exportSchema(struct.memoryAddress()));
      schema = Data.importSchema(ALLOCATOR, struct, null);
    }
    RelDataType rowType = ArrowTypes.toRowType(context.typeFactory(), schema);
    List<ColumnDef> cols = new ArrayList<>();
    for (RelDataTypeField f : rowType.getFieldList()) {
      cols.add(ColumnDef.physical(f.getName(), f.getType()));
    }
    TableDef def = new TableDef(name, cols, Map.of("connector", "python"), false, null);
    if (replace) {
      context.catalog().drop(name, false, true);
    }
    SourceStorage storage = new SourceStorage(source, ALLOCATOR, def);
    context
        .catalog()
        .addTable(name, new BridgeTable(def, storage, context::parseExpression), false);
  }
}

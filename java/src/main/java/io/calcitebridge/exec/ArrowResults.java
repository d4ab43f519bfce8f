package io.calcitebridge.exec;

import io.calcitebridge.catalog.BridgeTable;
import io.calcitebridge.catalog.ColumnDef;
import io.calcitebridge.catalog.TableDef;
import io.calcitebridge.connector.PythonSource;
import io.calcitebridge.connector.SourceStorage;
import io.calcitebridge.plan.PlannerContext;
import io.calcitebridge.types.ArrowTypes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.c.ArrowSchema;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;

/**
 * Where rows become Arrow C streams for Python, and Python's Arrow streams become tables. One
 * allocator serves the whole JVM and outlives every batch handed to Python.
 */
public final class ArrowResults {
  private static final BufferAllocator ALLOCATOR = new RootAllocator();

  private ArrowResults() {}

  /** The allocator of every Arrow buffer the bridge creates. */
  public static BufferAllocator allocator() {
    return ALLOCATOR;
  }

  /** Bytes currently allocated by the bridge (0 once Python dropped every result). */
  public static long allocatedBytes() {
    return ALLOCATOR.getAllocatedMemory();
  }

  /** Exports {@code rows} as an Arrow C stream; the stream pulls rows as Python reads it. */
  public static ExportedStream export(RowSet rows) {
    if (rows.direct() != null) {
      return ArrowStreams.exportStream(ALLOCATOR, rows.direct());
    }
    return ArrowStreams.exportStream(
        ALLOCATOR, new RowsToArrow(ALLOCATOR, rows.rowType(), rows.rows().enumerator()));
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

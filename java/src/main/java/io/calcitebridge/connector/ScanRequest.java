package io.calcitebridge.connector;

import io.calcitebridge.catalog.ColumnDef;
import io.calcitebridge.catalog.ColumnKind;
import io.calcitebridge.catalog.TableDef;
import io.calcitebridge.errors.SourceException;
import io.calcitebridge.expr.Expression;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The request of one scan of a Python source, built value by value: the columns to read (physical
 * ones by name, metadata ones by key), index paths into the source's schema, and, for each value,
 * the name of the stream column it is read from. A field inside a ROW column is named by its dotted
 * path ({@code user.age}).
 */
final class ScanRequest {
  /** The source's schema: the table's physical columns, in declaration order. */
  private final List<ColumnDef> physical;

  private final LinkedHashSet<String> columns = new LinkedHashSet<>();
  private final LinkedHashSet<String> keys = new LinkedHashSet<>();
  private final List<List<Integer>> paths = new ArrayList<>();
  private final List<String> names = new ArrayList<>();
  private boolean discovered;

  ScanRequest(TableDef def) {
    this.physical = def.columns().stream().filter(c -> c.kind() == ColumnKind.PHYSICAL).toList();
  }

  /** Reads a whole column. */
  ScanRequest column(ColumnDef c) {
    return field(c, List.of());
  }

  /**
   * Reads the field at {@code fieldPath} (indices into nested ROW types) inside column {@code c};
   * the whole column when the path is empty. Metadata columns are read whole.
   */
  ScanRequest field(ColumnDef c, List<Integer> fieldPath) {
    if (c.isMetadata()) {
      keys.add(c.metadataKey());
      names.add(c.metadataKey());
      return this;
    }
    StringBuilder name = new StringBuilder(c.name());
    RelDataType type = c.type();
    for (int i : fieldPath) {
      RelDataTypeField f = type.getFieldList().get(i);
      name.append('.').append(f.getName());
      type = f.getType();
    }
    columns.add(c.name());
    names.add(name.toString());
    if (c.kind() == ColumnKind.PHYSICAL) {
      List<Integer> path = new ArrayList<>();
      path.add(physicalIndex(c));
      path.addAll(fieldPath);
      paths.add(path);
    } else if (c.kind() == ColumnKind.DYNAMIC) {
      discovered = true;
    }
    return this;
  }

  /**
   * The position of {@code c} among the physical columns: found by identity, as {@code c} is one of
   * the definition's own columns, before by equality. A record's first {@code equals} links its
   * generated comparison, about 10 ms of a new process's first scan.
   */
  private int physicalIndex(ColumnDef c) {
    for (int i = 0; i < physical.size(); i++) {
      if (physical.get(i) == c) {
        return i;
      }
    }
    return physical.indexOf(c);
  }

  /**
   * The request's JSON body. Index paths go with it when {@code projected} and no discovered
   * (dynamic) column is read, whose place in the source's schema is not known.
   */
  Map<String, Object> body(List<Expression> filters, boolean projected, @Nullable Integer limit) {
    Map<String, Object> r = new LinkedHashMap<>();
    r.put("columns", new ArrayList<>(columns));
    r.put("projection", projected && !discovered ? paths : null);
    r.put("filters", filters.stream().map(Expression::toJson).toList());
    r.put("metadata_keys", new ArrayList<>(keys));
    r.put("limit", limit);
    return r;
  }

  /** The name of the stream column each value is read from, in order. */
  List<String> names() {
    return List.copyOf(names);
  }

  /** Where each value read sits in the stream the source returned, whose schema is given. */
  int[] positions(Schema returned, String sourceName) {
    List<String> fields = returned.getFields().stream().map(Field::getName).toList();
    int[] at = new int[names.size()];
    for (int i = 0; i < at.length; i++) {
      at[i] = fields.indexOf(names.get(i));
      if (at[i] < 0) {
        throw new SourceException(
            "Source '"
                + sourceName
                + "' returned no column '"
                + names.get(i)
                + "'; it returned "
                + fields,
            true,
            "");
      }
    }
    return at;
  }
}

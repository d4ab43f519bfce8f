package io.calcitebridge.api.source;

import io.calcitebridge.expr.Expression;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * What the planner asks one scan for. The source returns, in order: one column per {@link
 * #projection()} path when it is present, else the {@link #columns()} when present, else every
 * column of its schema; then one column per {@link #metadataKeys()} entry, named by the key ({@link
 * #outputNames} spells this out). Every row must satisfy all {@link #filters()}.
 *
 * @param columns the top-level columns to return, in order; empty for every column. May name a
 *     column the schema does not list, found through {@link SupportsDynamicColumns}
 * @param projection index paths to return, in order, each as one column named by its dotted path
 *     ({@code [1, 0]} is field 0 of column 1, named like {@code user.name}); paths into ROW columns
 *     only for sources with {@link SupportsProjectionPushDown#supportsNestedProjection()}
 * @param filters the filters this source accepted in {@link SupportsFilterPushDown#applyFilters};
 *     every returned row must satisfy all of them
 * @param metadataKeys the metadata keys to append as columns, named by the key (see {@link
 *     SupportsReadingMetadata})
 * @param limit a row count the source may stop at; only a hint, because the engine applies the
 *     LIMIT again
 */
public record ScanRequest(
    Optional<List<String>> columns,
    Optional<List<List<Integer>>> projection,
    List<Expression> filters,
    List<String> metadataKeys,
    OptionalLong limit) {

  /**
   * Creates a request; the lists are copied.
   *
   * @throws IllegalArgumentException when {@code limit} is negative
   */
  public ScanRequest {
    columns = columns.map(List::copyOf);
    projection = projection.map(p -> p.stream().map(List::copyOf).toList());
    filters = List.copyOf(filters);
    metadataKeys = List.copyOf(metadataKeys);
    if (limit.isPresent() && limit.getAsLong() < 0) {
      throw new IllegalArgumentException("limit must not be negative: " + limit.getAsLong());
    }
  }

  /**
   * A request for every column of the source, without filters, metadata or limit.
   *
   * @return the request
   */
  public static ScanRequest all() {
    return new ScanRequest(
        Optional.empty(), Optional.empty(), List.of(), List.of(), OptionalLong.empty());
  }

  /**
   * The names of the columns a source with {@code schema} returns for this request, in order:
   * projection paths as dotted names ({@code user.name}), else the requested columns, else every
   * column of {@code schema}; then the metadata keys.
   *
   * @param schema the source's schema
   * @return the column names of the scan's result
   * @throws IllegalArgumentException when a projection path does not fit {@code schema}
   */
  public List<String> outputNames(Schema schema) {
    List<String> out = new ArrayList<>();
    if (projection.isPresent()) {
      for (List<Integer> path : projection.get()) {
        out.add(pathName(schema, path));
      }
    } else if (columns.isPresent()) {
      out.addAll(columns.get());
    } else {
      schema.getFields().forEach(f -> out.add(f.getName()));
    }
    out.addAll(metadataKeys);
    return out;
  }

  private static String pathName(Schema schema, List<Integer> path) {
    List<Field> fields = schema.getFields();
    StringBuilder name = new StringBuilder();
    for (int index : path) {
      if (index < 0 || index >= fields.size()) {
        throw new IllegalArgumentException("Projection path " + path + " does not fit " + schema);
      }
      Field f = fields.get(index);
      if (name.length() > 0) {
        name.append('.');
      }
      name.append(f.getName());
      fields = f.getChildren();
    }
    return name.toString();
  }
}

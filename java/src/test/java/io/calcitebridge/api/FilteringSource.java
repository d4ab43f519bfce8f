package io.calcitebridge.api;

import io.calcitebridge.api.source.FilterPushDownResult;
import io.calcitebridge.api.source.SupportsFilterPushDown;
import io.calcitebridge.expr.Call;
import io.calcitebridge.expr.Expression;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.arrow.vector.types.pojo.Schema;

/** A {@link RowSource} that accepts every filter {@link Filters} evaluates. */
class FilteringSource extends RowSource implements SupportsFilterPushDown {
  private final boolean nested;
  final List<List<Expression>> offered = Collections.synchronizedList(new ArrayList<>());

  FilteringSource(Schema schema, List<Object[]> rows, boolean nested) {
    super(schema, rows);
    this.nested = nested;
  }

  @Override
  public boolean supportsNestedFilters() {
    return nested;
  }

  @Override
  public FilterPushDownResult applyFilters(List<Expression> filters) {
    offered.add(filters);
    List<Expression> accepted = new ArrayList<>();
    List<Expression> remaining = new ArrayList<>();
    for (Expression f : filters) {
      if (!nested && Call.hasNested(f)) {
        throw new AssertionError("offered a nested filter without nested support: " + f);
      }
      (Filters.supported(f) ? accepted : remaining).add(f);
    }
    return FilterPushDownResult.of(accepted, remaining);
  }
}

package io.calcitebridge.api.source;

import io.calcitebridge.expr.Expression;
import java.util.List;

/**
 * A source's answer to {@link SupportsFilterPushDown#applyFilters}: which of the offered filters it
 * applies itself, and which the engine applies above the scan.
 *
 * <p>Every offered filter must come back in at least one of the lists, and nothing else may come
 * back; anything else fails the statement with a {@code BridgeException} of kind {@code
 * SOURCE_CONTRACT} naming the source and the filter. A filter in both lists is a hint: the source
 * may use it to skip data, and the engine checks it again.
 *
 * @param accepted the filters the source applies exactly; they leave the plan
 * @param remaining the filters the engine applies in a filter above the scan
 */
public record FilterPushDownResult(List<Expression> accepted, List<Expression> remaining) {
  /** Creates a result; the lists are copied. */
  public FilterPushDownResult {
    accepted = List.copyOf(accepted);
    remaining = List.copyOf(remaining);
  }

  /**
   * A result accepting {@code accepted} and leaving {@code remaining} to the engine.
   *
   * @param accepted the filters the source applies exactly
   * @param remaining the filters the engine applies
   * @return the result
   */
  public static FilterPushDownResult of(List<Expression> accepted, List<Expression> remaining) {
    return new FilterPushDownResult(accepted, remaining);
  }

  /**
   * A result accepting every one of {@code filters}.
   *
   * @param filters the offered filters
   * @return the result
   */
  public static FilterPushDownResult acceptingAll(List<Expression> filters) {
    return new FilterPushDownResult(filters, List.of());
  }

  /**
   * A result leaving every one of {@code filters} to the engine.
   *
   * @param filters the offered filters
   * @return the result
   */
  public static FilterPushDownResult acceptingNone(List<Expression> filters) {
    return new FilterPushDownResult(List.of(), filters);
  }
}

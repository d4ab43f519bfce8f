package io.calcitebridge.statement;

import io.calcitebridge.translate.Translation;
import java.util.List;
import java.util.Map;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.runtime.Bindable;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A planned query, ready to run any number of times: a backend's translation, or an Enumerable plan
 * (with its generated code once it was compiled). It holds no open source and no rows.
 */
final class QueryPlan {
  /** An Enumerable plan compiled to code, and the values the code reads from its context. */
  record Compiled(Bindable<Object> bindable, Map<String, Object> parameters) {}

  private final RelDataType rowType;
  private final @Nullable Translation translation;
  private final @Nullable EnumerableRel physical;
  private volatile @Nullable Compiled compiled;
  private @Nullable List<RelDataType> parameterTypes;
  private @Nullable ParamFilters paramFilters;
  private @Nullable Absorbing absorbing;
  private List<io.calcitebridge.validate.BridgeSqlValidator.ParameterConversion> conversions =
      List.of();

  /**
   * A plan that Calcite's engine runs, or one {@code auto} translates, that is a filter on
   * parameters right above a scan, at most with a selection of its columns ({@code columns}, null
   * for all) on top: when the source accepts every filter bound at a run, the source's own stream
   * is the result, as for the text with the values written in.
   */
  record Absorbing(io.calcitebridge.pushdown.BridgeTableScan scan, int @Nullable [] columns) {}

  QueryPlan(
      RelDataType rowType, @Nullable Translation translation, @Nullable EnumerableRel physical) {
    this.rowType = rowType;
    this.translation = translation;
    this.physical = physical;
  }

  RelDataType rowType() {
    return rowType;
  }

  /** The backend's translation, or null when Calcite's engine runs the plan. */
  @Nullable Translation translation() {
    return translation;
  }

  /** The Enumerable plan, or null when a backend runs the query. */
  @Nullable EnumerableRel physical() {
    return physical;
  }

  /**
   * Marks the plan as one whose dynamic parameters of {@code types} are bound as it runs, with the
   * filters on them that are offered to sources then.
   */
  QueryPlan withParameters(List<RelDataType> types, @Nullable ParamFilters filters) {
    this.parameterTypes = types;
    this.paramFilters = filters;
    return this;
  }

  /** Notes the conversions of the parameters' string values each run checks. */
  QueryPlan withConversions(
      List<io.calcitebridge.validate.BridgeSqlValidator.ParameterConversion> noted) {
    this.conversions = List.copyOf(noted);
    return this;
  }

  /**
   * The placeholders whose string values the plan converts to a number, a BOOLEAN or a datetime: a
   * run checks each value as the literal of it is checked while it is validated.
   */
  List<io.calcitebridge.validate.BridgeSqlValidator.ParameterConversion> conversions() {
    return conversions;
  }

  /** Marks the plan as one a source may absorb once its filters are bound ({@link Absorbing}). */
  QueryPlan withAbsorbing(@Nullable Absorbing scan) {
    this.absorbing = scan;
    return this;
  }

  /** The scan that may absorb the plan once its filters are bound, or null. */
  @Nullable Absorbing absorbing() {
    return absorbing;
  }

  /** The types of the dynamic parameters the plan reads, or null when it has none. */
  @Nullable List<RelDataType> parameterTypes() {
    return parameterTypes;
  }

  /** The filters with parameters to offer to sources as the plan runs, or null. */
  @Nullable ParamFilters paramFilters() {
    return paramFilters;
  }

  @Nullable Compiled compiled() {
    return compiled;
  }

  void setCompiled(Compiled code) {
    this.compiled = code;
  }
}

/**
 * Flink SQL's semantics where Calcite's differ, for every backend: the convertlets that give
 * Flink's meaning to casts, arithmetic, DECIMAL rounding, JSON and time zone functions ({@link
 * io.calcitebridge.flink.Convertlets}, {@link io.calcitebridge.flink.FlinkNumbers}), timestamps and
 * their precision, constants computed while planning as Flink's planner does ({@link
 * io.calcitebridge.flink.Constants}, {@link io.calcitebridge.flink.FlinkConstants}), NaN, -0.0 and
 * floating-point comparisons, checked and wide arithmetic, output names and row casts.
 *
 * <p>Belongs here: a rewrite whose reason is "Flink answers this differently" ("change how Flink
 * rounds a DECIMAL" starts in {@code FlinkNumbers}). Does not: a workaround of a Calcite bug, where
 * Calcite's own answer is wrong by its own rules ({@code repair}), or a rewrite that only Calcite's
 * engine needs ({@code enumerable}). Its tests compare with Flink's answers ({@code tests/flink/}).
 *
 * <p>Internal: not part of the public API (see {@link io.calcitebridge.api}); it may change without
 * notice.
 */
package io.calcitebridge.flink;

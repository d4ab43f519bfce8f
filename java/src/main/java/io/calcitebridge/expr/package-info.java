/**
 * The resolved-expression model, public: the filters the planner offers to table sources and the
 * ones they accept ({@link io.calcitebridge.expr.FieldReference}, {@link
 * io.calcitebridge.expr.NestedFieldReference}, {@link io.calcitebridge.expr.Literal}, {@link
 * io.calcitebridge.expr.Call}).
 *
 * <p>The same model exists in Python ({@code calcite_bridge.expressions}); {@link
 * io.calcitebridge.expr.Expression#toJson()} and {@link
 * io.calcitebridge.expr.Expression#fromJson(java.util.Map)} are the wire format between them.
 * Expressions are immutable records, equal by value, and render the way plans show them: {@code
 * <(user.age, 30)}.
 */
package io.calcitebridge.expr;

/**
 * The public Java API of calcite-bridge: what Java programs call, and the exception every entry
 * point throws. Everything outside {@code io.calcitebridge.api} (and the expression model in {@code
 * io.calcitebridge.expr}) is internal and may change without notice.
 */
package io.calcitebridge.api;

package io.calcitebridge.api;

import java.util.List;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * One statement of a script's dry run ({@link BridgeEnvironment#checkScript}).
 *
 * @param line the line the statement starts on in the script, 1-based
 * @param column the column it starts at, 1-based
 * @param outcome {@code ran} (a definition), {@code validated} (validated and planned, not run) or
 *     {@code skipped} ({@code EXECUTE PLAN}, whose file the script may write first)
 * @param columns a query's result columns, each as {@code name TYPE}; empty for other statements
 * @param plan the plan of a query or data change when asked for, an {@code EXPLAIN}'s text, or null
 */
public record CheckedStatement(
    int line, int column, String outcome, List<String> columns, @Nullable String plan) {}

/**
 * The generated parser {@code BridgeSqlParserImpl}: Calcite's grammar extended with the productions
 * in {@code src/main/codegen}. Use it through {@link io.calcitebridge.sql.BridgeParser}.
 *
 * <p>Internal: not part of the public API (see {@link io.calcitebridge.api}); it may change without
 * notice.
 */
package io.calcitebridge.sql.parser.impl;

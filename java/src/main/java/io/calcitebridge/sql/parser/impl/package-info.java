/**
 * The generated parser {@code BridgeSqlParserImpl}: Calcite's grammar extended with the productions
 * in {@code src/main/codegen}. Use it through {@link io.calcitebridge.sql.BridgeParser}.
 */
package io.calcitebridge.sql.parser.impl;

/**
 * The public Java API of calcite-bridge: {@link io.calcitebridge.api.BridgeEnvironment}, the entry
 * point Java programs call, {@link io.calcitebridge.api.ColumnInfo}, and {@link
 * io.calcitebridge.api.BridgeException}, the exception every entry point throws.
 *
 * <p>Public packages: {@code io.calcitebridge.api}, {@code io.calcitebridge.api.source} (table
 * sources written in Java) and {@code io.calcitebridge.expr} (the filters handed to sources), and
 * {@code io.calcitebridge.gateway.BridgeGateway}, which serves Python clients over py4j. Every
 * other package and class is internal and may change without notice.
 */
package io.calcitebridge.api;

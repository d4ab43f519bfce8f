/**
 * Table sources written in Java, public: a {@link io.calcitebridge.api.source.TableSource} gives
 * the planner a schema and Arrow rows, and opts into more work through the {@code Supports*}
 * abilities. Register one with {@link io.calcitebridge.api.BridgeEnvironment#registerSource(String,
 * TableSource)}, or make tables declared in DDL use one through {@link
 * io.calcitebridge.api.BridgeEnvironment#registerConnector(String, TableSourceFactory)}.
 *
 * <p>The abilities mirror the Python ones in {@code calcite_bridge.sources}:
 *
 * <table>
 *   <caption>Abilities</caption>
 *   <tr><th>ability</th><th>what the planner does</th></tr>
 *   <tr><td>{@link io.calcitebridge.api.source.SupportsFilterPushDown}</td><td>offers the WHERE
 *       clause's conjuncts once a scan; the accepted ones arrive in {@link
 *       io.calcitebridge.api.source.ScanRequest#filters()}</td></tr>
 *   <tr><td>{@link io.calcitebridge.api.source.SupportsProjectionPushDown}</td><td>asks for fields
 *       inside ROW columns as index paths</td></tr>
 *   <tr><td>{@link io.calcitebridge.api.source.SupportsReadingMetadata}</td><td>lets DDL declare
 *       metadata columns read by key</td></tr>
 *   <tr><td>{@link io.calcitebridge.api.source.SupportsDynamicColumns}</td><td>asks the source
 *       about names no table declares (field discovery)</td></tr>
 *   <tr><td>{@link io.calcitebridge.api.source.SupportsWriting}, {@link
 *       io.calcitebridge.api.source.SupportsWritingMetadata}</td><td>runs INSERT through the
 *       source</td></tr>
 * </table>
 *
 * <p>An exception a source throws reaches the caller as a {@link
 * io.calcitebridge.api.BridgeException} of kind {@code SOURCE} whose {@code detail()} holds the
 * source's stack trace; a source that breaks the contract (loses or invents a filter, returns a
 * column it was not asked for under the wrong name) gives kind {@code SOURCE_CONTRACT}.
 */
package io.calcitebridge.api.source;

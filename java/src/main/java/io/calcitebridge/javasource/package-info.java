/**
 * Internal: Java table sources ({@link io.calcitebridge.api.source.TableSource}) behind the
 * planner's source interface ({@link io.calcitebridge.connector.PythonSource}), so they get every
 * pushdown Python sources get. Not part of the public API; may change without notice.
 */
package io.calcitebridge.javasource;

/**
 * JSON text as plain Java values and back ({@link io.calcitebridge.json.JsonValues}), with
 * Jackson's streaming parser and generator only: the wire format of offers, answers and requests
 * between the planner and sources, of errors carried through streams and of options. The bottom
 * layer, so that every other may use it.
 *
 * <p>Internal: not part of the public API (see {@link io.calcitebridge.api}); it may change without
 * notice.
 */
package io.calcitebridge.json;

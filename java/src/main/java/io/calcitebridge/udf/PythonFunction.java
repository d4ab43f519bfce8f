package io.calcitebridge.udf;

import org.apache.arrow.c.ArrowArray;
import org.apache.arrow.c.ArrowSchema;

/**
 * A user-defined function written in Python, implemented there with JPype's {@code @JImplements}.
 * Calls are coarse: one call computes the function over a batch of rows.
 */
public interface PythonFunction {
  /**
   * The function's signature as JSON: {@code {"name", "return_type", "arg_types" (a list of SQL
   * types, or null when any operand is taken), "arity", "deterministic", "vectorized", "id"}}, or
   * an error object {@code {"error": {"kind", "message", "traceback"}}}.
   */
  String spec();

  /**
   * Computes the function over the record batch in {@code inArray}/{@code inSchema}: one column a
   * argument, then a last column of NULLs of the result's type. Exports the result column into
   * {@code outArray}/{@code outSchema}; returns null, or an error object as {@link #spec} does.
   */
  String apply(
      ArrowArray inArray, ArrowSchema inSchema, ArrowArray outArray, ArrowSchema outSchema);
}

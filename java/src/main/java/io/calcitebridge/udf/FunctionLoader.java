package io.calcitebridge.udf;

/**
 * Loads the Python function a {@code CREATE FUNCTION ... LANGUAGE PYTHON} names ({@code
 * 'package.module.attr'}), implemented in Python: only from the modules the environment allows.
 */
public interface FunctionLoader {
  /**
   * The function at {@code target}, registered as {@code name}: a {@link PythonFunction}, or a
   * {@code String} holding an error object ({@code {"error": {"kind", "message", "traceback"}}}).
   */
  Object load(String name, String target);
}

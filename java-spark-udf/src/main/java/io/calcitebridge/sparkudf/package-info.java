/**
 * The dynamic-columns functions ({@code COLUMN_GET}, ...) as Spark SQL Java UDFs, which the spark
 * backend registers in each session; they call the same codec as the other backends.
 */
package io.calcitebridge.sparkudf;

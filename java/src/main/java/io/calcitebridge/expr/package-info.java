/**
 * The resolved-expression model shared with Python: the filters offered to and accepted by table
 * sources.
 */
package io.calcitebridge.expr;

/** Tables, columns (physical, computed, metadata) and views of an environment. */
package io.calcitebridge.catalog;

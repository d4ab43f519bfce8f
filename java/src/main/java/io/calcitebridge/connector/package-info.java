/** Java side of the built-in connectors ({@code memory}, Arrow tables registered from Python). */
package io.calcitebridge.connector;

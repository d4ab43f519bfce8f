/** {@link io.calcitebridge.validate.BridgeSqlValidator}: star expansion and field discovery. */
package io.calcitebridge.validate;

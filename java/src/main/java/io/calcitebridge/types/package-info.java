/** The SQL type system and the rendering of types the way users write them. */
package io.calcitebridge.types;

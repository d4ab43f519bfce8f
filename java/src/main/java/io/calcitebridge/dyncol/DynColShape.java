package io.calcitebridge.dyncol;

/** How the arguments of a dynamic-columns function are laid out. */
enum DynColShape {
  CREATE,
  ADD,
  GET,
  DELETE,
  EXISTS,
  UNARY
}

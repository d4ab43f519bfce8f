package io.calcitebridge.vector;

/** What an aggregate of {@link VectorAggregates} computes. */
public enum VectorAggregateKind {
  COUNT_STAR,
  COUNT,
  SUM,
  SUM0,
  MIN,
  MAX
}

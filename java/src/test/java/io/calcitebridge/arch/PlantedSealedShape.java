package io.calcitebridge.arch;

/**
 * A sealed type with a factory of its permitted subclass, for {@code LayersTest}: the two name each
 * other, yet count as one unit, so no cycle is reported.
 */
sealed interface PlantedSealedShape permits PlantedSquare {
  int side();

  static PlantedSealedShape square(int side) {
    return new PlantedSquare(side);
  }
}

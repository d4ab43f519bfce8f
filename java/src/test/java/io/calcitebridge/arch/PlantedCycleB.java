package io.calcitebridge.arch;

/** The other half of the class cycle planted for {@code LayersTest}. */
final class PlantedCycleB {
  private final int count;

  PlantedCycleB(int count) {
    this.count = count;
  }

  int count() {
    return count;
  }

  static int twice(PlantedCycleB b) {
    return 2 * PlantedCycleA.Inner.size(b);
  }
}

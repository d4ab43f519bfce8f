package io.calcitebridge.arch;

/**
 * Half of a class cycle planted on purpose for {@code LayersTest}: its nested class uses {@link
 * PlantedCycleB}, which uses this class back.
 */
final class PlantedCycleA {
  private PlantedCycleA() {}

  /** Nested, so the cycle only shows once nested classes count as their top-level class. */
  static final class Inner {
    private Inner() {}

    static int size(PlantedCycleB b) {
      return b.count();
    }
  }
}

package io.calcitebridge.arch;

/** The permitted subclass of {@link PlantedSealedShape}. */
record PlantedSquare(int side) implements PlantedSealedShape {}

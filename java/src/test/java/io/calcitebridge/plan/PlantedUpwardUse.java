package io.calcitebridge.plan;

import io.calcitebridge.statement.RowSet;

/** Breaks the layers on purpose (the planner using the statement layer), for {@code LayersTest}. */
final class PlantedUpwardUse {
  private PlantedUpwardUse() {}

  static String kind(RowSet rows) {
    return rows.kind();
  }
}

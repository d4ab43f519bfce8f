package io.calcitebridge.pushdown;

import java.util.List;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLocalRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.checkerframework.checker.nullness.qual.Nullable;

/** Recognizes a calc that only selects input columns, which Arrow batches can do in place. */
public final class SelectOnly {
  private SelectOnly() {}

  /** The input columns {@code program} selects (no condition, no computation), or null. */
  public static int @Nullable [] columns(RexProgram program) {
    if (program.getCondition() != null) {
      return null;
    }
    List<RexLocalRef> projects = program.getProjectList();
    int[] map = new int[projects.size()];
    for (int i = 0; i < map.length; i++) {
      RexNode e = program.getExprList().get(projects.get(i).getIndex());
      if (!(e instanceof RexInputRef ref)) {
        return null;
      }
      map[i] = ref.getIndex();
    }
    return map;
  }
}

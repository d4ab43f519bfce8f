package io.calcitebridge.repair;

import com.google.common.collect.ImmutableSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.IntFunction;
import org.apache.calcite.plan.Contexts;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCorrelVariable;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.tools.RelBuilderFactory;

/**
 * Rewrites an outer join whose condition holds a correlated sub-query, which Calcite's {@code
 * SubQueryRemoveRule} (1.42, unchanged upstream) leaves in place and Calcite's engine cannot run,
 * into joins it can run. For {@code A LEFT JOIN B ON p}:
 *
 * <ul>
 *   <li>{@code M}: the pairs of a distinct row of {@code A} and a row of {@code B} for which {@code
 *       p} is TRUE, {@code SELECT * FROM (SELECT DISTINCT * FROM A), B WHERE p}, with a TRUE column
 *       {@code m}; the sub-query is then in a filter, where the usual removal takes it;
 *   <li>{@code A LEFT JOIN M} on every column of {@code A} being NOT DISTINCT: each row of {@code
 *       A}, duplicates included, with its matches, or alone.
 * </ul>
 *
 * <p>A RIGHT join is the same the other way round. A FULL join pairs distinct rows of both sides in
 * {@code M}, then joins {@code (A LEFT JOIN M) FULL JOIN B} on {@code B}'s columns being NOT
 * DISTINCT from the match's and {@code m}. A row matches where {@code p} is TRUE, not where it is
 * UNKNOWN, as in the join. Sub-queries correlated with two levels at once are avoided on purpose:
 * Calcite's decorrelator (1.42) joins such a middle level on the wrong column. Inputs with nested
 * columns (ARRAY, MAP, ROW), which cannot be grouped, are left as they are. Runs before sub-queries
 * are removed.
 *
 * <p>Defect: no JIRA; {@code SELECT l.a, r.a FROM l LEFT JOIN r ON r.a IN (SELECT b FROM ts WHERE
 * ts.a > l.a)} is refused by both backends, as the sub-query stays in the join (a FULL join failed
 * to plan). Can go when, with it out of {@code OptimizerProgram}, the cases {@code fz_*_join_on_*}
 * of {@code tests/fixtures/correctness.sql} and {@code
 * SubQueryRulesTest.anOuterJoinOnASubQueryOfBothInputsKeepsEachSideAndItsDuplicates} and {@code
 * anUnknownConditionMatchesNoRow} pass.
 */
public final class OuterJoinSubQueries {
  private OuterJoinSubQueries() {}

  /** {@code rel} with each outer join whose condition holds a correlated sub-query rewritten. */
  public static RelNode rewrite(RelNode rel) {
    return rel.accept(
        new RelHomogeneousShuttle() {
          @Override
          public RelNode visit(RelNode other) {
            RelNode visited = super.visit(other);
            return visited instanceof LogicalJoin join ? rewriteJoin(join) : visited;
          }
        });
  }

  private static boolean groupable(RelNode rel) {
    for (RelDataTypeField f : rel.getRowType().getFieldList()) {
      RelDataType t = f.getType();
      if (t.isStruct() || t.getComponentType() != null || t.getKeyType() != null) {
        return false;
      }
    }
    return true;
  }

  private static RelNode rewriteJoin(LogicalJoin join) {
    JoinRelType type = join.getJoinType();
    if (type != JoinRelType.LEFT && type != JoinRelType.RIGHT && type != JoinRelType.FULL) {
      return join;
    }
    RexNode condition = join.getCondition();
    Set<CorrelationId> variables = join.getVariablesSet();
    if (variables.isEmpty() || RexUtil.SubQueryFinder.find(condition) == null) {
      return join;
    }
    RelNode a = join.getLeft();
    RelNode b = join.getRight();
    int n = a.getRowType().getFieldCount();
    int m = b.getRowType().getFieldCount();
    if (!correlatesWithin(condition, variables, n + m) || !groupable(a) || !groupable(b)) {
      return join;
    }
    RelOptCluster cluster = join.getCluster();
    RexBuilder rex = cluster.getRexBuilder();
    RelBuilder builder = BUILDER.create(cluster, null);
    boolean keepA = type != JoinRelType.RIGHT;
    boolean keepB = type != JoinRelType.LEFT;

    // M: the matching pairs of distinct rows, and a TRUE column.
    builder.push(a);
    if (keepA) {
      builder.distinct();
    }
    builder.push(b);
    if (keepB) {
      builder.distinct();
    }
    builder.join(JoinRelType.INNER, rex.makeLiteral(true));
    RelNode cross = builder.build();
    CorrelationId all = cluster.createCorrel();
    RexNode allRow = rex.makeCorrel(cross.getRowType(), all);
    RexNode matches =
        remap(
            condition,
            variables,
            i -> rex.makeInputRef(cross, i),
            i -> rex.makeFieldAccess(allRow, i));
    RelNode matched = LogicalFilter.create(cross, matches, ImmutableSet.of(all));
    List<RexNode> pairs = new ArrayList<>(rex.identityProjects(matched.getRowType()));
    pairs.add(rex.makeLiteral(true));
    RelNode mm = LogicalProject.create(matched, List.of(), pairs, (List<String>) null, Set.of());

    List<RexNode> exprs = new ArrayList<>();
    RelNode top;
    if (type == JoinRelType.RIGHT) {
      // B LEFT JOIN M ON b = M.b: fields B (m), M (n + m + 1).
      builder.push(b).push(mm);
      List<RexNode> on = new ArrayList<>();
      for (int j = 0; j < m; j++) {
        on.add(notDistinct(builder, j, n + j));
      }
      builder.join(JoinRelType.LEFT, on);
      top = builder.build();
      for (int i = 0; i < n; i++) {
        exprs.add(rex.makeInputRef(top, m + i));
      }
      for (int j = 0; j < m; j++) {
        exprs.add(rex.makeInputRef(top, j));
      }
    } else {
      // A LEFT JOIN M ON a = M.a: fields A (n), M (n + m + 1).
      builder.push(a).push(mm);
      List<RexNode> on = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        on.add(notDistinct(builder, i, i));
      }
      builder.join(JoinRelType.LEFT, on);
      if (type == JoinRelType.LEFT) {
        top = builder.build();
        for (int i = 0; i < n; i++) {
          exprs.add(rex.makeInputRef(top, i));
        }
        for (int j = 0; j < m; j++) {
          exprs.add(rex.makeInputRef(top, 2 * n + j));
        }
      } else {
        // (A LEFT JOIN M) FULL JOIN (B, TRUE) ON M.b = b AND M.m = TRUE.
        builder.push(b);
        List<RexNode> withTrue = new ArrayList<>(builder.fields());
        withTrue.add(builder.literal(true));
        builder.project(withTrue);
        List<RexNode> on2 = new ArrayList<>();
        for (int j = 0; j < m; j++) {
          on2.add(notDistinct(builder, 2 * n + j, j));
        }
        on2.add(builder.equals(builder.field(2, 0, 2 * n + m), builder.field(2, 1, m)));
        builder.join(JoinRelType.FULL, on2);
        top = builder.build();
        int left = 2 * n + m + 1;
        for (int i = 0; i < n; i++) {
          exprs.add(rex.makeInputRef(top, i));
        }
        for (int j = 0; j < m; j++) {
          exprs.add(rex.makeInputRef(top, left + j));
        }
      }
    }
    return project(rex, top, exprs, join.getRowType().getFieldList());
  }

  private static RexNode notDistinct(RelBuilder builder, int left, int right) {
    return builder.isNotDistinctFrom(builder.field(2, 0, left), builder.field(2, 1, right));
  }

  private static final RelBuilderFactory BUILDER =
      RelBuilder.proto(Contexts.of(SubQueryRules.builderConfig(RelBuilder.Config.DEFAULT)));

  /** {@code exprs} cast to the join's column types, named as its columns. */
  private static RelNode project(
      RexBuilder rex, RelNode input, List<RexNode> exprs, List<RelDataTypeField> out) {
    List<RexNode> cast = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (int i = 0; i < exprs.size(); i++) {
      RelDataType t = out.get(i).getType();
      RexNode e = exprs.get(i);
      cast.add(e.getType().equals(t) ? e : rex.makeAbstractCast(t, e, false));
      names.add(out.get(i).getName());
    }
    return LogicalProject.create(input, List.of(), cast, names, Set.of());
  }

  /**
   * Whether every correlation variable of {@code variables} in {@code condition} reads a column of
   * the join's inputs by its place (its type is the left input's row, or the join's).
   */
  private static boolean correlatesWithin(
      RexNode condition, Set<CorrelationId> variables, int width) {
    boolean[] ok = {true};
    RexShuttle check =
        new RexShuttle() {
          @Override
          public RexNode visitFieldAccess(RexFieldAccess access) {
            if (access.getReferenceExpr() instanceof RexCorrelVariable v
                && variables.contains(v.id)) {
              ok[0] &= access.getField().getIndex() < width;
              return access;
            }
            return super.visitFieldAccess(access);
          }

          @Override
          public RexNode visitSubQuery(RexSubQuery subQuery) {
            super.visitSubQuery(subQuery);
            insideRel(subQuery.rel, this);
            return subQuery;
          }
        };
    condition.accept(check);
    return ok[0];
  }

  /**
   * {@code condition} with each column of the join's inputs, field {@code i} of the joined row,
   * replaced: by {@code top.apply(i)} where the condition reads it as an input, by {@code
   * inside.apply(i)} where a sub-query reads it through one of {@code variables}.
   */
  private static RexNode remap(
      RexNode condition,
      Set<CorrelationId> variables,
      IntFunction<RexNode> top,
      IntFunction<RexNode> inside) {
    RexShuttle insideRex =
        new RexShuttle() {
          @Override
          public RexNode visitFieldAccess(RexFieldAccess access) {
            if (access.getReferenceExpr() instanceof RexCorrelVariable v
                && variables.contains(v.id)) {
              return inside.apply(access.getField().getIndex());
            }
            return super.visitFieldAccess(access);
          }

          @Override
          public RexNode visitSubQuery(RexSubQuery subQuery) {
            RexSubQuery visited = (RexSubQuery) super.visitSubQuery(subQuery);
            return visited.clone(insideRel(visited.rel, this));
          }
        };
    return condition.accept(
        new RexShuttle() {
          @Override
          public RexNode visitInputRef(RexInputRef ref) {
            return top.apply(ref.getIndex());
          }

          @Override
          public RexNode visitSubQuery(RexSubQuery subQuery) {
            RexSubQuery visited = (RexSubQuery) super.visitSubQuery(subQuery);
            return visited.clone(insideRel(visited.rel, insideRex));
          }
        });
  }

  private static RelNode insideRel(RelNode rel, RexShuttle shuttle) {
    return rel.accept(
        new RelHomogeneousShuttle() {
          @Override
          public RelNode visit(RelNode other) {
            return super.visit(other).accept(shuttle);
          }
        });
  }
}

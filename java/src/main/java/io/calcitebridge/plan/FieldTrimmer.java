package io.calcitebridge.plan;

import io.calcitebridge.pushdown.BridgeTableScan;
import java.util.Set;
import org.apache.calcite.plan.RelOptLattice;
import org.apache.calcite.plan.RelOptMaterialization;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.rel.core.SetOp;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalIntersect;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalMinus;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.logical.LogicalSort;
import org.apache.calcite.rel.logical.LogicalTableScan;
import org.apache.calcite.rel.logical.LogicalUnion;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql2rel.RelFieldTrimmer;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * Calcite's field trimmer ({@code Programs.trim()}) with a {@code trimFields} method for each
 * concrete node class a plan usually holds, each calling the method Calcite's dispatch would have
 * chosen for that class. The trimmer finds its method per node class by reflection, once per
 * trimmer, asking for the exact class first and then walking up the class's superclasses and
 * interfaces: for a {@code LogicalProject}, a {@code LogicalJoin} or a {@link BridgeTableScan},
 * each miss on the way was a {@code NoSuchMethodException} with its stack trace, in every
 * statement. The plan it makes is the same.
 */
public class FieldTrimmer extends RelFieldTrimmer {
  /** {@code Programs.trim()} with this trimmer. */
  static RelNode trim(
      RelOptPlanner planner,
      RelNode rel,
      RelTraitSet traits,
      java.util.List<RelOptMaterialization> materializations,
      java.util.List<RelOptLattice> lattices) {
    RelBuilder builder = RelFactories.LOGICAL_BUILDER.create(rel.getCluster(), null);
    return new FieldTrimmer(builder).trim(rel);
  }

  FieldTrimmer(RelBuilder builder) {
    super(null, builder);
  }

  public TrimResult trimFields(
      LogicalProject project, ImmutableBitSet fieldsUsed, Set<RelDataTypeField> extraFields) {
    return trimFields((Project) project, fieldsUsed, extraFields);
  }

  public TrimResult trimFields(
      LogicalFilter filter, ImmutableBitSet fieldsUsed, Set<RelDataTypeField> extraFields) {
    return trimFields((Filter) filter, fieldsUsed, extraFields);
  }

  public TrimResult trimFields(
      LogicalJoin join, ImmutableBitSet fieldsUsed, Set<RelDataTypeField> extraFields) {
    return trimFields((Join) join, fieldsUsed, extraFields);
  }

  public TrimResult trimFields(
      LogicalAggregate aggregate, ImmutableBitSet fieldsUsed, Set<RelDataTypeField> extraFields) {
    return trimFields((Aggregate) aggregate, fieldsUsed, extraFields);
  }

  public TrimResult trimFields(
      LogicalSort sort, ImmutableBitSet fieldsUsed, Set<RelDataTypeField> extraFields) {
    return trimFields((Sort) sort, fieldsUsed, extraFields);
  }

  public TrimResult trimFields(
      LogicalUnion union, ImmutableBitSet fieldsUsed, Set<RelDataTypeField> extraFields) {
    return trimFields((SetOp) union, fieldsUsed, extraFields);
  }

  public TrimResult trimFields(
      LogicalIntersect intersect, ImmutableBitSet fieldsUsed, Set<RelDataTypeField> extraFields) {
    return trimFields((SetOp) intersect, fieldsUsed, extraFields);
  }

  public TrimResult trimFields(
      LogicalMinus minus, ImmutableBitSet fieldsUsed, Set<RelDataTypeField> extraFields) {
    return trimFields((SetOp) minus, fieldsUsed, extraFields);
  }

  public TrimResult trimFields(
      LogicalTableScan scan, ImmutableBitSet fieldsUsed, Set<RelDataTypeField> extraFields) {
    return trimFields((TableScan) scan, fieldsUsed, extraFields);
  }

  public TrimResult trimFields(
      BridgeTableScan scan, ImmutableBitSet fieldsUsed, Set<RelDataTypeField> extraFields) {
    return trimFields((TableScan) scan, fieldsUsed, extraFields);
  }
}

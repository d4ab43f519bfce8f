package io.calcitebridge.pushdown;

import io.calcitebridge.catalog.ArrowStorage;
import io.calcitebridge.catalog.CatalogTable;
import io.calcitebridge.expr.Expression;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.tree.Blocks;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.hint.RelHint;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.util.ImmutableBitSet;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The scan of a catalog table, executable in Calcite's Enumerable convention. Rows come from the
 * table's connector as {@code Object[]} in Calcite's runtime representation and pass through
 * unchanged (Calcite's own EnumerableTableScan would rebuild ARRAY&lt;ROW&gt; values as generated
 * classes, which fails to compile). Pushdown of filters and projections lands here.
 */
public final class BridgeTableScan extends TableScan implements EnumerableRel {
  private final CatalogTable bridgeTable;
  private final List<Expression> filters;
  private final int @Nullable [] projection;
  private final @Nullable Integer limit;
  private final @Nullable List<List<Integer>> nested;
  private final @Nullable Pushed pushed;

  /**
   * The conjuncts of a filter that the source accepted, as expressions over the table's scanned
   * columns ({@code table.getRowType()}), each with its position among the filter's conjuncts (the
   * others stay in a filter above the scan): what EXPLAIN shows in Flink's notation, where a
   * filesystem source keeps every filter above its scan too.
   *
   * @param conjuncts the accepted conjuncts
   * @param positions the position of each among all the conjuncts of the filter
   */
  public record Pushed(List<RexNode> conjuncts, List<Integer> positions) {
    /** Copies the lists. */
    public Pushed {
      conjuncts = List.copyOf(conjuncts);
      positions = List.copyOf(positions);
    }
  }

  public BridgeTableScan(
      RelOptCluster cluster, RelOptTable table, CatalogTable bridgeTable, List<RelHint> hints) {
    this(cluster, table, bridgeTable, hints, List.of(), null, null, null, null);
  }

  private BridgeTableScan(
      RelOptCluster cluster,
      RelOptTable table,
      CatalogTable bridgeTable,
      List<RelHint> hints,
      List<Expression> filters,
      int @Nullable [] projection,
      @Nullable Integer limit,
      @Nullable List<List<Integer>> nested,
      @Nullable Pushed pushed) {
    super(cluster, cluster.traitSetOf(EnumerableConvention.INSTANCE), hints, table);
    this.pushed = pushed;
    this.nested = nested == null ? null : List.copyOf(nested);
    this.bridgeTable = bridgeTable;
    this.filters = List.copyOf(filters);
    this.projection = projection;
    this.limit = limit;
  }

  /** Index paths into the table's scanned columns this scan reads, or null. */
  public @Nullable List<List<Integer>> nested() {
    return nested;
  }

  /**
   * A copy of this scan that reads {@code paths}: each a whole column (one index) or a field inside
   * ROW columns; its row type has a column a path, named by the path ({@code user.age}).
   */
  public BridgeTableScan withNested(List<List<Integer>> paths) {
    return new BridgeTableScan(
        getCluster(), getTable(), bridgeTable, getHints(), filters, null, limit, paths, pushed);
  }

  /**
   * A copy of this scan that reads only its columns at {@code kept} (indices into its row type, in
   * the order given); none at all when {@code kept} is empty, for a reader that needs only how many
   * rows there are.
   */
  public BridgeTableScan withColumns(List<Integer> kept) {
    if (nested != null) {
      List<List<Integer>> paths = kept.stream().map(nested::get).toList();
      return new BridgeTableScan(
          getCluster(), getTable(), bridgeTable, getHints(), filters, null, limit, paths, pushed);
    }
    int[] columns = new int[kept.size()];
    for (int i = 0; i < columns.length; i++) {
      columns[i] = projection == null ? kept.get(i) : projection[kept.get(i)];
    }
    return new BridgeTableScan(
        getCluster(), getTable(), bridgeTable, getHints(), filters, columns, limit, null, pushed);
  }

  /** The row count the source may stop at (a hint: the LIMIT stays above), or null. */
  public @Nullable Integer limit() {
    return limit;
  }

  /** A copy of this scan that tells its source it may stop after {@code rows} rows. */
  public BridgeTableScan withLimit(int rows) {
    return new BridgeTableScan(
        getCluster(),
        getTable(),
        bridgeTable,
        getHints(),
        filters,
        projection,
        rows,
        nested,
        pushed);
  }

  @Override
  public RelDataType deriveRowType() {
    RelDataType full = table.getRowType();
    if (nested != null) {
      RelDataTypeFactory tf = getCluster().getTypeFactory();
      RelDataTypeFactory.Builder b = tf.builder();
      for (List<Integer> path : nested) {
        RelDataTypeField f = full.getFieldList().get(path.get(0));
        StringBuilder name = new StringBuilder(f.getName());
        RelDataType type = f.getType();
        boolean nullable = type.isNullable();
        for (int i = 1; i < path.size(); i++) {
          RelDataTypeField inner = type.getFieldList().get(path.get(i));
          name.append('.').append(inner.getName());
          type = inner.getType();
          nullable |= type.isNullable();
        }
        b.add(name.toString(), tf.createTypeWithNullability(type, nullable));
      }
      return b.build();
    }
    if (projection == null) {
      return full;
    }
    RelDataTypeFactory.Builder b = getCluster().getTypeFactory().builder();
    for (int i : projection) {
      b.add(full.getFieldList().get(i));
    }
    return b.build();
  }

  /**
   * Projection pushdown: Calcite's field trimmer asks the scan for the columns a query uses; the
   * source is then asked for those columns (and metadata keys) only. A scan that already reads some
   * columns or fields inside ROW columns keeps those of them the query uses: a join on a nested
   * field ({@code t.loc.borough}) gives the scan a projection of every column and the field ({@link
   * NestedProjectionRule}) before the trimmer runs, and without this every column was read.
   */
  @Override
  public RelNode project(
      ImmutableBitSet fieldsUsed, Set<RelDataTypeField> extraFields, RelBuilder relBuilder) {
    if (!extraFields.isEmpty()) {
      return super.project(fieldsUsed, extraFields, relBuilder);
    }
    int fieldCount = getRowType().getFieldCount();
    if (fieldsUsed.equals(ImmutableBitSet.range(fieldCount))) {
      return this;
    }
    BridgeTableScan scan = withColumns(fieldsUsed.isEmpty() ? List.of(0) : fieldsUsed.asList());
    return fieldsUsed.isEmpty() ? relBuilder.push(scan).project(List.of()).build() : scan;
  }

  /** The table this scans (a {@code BridgeTable}), seen as its definition and storage. */
  public CatalogTable bridgeTable() {
    return bridgeTable;
  }

  /** The scanned columns this scan keeps (indices into the table's scanned columns), or null. */
  public int @Nullable [] projection() {
    return projection == null ? null : projection.clone();
  }

  /**
   * A shuttle that rewrites references to this scan's columns as references to its table's columns
   * (the table's row type, before the scan's projection).
   */
  public org.apache.calcite.rex.RexShuttle toTableColumns() {
    int @Nullable [] kept = projection;
    RelDataType table = getTable().getRowType();
    org.apache.calcite.rex.RexBuilder rex = getCluster().getRexBuilder();
    return new org.apache.calcite.rex.RexShuttle() {
      @Override
      public RexNode visitInputRef(org.apache.calcite.rex.RexInputRef ref) {
        int i = kept == null ? ref.getIndex() : kept[ref.getIndex()];
        return rex.makeInputRef(table.getFieldList().get(i).getType(), i);
      }
    };
  }

  /** The filters the source accepted, which it applies itself. */
  public List<Expression> filters() {
    return filters;
  }

  /** A copy of this scan whose source applies {@code accepted}. */
  public BridgeTableScan withFilters(List<Expression> accepted) {
    return withFilters(accepted, null);
  }

  /**
   * A copy of this scan whose source applies {@code accepted}, which are {@code conjuncts} of the
   * filter for EXPLAIN ({@link Pushed}), or null.
   */
  public BridgeTableScan withFilters(List<Expression> accepted, @Nullable Pushed conjuncts) {
    return new BridgeTableScan(
        getCluster(),
        getTable(),
        bridgeTable,
        getHints(),
        accepted,
        projection,
        limit,
        nested,
        conjuncts);
  }

  /**
   * The accepted filters as conjuncts over the table's scanned columns, or null ({@link Pushed}).
   */
  public @Nullable Pushed pushed() {
    return pushed;
  }

  @Override
  public RelWriter explainTerms(RelWriter pw) {
    return super.explainTerms(pw)
        .itemIf("filter", renderFilters(), !filters.isEmpty())
        .itemIf("project", getRowType().getFieldNames(), projection != null || nested != null)
        .itemIf("limit", limit, limit != null);
  }

  private String renderFilters() {
    if (filters.size() == 1) {
      return filters.get(0).toString();
    }
    return filters.stream().map(String::valueOf).collect(Collectors.joining(", ", "and(", ")"));
  }

  @Override
  public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
    RelOptCost cost = super.computeSelfCost(planner, mq);
    return cost == null || filters.isEmpty() ? cost : cost.multiplyBy(0.5);
  }

  @Override
  public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return this;
  }

  @Override
  public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    PhysType physType =
        PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(), pref.preferArray());
    org.apache.calcite.linq4j.tree.Expression source =
        implementor.stash(bridgeTable, CatalogTable.class);
    org.apache.calcite.linq4j.tree.Expression pushed = implementor.stash(filters, List.class);
    org.apache.calcite.linq4j.tree.Expression columns =
        projection == null
            ? Expressions.constant(null, int[].class)
            : implementor.stash(projection, int[].class);
    org.apache.calcite.linq4j.tree.Expression paths =
        nested == null
            ? Expressions.constant(null, List.class)
            : implementor.stash(nested, List.class);
    boolean scalar = physType.getFormat() == JavaRowFormat.SCALAR;
    org.apache.calcite.linq4j.tree.Expression rows =
        Expressions.call(
            BridgeTableScan.class,
            "rows",
            source,
            pushed,
            columns,
            paths,
            Expressions.constant(limit, Integer.class),
            DataContext.ROOT,
            Expressions.constant(scalar));
    return implementor.result(physType, Blocks.toBlock(rows));
  }

  /**
   * The name under which an execution's context may hold, for a table, the filters its source
   * applies in this execution in place of the planned ones: a cached plan's filters with parameter
   * values bound (a map from the {@link CatalogTable} to its list of {@link Expression}s).
   */
  public static final String BOUND_FILTERS = "calcite-bridge.boundFilters";

  /** Called by generated code: the table's rows, or the values of its only column. */
  public static Enumerable<?> rows(
      CatalogTable table,
      List<Expression> filters,
      int @Nullable [] projection,
      @Nullable List<List<Integer>> nested,
      @Nullable Integer limit,
      @Nullable DataContext root,
      boolean scalar) {
    if (root != null && root.get(BOUND_FILTERS) instanceof java.util.Map<?, ?> bound) {
      @SuppressWarnings("unchecked")
      List<Expression> these = (List<Expression>) bound.get(table);
      if (these != null) {
        filters = these;
      }
    }
    Enumerable<Object[]> rows =
        nested != null
            ? ((ArrowStorage) table.storage()).scanPaths(filters, nested, limit)
            : table.storage().scan(filters, projection, limit);
    // Planning reduces constant scans without a context.
    java.util.concurrent.atomic.AtomicBoolean cancel =
        root == null ? null : DataContext.Variable.CANCEL_FLAG.get(root);
    if (cancel != null) {
      rows = cancellable(rows, cancel);
    }
    return scalar ? rows.select(r -> r[0]) : rows;
  }

  /**
   * {@code rows}, stopping with a {@link java.util.concurrent.CancellationException} at the next
   * row once the statement is cancelled: every plan of Calcite's engine reads its scans row by row,
   * so a cancelled statement stops within a row of each scan, whatever operators sit above.
   */
  private static Enumerable<Object[]> cancellable(
      Enumerable<Object[]> rows, java.util.concurrent.atomic.AtomicBoolean cancel) {
    return new org.apache.calcite.linq4j.AbstractEnumerable<Object[]>() {
      @Override
      public org.apache.calcite.linq4j.Enumerator<Object[]> enumerator() {
        org.apache.calcite.linq4j.Enumerator<Object[]> inner = rows.enumerator();
        return new org.apache.calcite.linq4j.Enumerator<Object[]>() {
          @Override
          public Object[] current() {
            return inner.current();
          }

          @Override
          public boolean moveNext() {
            if (cancel.get()) {
              // A timeout or the memory guard fails with its own error (Stop).
              throw io.calcitebridge.errors.Stop.stopped(cancel);
            }
            return inner.moveNext();
          }

          @Override
          public void reset() {
            inner.reset();
          }

          @Override
          public void close() {
            inner.close();
          }
        };
      }
    };
  }
}

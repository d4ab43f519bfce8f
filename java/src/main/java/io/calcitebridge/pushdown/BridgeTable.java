package io.calcitebridge.pushdown;

import io.calcitebridge.catalog.CatalogTable;
import io.calcitebridge.catalog.ColumnDef;
import io.calcitebridge.catalog.ColumnKind;
import io.calcitebridge.catalog.TableDef;
import io.calcitebridge.catalog.TableStorage;
import io.calcitebridge.validate.DiscoveryScope;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.hint.RelHint;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.schema.ColumnStrategy;
import org.apache.calcite.schema.TranslatableTable;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql2rel.InitializerContext;
import org.apache.calcite.sql2rel.NullInitializerExpressionFactory;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A catalog table as Calcite sees it.
 *
 * <p>Its row type lists every declared column. Computed columns use Calcite's own {@link
 * ColumnStrategy#VIRTUAL} mechanism: the scan produces the other columns and the SQL-to-rel
 * converter adds a projection computing them from their expressions.
 */
public final class BridgeTable extends AbstractTable implements TranslatableTable, CatalogTable {
  private final TableDef def;
  private final TableStorage storage;
  private final Function<String, SqlNode> expressionParser;
  private final InitializerFactory initializer = new InitializerFactory();

  /**
   * Opens the storage of this table's definition with other options (an {@code OPTIONS} hint's);
   * null for a table no DDL declared. It may answer null: the table's own storage serves.
   */
  private final @Nullable Function<TableDef, @Nullable TableStorage> opener;

  /** The tables of the {@code OPTIONS} hints read so far, by their merged options (a few). */
  private final Map<Map<String, String>, BridgeTable> hinted =
      new LinkedHashMap<>(4, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Map<String, String>, BridgeTable> eldest) {
          if (size() <= HINTED_KEPT) {
            return false;
          }
          eldest.getValue().closeOwnStorage();
          return true;
        }
      };

  private static final int HINTED_KEPT = 8;

  public BridgeTable(
      TableDef def, TableStorage storage, Function<String, SqlNode> expressionParser) {
    this(def, storage, expressionParser, null);
  }

  /**
   * A table whose {@code OPTIONS} hints {@code opener} applies: it opens the storage of the table's
   * definition with the merged options, failing with an {@link IllegalArgumentException} that
   * carries the connector's message.
   */
  public BridgeTable(
      TableDef def,
      TableStorage storage,
      Function<String, SqlNode> expressionParser,
      @Nullable Function<TableDef, @Nullable TableStorage> opener) {
    this.def = def;
    this.storage = storage;
    this.expressionParser = expressionParser;
    this.opener = opener;
  }

  /** This table with the columns of {@code def} (a statement's discovered columns added). */
  public BridgeTable withDef(TableDef newDef) {
    return new BridgeTable(newDef, storage.forDef(newDef), expressionParser, opener);
  }

  @Override
  public BridgeTable withOptions(Map<String, String> hints) {
    if (opener == null) {
      return (BridgeTable) CatalogTable.super.withOptions(hints);
    }
    Map<String, String> merged = new LinkedHashMap<>(def.options());
    merged.putAll(hints);
    if (merged.equals(def.options())) {
      return this;
    }
    synchronized (hinted) {
      BridgeTable known = hinted.get(merged);
      if (known != null) {
        return known;
      }
      TableDef newDef = def.withOptions(merged);
      TableStorage opened = opener.apply(newDef);
      BridgeTable table =
          new BridgeTable(
              newDef, opened == null ? storage.forDef(newDef) : opened, expressionParser, null);
      if (opened != null) {
        hinted.put(merged, table);
      }
      return table;
    }
  }

  /** Frees the storage and those opened for {@code OPTIONS} hints. */
  @Override
  public void close() {
    synchronized (hinted) {
      for (BridgeTable t : hinted.values()) {
        t.closeOwnStorage();
      }
      hinted.clear();
    }
    closeOwnStorage();
  }

  private void closeOwnStorage() {
    storage.close();
  }

  @Override
  public TableDef def() {
    return def;
  }

  @Override
  public TableStorage storage() {
    return storage;
  }

  /** The definition the current statement sees: the DDL's, plus any discovered columns. */
  private TableDef effectiveDef() {
    DiscoveryScope scope = DiscoveryScope.current();
    List<ColumnDef> extra = scope == null ? null : scope.discovered(def.name());
    return extra == null ? def : def.withColumns(extra);
  }

  @Override
  public RelDataType getRowType(RelDataTypeFactory typeFactory) {
    DiscoveryScope scope = DiscoveryScope.current();
    if (scope != null) {
      scope.saw(this);
    }
    return effectiveDef().rowType(typeFactory);
  }

  @Override
  public RelNode toRel(RelOptTable.ToRelContext context, RelOptTable relOptTable) {
    // The columns discovered for the statement are those of the table's row type that the
    // definition lacks (Calcite's ViewTable converts a view's scans again, outside the scope).
    List<ColumnDef> extra = new java.util.ArrayList<>();
    for (var field : relOptTable.getRowType().getFieldList()) {
      if (def.indexOf(field.getName()) < 0) {
        extra.add(ColumnDef.dynamic(field.getName(), field.getType()));
      }
    }
    BridgeTable table = withOptions(this, context.getTableHints());
    RelOptTable scanned = relOptTable;
    if (table != this) {
      // The scan's table is the hinted one, so that Calcite's ViewTable, which converts the scans
      // of a view's query again without their hints, reads it with the hints' options too.
      scanned =
          org.apache.calcite.prepare.RelOptTableImpl.create(
              relOptTable.getRelOptSchema(),
              relOptTable.getRowType(),
              table,
              com.google.common.collect.ImmutableList.copyOf(relOptTable.getQualifiedName()));
    }
    if (!extra.isEmpty()) {
      table = table.withDef(table.def.withColumns(extra));
    }
    return new BridgeTableScan(context.getCluster(), scanned, table, context.getTableHints());
  }

  /** {@code table} with the options of the {@code OPTIONS} hints among {@code hints}. */
  private static BridgeTable withOptions(BridgeTable table, List<RelHint> hints) {
    Map<String, String> options = new LinkedHashMap<>();
    for (RelHint hint : hints) {
      if (hint.hintName.equalsIgnoreCase("OPTIONS")) {
        options.putAll(hint.kvOptions);
      }
    }
    return options.isEmpty() ? table : table.withOptions(options);
  }

  @Override
  public <C extends Object> @Nullable C unwrap(Class<C> aClass) {
    if (aClass.isInstance(initializer)) {
      return aClass.cast(initializer);
    }
    return super.unwrap(aClass);
  }

  /**
   * The column at {@code iColumn} of {@code table}'s row type. Looked up by name: a statement's
   * discovered columns are in the row type but in no definition outside that statement.
   */
  private ColumnDef column(RelOptTable table, int iColumn) {
    String name = table.getRowType().getFieldNames().get(iColumn);
    int i = def.indexOf(name);
    if (i >= 0) {
      return def.columns().get(i);
    }
    return ColumnDef.dynamic(name, table.getRowType().getFieldList().get(iColumn).getType());
  }

  /**
   * The column an INSERT leaves out that Calcite asks the value of as column {@code iColumn}, or
   * null when it asks for the computed column there. A read of the table asks for each computed
   * column by its place among all columns, with every other column named in {@code context}; {@code
   * SqlToRelConverter.convertColumnList} (Calcite 1.42) asks for each column an INSERT leaves out
   * by its place among the columns that are not computed, and names only the INSERT's columns. So a
   * place where a computed column stands asks for the column left out at that place among the
   * others when that one is not named.
   */
  private @Nullable RelDataTypeField leftOutColumn(
      RelOptTable table, int iColumn, InitializerContext context) {
    int k = 0;
    for (RelDataTypeField f : table.getRowType().getFieldList()) {
      if (column(table, f.getIndex()).kind() == ColumnKind.COMPUTED) {
        continue;
      }
      if (k++ == iColumn) {
        try {
          context.convertExpression(new SqlIdentifier(f.getName(), SqlParserPos.ZERO));
          return null;
        } catch (AssertionError | RuntimeException e) {
          return f;
        }
      }
    }
    return null;
  }

  /** Computes computed columns from their expressions; every other column defaults to NULL. */
  private final class InitializerFactory extends NullInitializerExpressionFactory {
    @Override
    public ColumnStrategy generationStrategy(RelOptTable table, int iColumn) {
      ColumnDef c = column(table, iColumn);
      if (c.kind() == ColumnKind.COMPUTED) {
        return ColumnStrategy.VIRTUAL;
      }
      return c.type().isNullable() ? ColumnStrategy.NULLABLE : ColumnStrategy.NOT_NULLABLE;
    }

    @Override
    public RexNode newColumnDefaultValue(
        RelOptTable table, int iColumn, InitializerContext context) {
      ColumnDef c = column(table, iColumn);
      if (c.kind() != ColumnKind.COMPUTED || c.expression() == null) {
        return super.newColumnDefaultValue(table, iColumn, context);
      }
      RelDataTypeField leftOut = leftOutColumn(table, iColumn, context);
      if (leftOut != null) {
        return context.getRexBuilder().makeNullLiteral(leftOut.getType());
      }
      SqlNode parsed = expressionParser.apply(c.expression());
      RelDataType scanType = effectiveDef().scanRowType(context.getRexBuilder().getTypeFactory());
      SqlNode validated = context.validateExpression(scanType, parsed);
      RexNode rex = context.convertExpression(validated);
      return context.getRexBuilder().ensureType(c.type(), rex, true);
    }
  }
}

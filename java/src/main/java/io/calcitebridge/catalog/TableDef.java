package io.calcitebridge.catalog;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.StructKind;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The definition of a catalog table: its columns in declaration order and its options.
 *
 * @param name the table name
 * @param columns the declared columns, in order
 * @param options the {@code WITH} options, in order
 * @param dynamicColumns whether the table has dynamic columns ({@code ...})
 * @param dynamicDefaultType the type of a discovered column, or null for {@code STRING}
 * @param flink Flink's further declarations: primary key, watermark, comments, partitions
 */
public record TableDef(
    String name,
    List<ColumnDef> columns,
    Map<String, String> options,
    boolean dynamicColumns,
    @Nullable RelDataType dynamicDefaultType,
    FlinkSpec flink) {

  public TableDef {
    flink = flink == null ? FlinkSpec.NONE : flink;
    columns = List.copyOf(columns);
    options = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(options));
  }

  /** A table without Flink's further declarations. */
  public TableDef(
      String name,
      List<ColumnDef> columns,
      Map<String, String> options,
      boolean dynamicColumns,
      @Nullable RelDataType dynamicDefaultType) {
    this(name, columns, options, dynamicColumns, dynamicDefaultType, FlinkSpec.NONE);
  }

  /** This table with {@code extra} columns appended (columns found by field discovery). */
  public TableDef withColumns(List<ColumnDef> extra) {
    List<ColumnDef> all = new ArrayList<>(columns);
    all.addAll(extra);
    return new TableDef(name, all, options, dynamicColumns, dynamicDefaultType, flink);
  }

  /** This table with {@code newOptions} as its {@code WITH} options. */
  public TableDef withOptions(Map<String, String> newOptions) {
    return new TableDef(name, columns, newOptions, dynamicColumns, dynamicDefaultType, flink);
  }

  /** The {@code connector} option. */
  public String connector() {
    return options.getOrDefault("connector", "memory");
  }

  /** Index of the column named {@code name}, or -1. */
  public int indexOf(String name) {
    for (int i = 0; i < columns.size(); i++) {
      if (columns.get(i).name().equals(name)) {
        return i;
      }
    }
    return -1;
  }

  /** The columns a scan produces (all but computed ones), in declaration order. */
  public List<ColumnDef> scannedColumns() {
    return columns.stream().filter(ColumnDef::isScanned).collect(Collectors.toList());
  }

  /** The columns an INSERT writes: physical and persisted metadata columns, in order. */
  public List<ColumnDef> writableColumns() {
    return columns.stream().filter(ColumnDef::isWritable).collect(Collectors.toList());
  }

  /** The row type of every declared column. */
  public RelDataType rowType(RelDataTypeFactory typeFactory) {
    return rowTypeOf(typeFactory, columns);
  }

  /** The row type of the writable columns. */
  public RelDataType writableRowType(RelDataTypeFactory typeFactory) {
    return rowTypeOf(typeFactory, writableColumns());
  }

  /** The row type of the scanned columns. */
  public RelDataType scanRowType(RelDataTypeFactory typeFactory) {
    return rowTypeOf(typeFactory, scannedColumns());
  }

  /** The row type of {@code cols}. */
  public static RelDataType rowTypeOf(RelDataTypeFactory typeFactory, List<ColumnDef> cols) {
    List<String> names = new ArrayList<>();
    List<RelDataType> types = new ArrayList<>();
    for (ColumnDef c : cols) {
      names.add(c.name());
      types.add(c.type());
    }
    return typeFactory.createStructType(StructKind.FULLY_QUALIFIED, types, names);
  }
}

package io.calcitebridge.statement;

import io.calcitebridge.catalog.ColumnKind;
import io.calcitebridge.catalog.TableDef;
import io.calcitebridge.flink.Constants;
import io.calcitebridge.pushdown.BridgeTableScan;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.util.ImmutableBitSet;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The scan of a {@code filesystem} table with filters, shaped as Flink's filesystem source shows it
 * in EXPLAIN: the conjuncts on partition columns only pick the partitions ({@code
 * partitions=[{y=2024}]}, the folders that pass them; a {@code Values} without rows when none
 * does), the others are listed in the scan ({@code filter=[...]}) and kept in a {@code Calc} above
 * it, which writes a column that an equality fixes as that value ({@code CAST(2024 AS INTEGER) AS
 * y}); the scan reads the columns the {@code Calc} needs, in the table's order. The source here
 * applies the filters itself and prunes the same partitions; only the rendering follows Flink.
 */
final class FlinkFileScan {
  /** Flink's name of NULL in a partition folder, and Hive's. */
  private static final List<String> NULL_NAMES =
      List.of("__DEFAULT_PARTITION__", "__HIVE_DEFAULT_PARTITION__");

  private FlinkFileScan() {}

  /**
   * The shape: a {@code Calc} of {@code projects} and {@code where} (null: none) over the scan's
   * {@code fields}, whose table part is {@code table}; or, when {@code empty}, a {@code Values}
   * without rows.
   */
  record Shape(
      boolean empty,
      List<RexNode> projects,
      @Nullable RexNode where,
      List<String> fields,
      String table) {}

  /**
   * Flink's shape of {@code scan} under {@code projects} and {@code where} (over the scan's fields;
   * where null: none), or null when the scan is not one of a filesystem table's physical columns
   * with filters.
   */
  static @Nullable Shape of(
      BridgeTableScan scan, String name, List<RexNode> projects, @Nullable RexNode where) {
    TableDef def = scan.bridgeTable().def();
    if (!"filesystem".equals(def.connector())
        || scan.nested() != null
        || def.columns().stream().anyMatch(c -> c.kind() != ColumnKind.PHYSICAL)
        || (scan.filters().isEmpty() && where == null)
        || (!scan.filters().isEmpty() && scan.pushed() == null)) {
      return null;
    }
    RelDataType table = scan.getTable().getRowType();
    RexBuilder rex = scan.getCluster().getRexBuilder();
    int[] projection = scan.projection();
    RexShuttle toTable = scan.toTableColumns();
    List<RexNode> tableProjects = new ArrayList<>();
    for (RexNode p : projects) {
      tableProjects.add(p.accept(toTable));
    }
    List<RexNode> conjuncts =
        conjuncts(scan.pushed(), where == null ? null : where.accept(toTable));
    List<String> keys = def.flink().partitionKeys();
    ImmutableBitSet keyBits =
        ImmutableBitSet.of(
            keys.stream().map(table.getFieldNames()::indexOf).filter(i -> i >= 0).toList());
    List<RexNode> onKeys = new ArrayList<>();
    List<RexNode> others = new ArrayList<>();
    for (RexNode c : conjuncts) {
      ImmutableBitSet used = RelOptUtil.InputFinder.bits(c);
      (!used.isEmpty() && keyBits.contains(used) ? onKeys : others).add(c);
    }
    StringBuilder text = new StringBuilder(name);
    if (!onKeys.isEmpty()) {
      List<Map<String, @Nullable String>> partitions = partitions(scan, def, onKeys, rex);
      if (partitions == null) {
        return null;
      }
      if (partitions.isEmpty()) {
        return new Shape(true, List.of(), null, List.of(), "");
      }
      List<String> specs = new ArrayList<>();
      for (Map<String, @Nullable String> p : partitions) {
        specs.add(p.toString());
      }
      text.append(", partitions=[").append(String.join(", ", specs)).append(']');
    }
    // A column that an equality fixes is that value (Flink reduces the projection with the filter's
    // predicates), so the scan need not read it.
    Map<Integer, RexNode> fixed = new HashMap<>();
    for (RexNode c : conjuncts) {
      if (c.getKind() == SqlKind.EQUALS && c instanceof RexCall eq) {
        RexNode a = eq.getOperands().get(0);
        RexNode b = eq.getOperands().get(1);
        if (a instanceof RexInputRef ref && b instanceof RexLiteral lit) {
          fixed.putIfAbsent(ref.getIndex(), castTo(rex, lit, ref.getType()));
        } else if (b instanceof RexInputRef ref && a instanceof RexLiteral lit) {
          fixed.putIfAbsent(ref.getIndex(), castTo(rex, lit, ref.getType()));
        }
      }
    }
    RexShuttle constants =
        new RexShuttle() {
          @Override
          public RexNode visitInputRef(RexInputRef ref) {
            RexNode value = fixed.get(ref.getIndex());
            return value == null ? ref : value;
          }
        };
    List<RexNode> reduced = new ArrayList<>();
    for (RexNode p : tableProjects) {
      reduced.add(p.accept(constants));
    }
    RexNode rest = others.isEmpty() ? null : RexUtil.composeConjunction(rex, others);
    ImmutableBitSet used = RelOptUtil.InputFinder.bits(reduced, rest);
    List<Integer> read = used.isEmpty() ? List.of(0) : used.asList();
    List<String> fields = new ArrayList<>();
    for (int i : read) {
      fields.add(table.getFieldNames().get(i));
    }
    if (!others.isEmpty()) {
      text.append(", filter=[").append(digest(others, table.getFieldNames())).append(']');
    }
    if (!fields.equals(table.getFieldNames())) {
      text.append(", project=[").append(String.join(", ", fields)).append("], metadata=[]");
    }
    if (scan.limit() != null) {
      text.append(", limit=[").append(scan.limit()).append(']');
    }
    RexShuttle toFields =
        new RexShuttle() {
          @Override
          public RexNode visitInputRef(RexInputRef ref) {
            return rex.makeInputRef(ref.getType(), read.indexOf(ref.getIndex()));
          }
        };
    List<RexNode> calc = new ArrayList<>();
    for (RexNode p : reduced) {
      calc.add(p.accept(toFields));
    }
    return new Shape(
        false, calc, rest == null ? null : rest.accept(toFields), fields, text.toString());
  }

  /**
   * The filter's conjuncts in their order: those the source accepted ({@code pushed}, at their
   * positions) and those left above the scan ({@code remaining}) in the places between.
   */
  private static List<RexNode> conjuncts(
      BridgeTableScan.@Nullable Pushed pushed, @Nullable RexNode remaining) {
    List<RexNode> above = remaining == null ? List.of() : RelOptUtil.conjunctions(remaining);
    if (pushed == null) {
      return above;
    }
    int total = pushed.conjuncts().size() + above.size();
    List<@Nullable RexNode> slots = new ArrayList<>();
    for (int i = 0; i < total; i++) {
      slots.add(null);
    }
    List<RexNode> late = new ArrayList<>();
    for (int i = 0; i < pushed.conjuncts().size(); i++) {
      int at = pushed.positions().get(i);
      if (at < total && slots.get(at) == null) {
        slots.set(at, pushed.conjuncts().get(i));
      } else {
        late.add(pushed.conjuncts().get(i));
      }
    }
    List<RexNode> out = new ArrayList<>();
    int next = 0;
    for (RexNode slot : slots) {
      if (slot != null) {
        out.add(slot);
      } else if (next < above.size()) {
        out.add(above.get(next++));
      }
    }
    out.addAll(above.subList(next, above.size()));
    out.addAll(late);
    return out;
  }

  /** {@code lit} as a value of {@code type}, cast when its own type is another. */
  private static RexNode castTo(RexBuilder rex, RexLiteral lit, RelDataType type) {
    return lit.getType().equals(type) ? lit : rex.makeAbstractCast(type, lit);
  }

  // ---------------------------------------------------------------- partitions

  /**
   * The partitions (folder values by key, in the keys' alphabetical order, as Flink prints them) of
   * the table that pass {@code onKeys}; null when its folder cannot be listed.
   */
  private static @Nullable List<Map<String, @Nullable String>> partitions(
      BridgeTableScan scan, TableDef def, List<RexNode> onKeys, RexBuilder rex) {
    String location = def.options().get("path");
    if (location == null) {
      return null;
    }
    location = location.startsWith("file://") ? location.substring(7) : location;
    location = location.startsWith("file:") ? location.substring(5) : location;
    List<String> keys = def.flink().partitionKeys();
    String nullName = def.options().getOrDefault("partition.default-name", NULL_NAMES.get(0));
    List<List<@Nullable String>> found = new ArrayList<>();
    try {
      list(Path.of(location), keys, 0, new ArrayList<>(), nullName, found);
    } catch (IOException | RuntimeException e) {
      return null;
    }
    RelDataType table = scan.getTable().getRowType();
    RexNode condition = RexUtil.composeConjunction(rex, onKeys);
    List<RexNode> tests = new ArrayList<>();
    for (List<@Nullable String> values : found) {
      Map<Integer, RexNode> literals = new HashMap<>();
      for (int k = 0; k < keys.size(); k++) {
        int i = table.getFieldNames().indexOf(keys.get(k));
        RelDataType type = table.getFieldList().get(i).getType();
        String v = values.get(k);
        literals.put(
            i,
            v == null
                ? rex.makeNullLiteral(type)
                : SqlTypeUtil.inCharFamily(type)
                    ? rex.makeAbstractCast(type, rex.makeLiteral(v))
                    : rex.makeAbstractCast(type, rex.makeLiteral(v.strip())));
      }
      tests.add(
          condition.accept(
              new RexShuttle() {
                @Override
                public RexNode visitInputRef(RexInputRef ref) {
                  RexNode value = literals.get(ref.getIndex());
                  return value == null ? ref : value;
                }
              }));
    }
    List<RexNode> results = new ArrayList<>();
    if (!tests.isEmpty()) {
      Constants.EXECUTOR.reduce(rex, tests, results);
    }
    List<Map<String, @Nullable String>> kept = new ArrayList<>();
    for (int p = 0; p < found.size(); p++) {
      RexNode r = results.size() == found.size() ? results.get(p) : tests.get(p);
      while (r.getKind() == SqlKind.CAST && r instanceof RexCall cast) {
        r = cast.getOperands().get(0);
      }
      if (r instanceof RexLiteral lit && !Boolean.TRUE.equals(lit.getValueAs(Boolean.class))) {
        continue; // FALSE or NULL: the partition is left out
      }
      Map<String, @Nullable String> spec = new TreeMap<>();
      for (int k = 0; k < keys.size(); k++) {
        spec.put(keys.get(k), found.get(p).get(k));
      }
      kept.add(spec);
    }
    return kept;
  }

  /** The leaf partition folders under {@code dir} (level {@code depth} of {@code keys}). */
  private static void list(
      Path dir,
      List<String> keys,
      int depth,
      List<@Nullable String> values,
      String nullName,
      List<List<@Nullable String>> out)
      throws IOException {
    if (depth == keys.size()) {
      out.add(new ArrayList<>(values));
      return;
    }
    String prefix = keys.get(depth) + "=";
    List<Path> children;
    try (Stream<Path> s = Files.list(dir)) {
      children = s.sorted().toList();
    }
    for (Path child : children) {
      String file = child.getFileName().toString();
      if (!file.startsWith(prefix) || !Files.isDirectory(child)) {
        continue;
      }
      String value = unescape(file.substring(prefix.length()));
      values.add(value.equals(nullName) || NULL_NAMES.contains(value) ? null : value);
      list(child, keys, depth + 1, values, nullName, out);
      values.remove(values.size() - 1);
    }
  }

  /** A folder name's value: {@code %XX} is the character of hex code XX (Flink's escaping). */
  private static String unescape(String text) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '%' && i + 2 < text.length() && isHex(text.charAt(i + 1), text.charAt(i + 2))) {
        b.append((char) Integer.parseInt(text.substring(i + 1, i + 3), 16));
        i += 2;
      } else {
        b.append(c);
      }
    }
    return b.toString();
  }

  private static boolean isHex(char a, char b) {
    return Character.digit(a, 16) >= 0 && Character.digit(b, 16) >= 0;
  }

  // ---------------------------------------------------------------- the filter's digest

  /**
   * The conjuncts as Flink's filter push-down lists them: each as the planner prints an expression
   * (fields by name, a string literal with its character set and, compared with a column, its
   * type), joined pairwise by {@code and(..., ...)}.
   */
  private static String digest(List<RexNode> conjuncts, List<String> names) {
    String out = null;
    for (RexNode c : conjuncts) {
      String one = digest(c, names, null);
      out = out == null ? one : "and(" + out + ", " + one + ")";
    }
    return out == null ? "" : out;
  }

  private static String digest(RexNode e, List<String> names, @Nullable RelDataType compared) {
    if (e instanceof RexInputRef ref) {
      return names.get(ref.getIndex());
    }
    if (e instanceof RexLiteral lit) {
      if (SqlTypeUtil.inCharFamily(lit.getType())) {
        String text = "_UTF-16LE'" + lit.getValueAs(String.class).replace("'", "''") + "'";
        if (compared != null && SqlTypeUtil.inCharFamily(compared)) {
          text +=
              ":"
                  + compared.getSqlTypeName()
                  + "("
                  + compared.getPrecision()
                  + ")"
                  + " CHARACTER SET \"UTF-16LE\"";
        }
        return text;
      }
      return lit.toString();
    }
    if (e instanceof RexCall call) {
      boolean comparison = call.isA(SqlKind.COMPARISON) && call.getOperands().size() == 2;
      List<String> operands = new ArrayList<>();
      for (int i = 0; i < call.getOperands().size(); i++) {
        RelDataType other =
            comparison ? call.getOperands().get(1 - i).getType() : (RelDataType) null;
        operands.add(digest(call.getOperands().get(i), names, other));
      }
      if (call.getKind() == SqlKind.CAST) {
        return "CAST(" + operands.get(0) + "):" + call.getType().getFullTypeString();
      }
      return call.getOperator().getName() + "(" + String.join(", ", operands) + ")";
    }
    return e.toString();
  }
}

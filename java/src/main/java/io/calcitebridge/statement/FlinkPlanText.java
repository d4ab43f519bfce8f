package io.calcitebridge.statement;

import io.calcitebridge.catalog.CatalogTable;
import io.calcitebridge.catalog.ColumnDef;
import io.calcitebridge.catalog.ColumnKind;
import io.calcitebridge.catalog.TableDef;
import io.calcitebridge.connector.BuiltinConnectors;
import io.calcitebridge.pushdown.BridgeTableScan;
import io.calcitebridge.types.TypeNames;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.core.Union;
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.rel.externalize.RelWriterImpl;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlExplainLevel;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.Pair;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Flink's EXPLAIN notation for this project's plans: the abstract syntax tree as Flink's logical
 * plan ({@code LogicalTableScan(table=[[catalog, database, t, metadata=[...]]])}, with the
 * projection that casts metadata columns from the connector's types) and the physical sections with
 * Flink's batch operator names ({@code TableSourceScan}, {@code Calc}, {@code Sink}, {@code
 * HashAggregate}, {@code SortLimit}, {@code HashJoin}, ...), each tree drawn with Flink's {@code
 * +-} and {@code :-} branches. A rendering of the plan this project runs, not Flink's optimizer:
 * where the shapes differ, the text does too.
 */
final class FlinkPlanText {
  private final Function<RelOptTable, List<String>> qualify;

  /** Whether expressions are written as Flink's execution plan writes them (infix). */
  private boolean infix;

  /** {@code qualify}: a table's name as Flink prints it, {@code [catalog, database, table]}. */
  FlinkPlanText(Function<RelOptTable, List<String>> qualify) {
    this.qualify = qualify;
  }

  // ---------------------------------------------------------------- the abstract syntax tree

  /** The logical plan {@code rel} (as converted from SQL) in Flink's notation. */
  String logical(RelNode rel) {
    List<String> lines = new ArrayList<>();
    logical(rel, "", "", lines);
    return String.join("\n", lines);
  }

  private void logical(RelNode rel, String first, String rest, List<String> out) {
    if (rel instanceof TableModify modify) {
      out.add(
          first
              + "LogicalSink(table=["
              + String.join(".", qualify.apply(modify.getTable()))
              + "], fields=["
              + String.join(", ", sinkFields(modify))
              + "])");
      children(List.of(modify.getInput()), rest, out, this::logical);
      return;
    }
    if (rel instanceof TableScan scan) {
      Scan s = scan(scan);
      String hints = scan.getHints().isEmpty() ? "" : ", hints=[" + scan.getHints() + "]";
      if (s.metadataProject != null) {
        out.add(first + "LogicalProject(" + s.metadataProject + ")");
        out.add(rest + "+- " + "LogicalTableScan(table=[[" + s.table + "]]" + hints + ")");
      } else {
        out.add(first + "LogicalTableScan(table=[[" + s.table + "]]" + hints + ")");
      }
      return;
    }
    RelNode shown = rel;
    if (rel instanceof Filter filter) {
      // Flink's converter writes IN lists and ranges as ORs of equalities and ANDs of bounds.
      RexBuilder rex = rel.getCluster().getRexBuilder();
      RexNode condition =
          RexUtil.flatten(rex, RexUtil.expandSearch(rex, null, filter.getCondition()));
      shown = filter.copy(filter.getTraitSet(), filter.getInput(), condition);
    }
    if (shown instanceof Filter || shown instanceof Project || shown instanceof Join) {
      try {
        shown = shown.accept(new Utf16Literals(rel.getCluster().getRexBuilder()));
      } catch (RuntimeException e) {
        // as it is
      }
    }
    out.add(first + label(shown));
    children(rel.getInputs(), rest, out, this::logical);
  }

  /** String literals in Flink's character set, so that they print as {@code _UTF-16LE'a'}. */
  private static final class Utf16Literals extends org.apache.calcite.rex.RexShuttle {
    private final RexBuilder rex;

    Utf16Literals(RexBuilder rex) {
      this.rex = rex;
    }

    @Override
    public RexNode visitLiteral(RexLiteral literal) {
      if (literal.getValue() instanceof org.apache.calcite.util.NlsString nls
          && org.apache.calcite.sql.type.SqlTypeUtil.inCharFamily(literal.getType())
          && !"UTF-16LE".equals(nls.getCharsetName())) {
        return rex.makeCharLiteral(
            new org.apache.calcite.util.NlsString(
                nls.getValue(), "UTF-16LE", org.apache.calcite.sql.SqlCollation.IMPLICIT));
      }
      return literal;
    }
  }

  private interface Renderer {
    void render(RelNode rel, String first, String rest, List<String> out);
  }

  private static void children(List<RelNode> inputs, String rest, List<String> out, Renderer r) {
    for (int i = 0; i < inputs.size(); i++) {
      boolean last = i == inputs.size() - 1;
      r.render(inputs.get(i), rest + (last ? "+- " : ":- "), rest + (last ? "   " : ":  "), out);
    }
  }

  /** A node as Calcite's plan text shows it: its type name and its terms, no inputs. */
  private static String label(RelNode rel) {
    Terms terms = new Terms();
    rel.explain(terms);
    StringBuilder b = new StringBuilder(rel.getRelTypeName()).append('(');
    int n = 0;
    for (Pair<String, @Nullable Object> v : terms.values) {
      if (v.right instanceof RelNode) {
        continue;
      }
      if (n++ > 0) {
        b.append(", ");
      }
      b.append(v.left).append("=[").append(v.right).append(']');
    }
    return b.append(')').toString();
  }

  private static @Nullable Object term(RelNode rel, String name) {
    Terms terms = new Terms();
    rel.explain(terms);
    for (Pair<String, @Nullable Object> v : terms.values) {
      if (v.left.equals(name)) {
        return v.right;
      }
    }
    return null;
  }

  /** Collects a node's terms. */
  private static final class Terms extends RelWriterImpl {
    List<Pair<String, @Nullable Object>> values = List.of();

    Terms() {
      super(new PrintWriter(new StringWriter()), SqlExplainLevel.EXPPLAN_ATTRIBUTES, false);
    }

    @Override
    protected void explain_(RelNode rel, List<Pair<String, @Nullable Object>> values) {
      this.values = new ArrayList<>(values);
    }
  }

  /** The fields a sink writes, as Flink names them: the query's. */
  private static List<String> sinkFields(TableModify modify) {
    return modify.getInput().getRowType().getFieldNames();
  }

  // ---------------------------------------------------------------- scans and their metadata

  /**
   * A scan as Flink shows it: the table's name (with {@code metadata=[...]} when it reads metadata
   * columns), the fields the source produces (physical columns, then metadata columns in the
   * connector's key order), the projection from those fields to the declared columns (null when
   * there is none) and, for each declared column, its expression over the source's fields.
   */
  private record Scan(
      String table, List<String> fields, @Nullable String metadataProject, List<RexNode> columns) {}

  private Scan scan(TableScan scan) {
    String name = String.join(", ", qualify.apply(scan.getTable()));
    RelDataType rowType = scan.getRowType();
    CatalogTable table = scan.getTable().unwrap(CatalogTable.class);
    RexBuilder rex = scan.getCluster().getRexBuilder();
    List<RexNode> identity = new ArrayList<>();
    for (int i = 0; i < rowType.getFieldCount(); i++) {
      identity.add(rex.makeInputRef(rowType.getFieldList().get(i).getType(), i));
    }
    TableDef def = table == null ? null : table.def();
    boolean filtered =
        scan instanceof BridgeTableScan b && (b.nested() != null || !b.filters().isEmpty());
    if (def == null || filtered || def.columns().stream().noneMatch(ColumnDef::isMetadata)) {
      return new Scan(name, rowType.getFieldNames(), null, identity);
    }
    // A source reading metadata columns reads all its fields, as Flink's Kafka source does (it
    // takes no projection): the declared scanned columns, physical ones first.
    List<ColumnDef> declared = new ArrayList<>();
    for (ColumnDef c : def.columns()) {
      if (c.kind() == ColumnKind.PHYSICAL || c.isMetadata()) {
        declared.add(c);
      }
    }
    for (String field : rowType.getFieldNames()) {
      int i = def.indexOf(field);
      if (i < 0 || !declared.contains(def.columns().get(i))) {
        return new Scan(name, rowType.getFieldNames(), null, identity);
      }
    }
    List<String> fields = new ArrayList<>();
    List<String> keys = new ArrayList<>();
    for (ColumnDef c : declared) {
      if (!c.isMetadata()) {
        fields.add(c.name());
      }
    }
    for (String key : metadataOrder(def)) {
      for (ColumnDef c : declared) {
        if (c.isMetadata() && key.equals(c.metadataKey())) {
          fields.add(c.name());
          keys.add(key);
        }
      }
    }
    java.util.Map<String, RexNode> byName = new java.util.HashMap<>();
    StringBuilder project = new StringBuilder();
    for (ColumnDef c : declared) {
      RexNode e = rex.makeInputRef(c.type(), fields.indexOf(c.name()));
      if (c.isMetadata() && needsCast(def, c)) {
        e = rex.makeAbstractCast(flinkType(rex, c.type()), e);
      }
      byName.put(c.name(), e);
      if (project.length() > 0) {
        project.append(", ");
      }
      project.append(c.name()).append("=[").append(e).append(']');
    }
    List<RexNode> columns = new ArrayList<>();
    for (String field : rowType.getFieldNames()) {
      columns.add(byName.get(field));
    }
    return new Scan(
        name + ", metadata=[" + String.join(", ", keys) + "]", fields, project.toString(), columns);
  }

  /** {@code type} as Flink types a string: in the UTF-16LE character set. */
  private static RelDataType flinkType(RexBuilder rex, RelDataType type) {
    if (!org.apache.calcite.sql.type.SqlTypeUtil.inCharFamily(type)) {
      return type;
    }
    return rex.getTypeFactory()
        .createTypeWithCharsetAndCollation(
            type,
            java.nio.charset.StandardCharsets.UTF_16LE,
            org.apache.calcite.sql.SqlCollation.IMPLICIT);
  }

  /** The connector's metadata keys in its own order (Kafka's), else in the declared order. */
  private static List<String> metadataOrder(TableDef def) {
    List<String> order = new ArrayList<>();
    if (def.connector().equals("kafka") || def.connector().equals("upsert-kafka")) {
      order.addAll(BuiltinConnectors.KAFKA_METADATA.keySet());
    }
    for (ColumnDef c : def.columns()) {
      if (c.isMetadata() && c.metadataKey() != null && !order.contains(c.metadataKey())) {
        order.add(c.metadataKey());
      }
    }
    return order;
  }

  /** Whether Flink casts a metadata column: its declared type is not the key's own type. */
  private static boolean needsCast(TableDef def, ColumnDef c) {
    if (!(def.connector().equals("kafka") || def.connector().equals("upsert-kafka"))) {
      return false;
    }
    String own = BuiltinConnectors.KAFKA_METADATA.get(c.metadataKey());
    return own == null || !own.equals(TypeNames.render(c.type()));
  }

  // ---------------------------------------------------------------- the physical plan

  /** The optimized logical plan {@code rel} with Flink's batch operator names. */
  String physical(RelNode rel) {
    infix = false;
    List<String> lines = new ArrayList<>();
    physical(rel, "", "", lines);
    return String.join("\n", lines);
  }

  /**
   * The optimized plan {@code rel} as Flink's execution plan section shows it: the physical plan's
   * text with each binary operator written infix ({@code (id + 1)}, {@code ((a > 1) AND (b < 2))})
   * and each {@code IS [NOT] NULL}, {@code IS [NOT] TRUE|FALSE} after its operand.
   */
  String execution(RelNode rel) {
    infix = true;
    try {
      List<String> lines = new ArrayList<>();
      physical(rel, "", "", lines);
      return String.join("\n", lines);
    } finally {
      infix = false;
    }
  }

  private void physical(RelNode rel, String first, String rest, List<String> out) {
    if (rel instanceof TableModify modify) {
      out.add(
          first
              + "Sink(table=["
              + String.join(".", qualify.apply(modify.getTable()))
              + "], fields=["
              + String.join(", ", sinkFields(modify))
              + "])");
      children(List.of(modify.getInput()), rest, out, this::physical);
      return;
    }
    if (rel instanceof Project || rel instanceof Filter) {
      calc(rel, first, rest, out);
      return;
    }
    if (rel instanceof TableScan scan) {
      if (scan instanceof BridgeTableScan b
          && fileScan(b, identity(b), null, rel, first, rest, out)) {
        return;
      }
      Scan s = scan(scan);
      if (s.metadataProject != null && !isIdentity(s.columns, s.fields.size())) {
        out.add(first + "Calc(select=[" + select(s.columns, s.fields, rel.getRowType()) + "])");
        first = rest + "+- ";
        rest = rest + "   ";
      }
      out.add(first + tableSourceScan(scan, s));
      return;
    }
    List<String> names = rel.getInputs().isEmpty() ? List.of() : fieldsOf(rel.getInput(0));
    if (rel instanceof Aggregate agg) {
      String groupBy = fieldList(agg.getGroupSet().asList(), names);
      String select = aggregateSelect(agg, names);
      out.add(
          first
              + "HashAggregate(isMerge=[false]"
              + (agg.getGroupCount() > 0 ? ", groupBy=[" + groupBy + "]" : "")
              + ", select=["
              + select
              + "])");
      exchange(
          agg.getInput(), agg.getGroupCount() > 0 ? "hash[" + groupBy + "]" : "single", rest, out);
      return;
    }
    if (rel instanceof Sort sort) {
      String orderBy = orderBy(sort.getCollation(), names);
      String offset = sort.offset == null ? "0" : sort.offset.toString();
      String label;
      if (sort.getCollation().getFieldCollations().isEmpty()) {
        label = "Limit(offset=[" + offset + "], fetch=[" + sort.fetch + "], global=[true])";
      } else if (sort.fetch != null) {
        label =
            "SortLimit(orderBy=["
                + orderBy
                + "], offset=["
                + offset
                + "], fetch=["
                + sort.fetch
                + "], global=[true])";
      } else {
        label = "Sort(orderBy=[" + orderBy + "])";
      }
      out.add(first + label);
      exchange(sort.getInput(), "single", rest, out);
      return;
    }
    if (rel instanceof Join join) {
      List<String> all = new ArrayList<>(fieldsOf(join.getLeft()));
      all.addAll(fieldsOf(join.getRight()));
      all = org.apache.calcite.sql.validate.SqlValidatorUtil.uniquify(all, true);
      var info = join.analyzeCondition();
      boolean equi = !info.leftKeys.isEmpty();
      String type = joinType(join);
      out.add(
          first
              + (equi ? "HashJoin" : "NestedLoopJoin")
              + "(joinType=["
              + type
              + "], where=["
              + expression(join.getCondition(), all)
              + "], select=["
              + String.join(", ", all)
              + "], build=[right])");
      if (equi) {
        exchange(
            join.getLeft(),
            "hash[" + fieldList(info.leftKeys, fieldsOf(join.getLeft())) + "]",
            rest + ":  ",
            out,
            false);
        exchange(
            join.getRight(),
            "hash[" + fieldList(info.rightKeys, fieldsOf(join.getRight())) + "]",
            rest,
            out);
      } else {
        physical(join.getLeft(), rest + ":- ", rest + ":  ", out);
        exchange(join.getRight(), "broadcast", rest, out);
      }
      return;
    }
    if (rel instanceof Union) {
      out.add(
          first
              + "Union(all=[true], union=["
              + String.join(", ", rel.getRowType().getFieldNames())
              + "])");
      children(rel.getInputs(), rest, out, this::physical);
      return;
    }
    if (rel instanceof Values values) {
      out.add(
          first
              + "Values(tuples=["
              + term(values, "tuples")
              + "], values=["
              + String.join(", ", rel.getRowType().getFieldNames())
              + "])");
      return;
    }
    String label = label(rel);
    out.add(first + (label.startsWith("Logical") ? label.substring("Logical".length()) : label));
    children(rel.getInputs(), rest, out, this::physical);
  }

  private void exchange(RelNode input, String distribution, String rest, List<String> out) {
    exchange(input, distribution, rest, out, true);
  }

  /**
   * Flink's Exchange above {@code input}, as the last ({@code +-}) or a first ({@code :-}) input.
   */
  private void exchange(
      RelNode input, String distribution, String rest, List<String> out, boolean last) {
    String first = last ? rest + "+- " : rest.substring(0, rest.length() - 3) + ":- ";
    String inner = last ? rest + "   " : rest;
    out.add(first + "Exchange(distribution=[" + distribution + "])");
    physical(input, inner + "+- ", inner + "   ", out);
  }

  private static String joinType(Join join) {
    switch (join.getJoinType()) {
      case LEFT:
        return "LeftOuterJoin";
      case RIGHT:
        return "RightOuterJoin";
      case FULL:
        return "FullOuterJoin";
      case SEMI:
        return "LeftSemiJoin";
      case ANTI:
        return "LeftAntiJoin";
      default:
        return "InnerJoin";
    }
  }

  /** A Project and Filter chain as Flink's Calc, over its input (a scan's casts merged in). */
  private void calc(RelNode rel, String first, String rest, List<String> out) {
    List<RexNode> projects = null;
    RexNode where = null;
    RelNode input = rel;
    RexBuilder rex = rel.getCluster().getRexBuilder();
    while (input instanceof Project || input instanceof Filter) {
      if (input instanceof Project p) {
        projects =
            new ArrayList<>(
                projects == null ? p.getProjects() : RelOptUtil.pushPastProject(projects, p));
        where = where == null ? null : RelOptUtil.pushPastProject(where, p);
        input = p.getInput();
      } else {
        Filter f = (Filter) input;
        where =
            where == null
                ? f.getCondition()
                : RexUtil.composeConjunction(rex, List.of(where, f.getCondition()));
        input = f.getInput();
      }
    }
    if (projects == null) {
      projects = new ArrayList<>();
      for (int i = 0; i < input.getRowType().getFieldCount(); i++) {
        projects.add(rex.makeInputRef(input, i));
      }
    }
    if (input instanceof BridgeTableScan b && fileScan(b, projects, where, rel, first, rest, out)) {
      return;
    }
    List<String> names = fieldsOf(input);
    RelNode below = input;
    Scan scan = null;
    if (input instanceof TableScan t) {
      Scan s = scan(t);
      if (s.metadataProject != null) {
        scan = s;
        projects = new ArrayList<>(substitute(projects, s.columns));
        where = where == null ? null : substitute(List.of(where), s.columns).get(0);
        names = s.fields;
      }
    }
    if (where == null
        && isIdentity(projects, names.size())
        && names.equals(rel.getRowType().getFieldNames())) {
      if (scan != null) {
        out.add(first + tableSourceScan((TableScan) below, scan));
      } else {
        physical(below, first, rest, out);
      }
      return;
    }
    out.add(
        first
            + "Calc(select=["
            + select(projects, names, rel.getRowType())
            + "]"
            + (where == null ? "" : ", where=[" + expression(where, names) + "]")
            + ")");
    if (scan != null) {
      out.add(rest + "+- " + tableSourceScan((TableScan) below, scan));
    } else {
      physical(below, rest + "+- ", rest + "   ", out);
    }
  }

  private static List<RexNode> identity(RelNode rel) {
    List<RexNode> refs = new ArrayList<>();
    RexBuilder rex = rel.getCluster().getRexBuilder();
    for (int i = 0; i < rel.getRowType().getFieldCount(); i++) {
      refs.add(rex.makeInputRef(rel, i));
    }
    return refs;
  }

  /**
   * Writes {@code rel}, a Calc of {@code projects} and {@code where} over the filesystem scan
   * {@code b}, in the shape Flink's filesystem source gives it ({@link FlinkFileScan}); false when
   * it has none.
   */
  private boolean fileScan(
      BridgeTableScan b,
      List<RexNode> projects,
      @Nullable RexNode where,
      RelNode rel,
      String first,
      String rest,
      List<String> out) {
    String name = String.join(", ", qualify.apply(b.getTable()));
    FlinkFileScan.Shape shape = FlinkFileScan.of(b, name, projects, where);
    if (shape == null) {
      return false;
    }
    if (shape.empty()) {
      out.add(
          first
              + "Values(tuples=[[]], values=["
              + String.join(", ", rel.getRowType().getFieldNames())
              + "])");
      return true;
    }
    String scan =
        "TableSourceScan(table=[["
            + shape.table()
            + "]], fields=["
            + String.join(", ", shape.fields())
            + "]"
            + hints(b)
            + ")";
    if (shape.where() == null
        && isIdentity(shape.projects(), shape.fields().size())
        && shape.fields().equals(rel.getRowType().getFieldNames())) {
      out.add(first + scan);
      return true;
    }
    out.add(
        first
            + "Calc(select=["
            + select(shape.projects(), shape.fields(), rel.getRowType())
            + "]"
            + (shape.where() == null
                ? ""
                : ", where=[" + expression(shape.where(), shape.fields()) + "]")
            + ")");
    out.add(rest + "+- " + scan);
    return true;
  }

  /** A scan's {@code OPTIONS} hints as Flink's physical plan lists them, or nothing. */
  private static String hints(TableScan scan) {
    if (scan.getHints().isEmpty()) {
      return "";
    }
    List<String> hints = new ArrayList<>();
    for (var hint : scan.getHints()) {
      hints.add(
          "["
              + hint.hintName
              + (hint.kvOptions.isEmpty()
                  ? hint.listOptions.isEmpty() ? "" : " options:" + hint.listOptions
                  : " options:" + hint.kvOptions)
              + "]");
    }
    return ", hints=[[" + String.join(", ", hints) + "]]";
  }

  private static List<RexNode> substitute(List<RexNode> exprs, List<RexNode> columns) {
    List<RexNode> out = new ArrayList<>();
    for (RexNode e : exprs) {
      out.add(
          e.accept(
              new org.apache.calcite.rex.RexShuttle() {
                @Override
                public RexNode visitInputRef(RexInputRef ref) {
                  return columns.get(ref.getIndex());
                }
              }));
    }
    return out;
  }

  private static boolean isIdentity(List<RexNode> projects, int inputs) {
    if (projects.size() != inputs) {
      return false;
    }
    for (int i = 0; i < projects.size(); i++) {
      if (!(projects.get(i) instanceof RexInputRef r) || r.getIndex() != i) {
        return false;
      }
    }
    return true;
  }

  private String tableSourceScan(TableScan scan, Scan s) {
    StringBuilder table = new StringBuilder(String.join(", ", qualify.apply(scan.getTable())));
    List<String> fields = s.fields;
    if (scan instanceof BridgeTableScan b) {
      // In Flink's order: the filters pushed first, then the projection (with the metadata keys
      // read, none, for a source that could read some: Flink's filesystem source), the limit.
      if (!b.filters().isEmpty()) {
        List<String> filters = new ArrayList<>();
        for (var f : b.filters()) {
          filters.add(String.valueOf(f));
        }
        table.append(", filter=[").append(String.join(", ", filters)).append(']');
      }
      if (b.projection() != null || b.nested() != null) {
        table.append(", project=[").append(String.join(", ", fields)).append(']');
        if ("filesystem".equals(b.bridgeTable().def().connector())) {
          table.append(", metadata=[]");
        }
      }
      if (b.limit() != null) {
        table.append(", limit=[").append(b.limit()).append(']');
      }
    }
    String name = s.metadataProject != null ? s.table : table.toString();
    return "TableSourceScan(table=[["
        + name
        + "]], fields=["
        + String.join(", ", fields)
        + "]"
        + hints(scan)
        + ")";
  }

  // ---------------------------------------------------------------- expressions

  private static List<String> fieldsOf(RelNode rel) {
    return rel.getRowType().getFieldNames();
  }

  private static String fieldList(List<Integer> indexes, List<String> names) {
    List<String> out = new ArrayList<>();
    for (int i : indexes) {
      out.add(names.get(i));
    }
    return String.join(", ", out);
  }

  private String select(List<RexNode> projects, List<String> names, RelDataType rowType) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < projects.size(); i++) {
      String e = expression(projects.get(i), names);
      String alias = rowType.getFieldNames().get(i);
      out.add(e.equals(alias) ? e : e + " AS " + alias);
    }
    return String.join(", ", out);
  }

  private static String orderBy(RelCollation collation, List<String> names) {
    List<String> out = new ArrayList<>();
    for (RelFieldCollation c : collation.getFieldCollations()) {
      out.add(
          names.get(c.getFieldIndex())
              + (c.getDirection() == RelFieldCollation.Direction.DESCENDING ? " DESC" : " ASC"));
    }
    return String.join(", ", out);
  }

  private static String aggregateSelect(Aggregate agg, List<String> names) {
    List<String> out = new ArrayList<>();
    for (int g : agg.getGroupSet()) {
      out.add(names.get(g));
    }
    List<String> outNames = agg.getRowType().getFieldNames();
    int k = agg.getGroupCount();
    for (AggregateCall call : agg.getAggCallList()) {
      List<String> args = new ArrayList<>();
      for (int a : call.getArgList()) {
        args.add(names.get(a));
      }
      String name = call.getAggregation().getName().toUpperCase(Locale.ROOT);
      String text =
          name
              + "("
              + (call.isDistinct() ? "DISTINCT " : "")
              + (args.isEmpty() && name.equals("COUNT") ? "*" : String.join(", ", args))
              + ")";
      out.add(text + " AS " + outNames.get(k++));
    }
    return String.join(", ", out);
  }

  /**
   * An expression as Flink's physical plan prints it: input fields by name, calls as {@code
   * op(operands)}, casts as {@code CAST(x AS TYPE)}, literals as Calcite prints them.
   */
  String expression(RexNode e, List<String> names) {
    if (e instanceof RexInputRef ref) {
      return names.get(ref.getIndex());
    }
    if (e instanceof RexLiteral literal) {
      String text =
          org.apache.calcite.sql.type.SqlTypeUtil.inCharFamily(literal.getType())
              ? literal.getValueAs(String.class)
              : null;
      if (text != null) {
        // Flink writes a string literal of any length and character set so in a plan's fields
        return "'" + text.replace("'", "''") + "'";
      }
      return e.toString();
    }
    if (e instanceof RexCall call) {
      List<String> operands = new ArrayList<>();
      for (RexNode o : call.getOperands()) {
        operands.add(expression(o, names));
      }
      String op = call.getOperator().getName();
      if (call.getKind() == SqlKind.CAST) {
        return "CAST(" + operands.get(0) + " AS " + castType(call.getType()) + ")";
      }
      if (infix && operands.size() == 1 && POSTFIX.contains(call.getKind())) {
        return operands.get(0) + " " + op;
      }
      if (infix && operands.size() > 1 && INFIX.contains(call.getKind())) {
        return "(" + String.join(" " + op + " ", operands) + ")";
      }
      return op + "(" + String.join(", ", operands) + ")";
    }
    return e.toString();
  }

  /** The operators Flink's execution plan writes between their operands. */
  private static final java.util.Set<SqlKind> INFIX =
      java.util.EnumSet.of(
          SqlKind.TIMES,
          SqlKind.DIVIDE,
          SqlKind.PLUS,
          SqlKind.MINUS,
          SqlKind.LESS_THAN,
          SqlKind.LESS_THAN_OR_EQUAL,
          SqlKind.GREATER_THAN,
          SqlKind.GREATER_THAN_OR_EQUAL,
          SqlKind.EQUALS,
          SqlKind.NOT_EQUALS,
          SqlKind.OR,
          SqlKind.AND);

  /** The operators Flink's execution plan writes after their operand. */
  private static final java.util.Set<SqlKind> POSTFIX =
      java.util.EnumSet.of(
          SqlKind.IS_NULL,
          SqlKind.IS_NOT_NULL,
          SqlKind.IS_TRUE,
          SqlKind.IS_NOT_TRUE,
          SqlKind.IS_FALSE,
          SqlKind.IS_NOT_FALSE,
          SqlKind.IS_UNKNOWN);

  private static String castType(RelDataType type) {
    String s = type.getFullTypeString();
    // Calcite's full type string, less the character set: VARCHAR(2147483647), BIGINT
    int cs = s.indexOf(" CHARACTER SET ");
    if (cs >= 0) {
      int end = s.indexOf('"', s.indexOf('"', cs) + 1);
      s = s.substring(0, cs) + s.substring(end + 1);
    }
    if (type.getSqlTypeName() == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE) {
      s = s.replace("TIMESTAMP_WITH_LOCAL_TIME_ZONE(", "TIMESTAMP_WITH_LOCAL_TIME_ZONE(");
    }
    return s;
  }
}

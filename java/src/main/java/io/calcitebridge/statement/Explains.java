package io.calcitebridge.statement;

import io.calcitebridge.json.JsonValues;
import io.calcitebridge.plan.QueryPlanner;
import io.calcitebridge.translate.Translation;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.calcite.rel.RelNode;

/** EXPLAIN of a query that a backend other than Calcite's engine runs. */
final class Explains {
  private Explains() {}

  /**
   * Whether the EXPLAIN statement prints Flink's sections: Flink's forms ({@code EXPLAIN stmt},
   * {@code EXPLAIN PLAN FOR stmt}, {@code EXPLAIN detail, ... stmt}), not Calcite's {@code EXPLAIN
   * PLAN} with a format, a depth or a level of its own.
   */
  static boolean hasFlinkSections(org.apache.calcite.sql.SqlExplain explain) {
    return explain instanceof io.calcitebridge.sql.SqlExplainDetails
        || (explain.getFormat() == org.apache.calcite.sql.SqlExplainFormat.TEXT
            && explain.getDepth() == org.apache.calcite.sql.SqlExplain.Depth.PHYSICAL
            && explain.getDetailLevel()
                == org.apache.calcite.sql.SqlExplainLevel.EXPPLAN_ATTRIBUTES);
  }

  /**
   * An EXPLAIN statement's text in Flink's three sections: "== Abstract Syntax Tree ==" (the
   * logical plan {@code ast}), "== Optimized Physical Plan ==" and "== Optimized Execution Plan =="
   * (both the plan that runs here, {@code plan}: Calcite's physical nodes or the SQL a backend
   * runs, which is how it executes). Sections {@code plan} already ends with
   * (JSON_EXECUTION_PLAN's, PLAN_ADVICE's) stay at the end. The operators are ours, not Flink's.
   */
  static String flinkSections(String ast, String plan) {
    int extra = plan.indexOf("\n\n== ");
    String physical = extra < 0 ? plan : plan.substring(0, extra);
    String rest = extra < 0 ? "" : plan.substring(extra);
    return "== Abstract Syntax Tree ==\n"
        + ast
        + "\n\n== Optimized Physical Plan ==\n"
        + physical
        + "\n\n== Optimized Execution Plan ==\n"
        + physical
        + rest;
  }

  /**
   * Flink's three sections with the plans in Flink's notation: {@code ast}, then {@code physical}
   * (with CHANGELOG_MODE's modes) and {@code execution}; the sections that {@code plan} ends with
   * (JSON_EXECUTION_PLAN's, PLAN_ADVICE's) stay at the end.
   */
  static String flinkSections(String ast, String physical, String execution, String plan) {
    int extra = plan.indexOf("\n\n== ");
    String rest = extra < 0 ? "" : plan.substring(extra);
    return "== Abstract Syntax Tree ==\n"
        + ast
        + "\n\n== Optimized Physical Plan ==\n"
        + physical
        + "\n\n== Optimized Execution Plan ==\n"
        + execution
        + rest
        + "\n";
  }

  /** {@code plan} with each node's changelog mode, {@code [I]}: a batch statement only inserts. */
  static String changelog(String plan) {
    StringBuilder b = new StringBuilder();
    for (String line : plan.split("\n", -1)) {
      int close = line.lastIndexOf(')');
      if (b.length() > 0) {
        b.append('\n');
      }
      b.append(
          close < 0
              ? line
              : line.substring(0, close) + ", changelogMode=[I]" + line.substring(close));
    }
    return b.toString();
  }

  /**
   * The backend, the SQL it runs and the scans it reads, each as the planner shows it. Text:
   *
   * <pre>
   * DuckDB(sql=[SELECT ... FROM "scan_0" ...])
   *   scan_0: BridgeTableScan(table=[[users]], filter=[&lt;(user.age, 30)])
   * </pre>
   */
  static String translated(Translation t, String format) {
    String f = format.toLowerCase(Locale.ROOT);
    List<RelNode> scans = t.scans();
    switch (f) {
      case "text":
        {
          StringBuilder out = new StringBuilder();
          out.append(label(t.backend())).append("(sql=[").append(t.sql()).append("])");
          for (int i = 0; i < scans.size(); i++) {
            out.append("\n  ")
                .append(Translation.scanName(i))
                .append(": ")
                .append(QueryPlanner.render(scans.get(i), "text"));
          }
          return out.toString();
        }
      case "json":
        {
          Map<String, Object> m = new LinkedHashMap<>();
          m.put("backend", t.backend());
          m.put("sql", t.sql());
          List<Object> list = new ArrayList<>();
          // The scans' plans as Calcite writes them, then the backend as the root rel reading
          // them, so the document has the "rels" of any other plan.
          List<Object> rels = new ArrayList<>();
          List<String> inputs = new ArrayList<>();
          for (int i = 0; i < scans.size(); i++) {
            Map<String, Object> scan = new LinkedHashMap<>();
            scan.put("name", Translation.scanName(i));
            scan.put("plan", QueryPlanner.render(scans.get(i), "text"));
            list.add(scan);
            Object plan = JsonValues.parse(QueryPlanner.render(scans.get(i), "json"));
            Object scanRels = plan instanceof Map<?, ?> p ? p.get("rels") : null;
            for (Object rel : scanRels instanceof List<?> l ? l : List.of()) {
              @SuppressWarnings("unchecked")
              Map<String, Object> copy = (Map<String, Object>) rel;
              copy.put("id", String.valueOf(rels.size()));
              rels.add(copy);
            }
            inputs.add(String.valueOf(rels.size() - 1));
          }
          Map<String, Object> root = new LinkedHashMap<>();
          root.put("id", String.valueOf(rels.size()));
          root.put("relOp", label(t.backend()));
          root.put("sql", t.sql());
          root.put("inputs", inputs);
          rels.add(root);
          m.put("scans", list);
          m.put("rels", rels);
          return JsonValues.writePretty(m);
        }
      case "dot":
        {
          StringBuilder out = new StringBuilder("digraph {\n");
          out.append("  backend [label=\"")
              .append(label(t.backend()))
              .append(": ")
              .append(t.sql().replace("\\", "\\\\").replace("\"", "\\\""))
              .append("\"];\n");
          for (int i = 0; i < scans.size(); i++) {
            String plan = QueryPlanner.render(scans.get(i), "text");
            out.append("  scan_")
                .append(i)
                .append(" [label=\"")
                .append(plan.replace("\\", "\\\\").replace("\"", "\\\""))
                .append("\"];\n  scan_")
                .append(i)
                .append(" -> backend;\n");
          }
          return out.append("}").toString();
        }
      default:
        throw new IllegalArgumentException(
            "Unknown explain format '" + format + "'; expected text, json or dot");
    }
  }

  private static String label(String backend) {
    return backend.equals("duckdb") ? "DuckDB" : backend.equals("spark") ? "Spark" : backend;
  }
}

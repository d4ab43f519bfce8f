package io.calcitebridge.arch;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * The dependency graph of top-level classes, and its cycles. A nested or inner class ({@code A$B})
 * counts as part of its top-level class {@code A}, and so does a permitted subclass of a sealed
 * {@code A}: the language makes a sealed type and its permitted subclasses name each other (its
 * {@code permits} clause, their {@code extends} or {@code implements}), so they are one unit as a
 * class and its nested classes are. A cycle is a strongly connected component of more than one such
 * unit, found with Tarjan's algorithm.
 */
final class ClassCycles {
  private ClassCycles() {}

  /** The top-level class that {@code name} is, or is nested in. */
  static String topLevel(String name) {
    int dollar = name.indexOf('$');
    return dollar < 0 ? name : name.substring(0, dollar);
  }

  /**
   * The unit of each permitted subclass of a sealed type among {@code classes}: the top-level class
   * of the outermost sealed type above it.
   */
  static Map<String, String> sealedUnits(Iterable<JavaClass> classes) {
    Map<String, String> parent = new HashMap<>();
    for (JavaClass c : classes) {
      for (JavaClass sub : c.getPermittedSubclasses().orElse(java.util.Set.of())) {
        String from = topLevel(sub.getName());
        String to = topLevel(c.getName());
        if (!from.equals(to)) {
          parent.put(from, to);
        }
      }
    }
    Map<String, String> units = new HashMap<>();
    for (String sub : parent.keySet()) {
      String unit = sub;
      while (parent.containsKey(unit)) {
        unit = parent.get(unit);
      }
      units.put(sub, unit);
    }
    return units;
  }

  /**
   * The graph of the units of {@code classes} (top-level classes, with the permitted subclasses of
   * a sealed type folded into it) that {@code include} accepts: each node's edges go to the other
   * accepted units it uses.
   */
  static Map<String, TreeSet<String>> graph(
      Iterable<JavaClass> classes, Predicate<String> include) {
    Map<String, String> sealed = sealedUnits(classes);
    Map<String, TreeSet<String>> edges = new TreeMap<>();
    for (JavaClass c : classes) {
      String from = topLevel(c.getName());
      from = sealed.getOrDefault(from, from);
      if (!include.test(from)) {
        continue;
      }
      TreeSet<String> out = edges.computeIfAbsent(from, k -> new TreeSet<>());
      for (Dependency d : c.getDirectDependenciesFromSelf()) {
        String to = topLevel(d.getTargetClass().getBaseComponentType().getName());
        to = sealed.getOrDefault(to, to);
        if (!to.equals(from) && include.test(to)) {
          out.add(to);
        }
      }
    }
    // Targets that were not imported themselves are nodes without edges.
    for (TreeSet<String> targets : new ArrayList<>(edges.values())) {
      for (String t : targets) {
        edges.computeIfAbsent(t, k -> new TreeSet<>());
      }
    }
    return edges;
  }

  /** The strongly connected components of more than one node, each sorted, in a stable order. */
  static List<List<String>> cycles(Map<String, TreeSet<String>> graph) {
    Tarjan t = new Tarjan(graph);
    for (String node : graph.keySet()) {
      if (!t.index.containsKey(node)) {
        t.visit(node);
      }
    }
    t.components.sort((a, b) -> a.get(0).compareTo(b.get(0)));
    return t.components;
  }

  /** Each component's uses among its own classes, one "A -> B" line a use. */
  static String describe(Map<String, TreeSet<String>> graph, List<List<String>> components) {
    StringBuilder out = new StringBuilder();
    for (List<String> component : components) {
      out.append(component).append('\n');
      for (String from : component) {
        for (String to : graph.get(from)) {
          if (component.contains(to)) {
            out.append("  ").append(from).append(" -> ").append(to).append('\n');
          }
        }
      }
    }
    return out.toString();
  }

  /** Tarjan's algorithm, iterative so that deep graphs do not overflow the stack. */
  private static final class Tarjan {
    final Map<String, TreeSet<String>> graph;
    final Map<String, Integer> index = new HashMap<>();
    final Map<String, Integer> low = new HashMap<>();
    final Deque<String> stack = new ArrayDeque<>();
    final java.util.Set<String> onStack = new java.util.HashSet<>();
    final List<List<String>> components = new ArrayList<>();
    int next;

    Tarjan(Map<String, TreeSet<String>> graph) {
      this.graph = graph;
    }

    void visit(String root) {
      // Each frame: the node and the iterator over its successors still to look at.
      Deque<Map.Entry<String, java.util.Iterator<String>>> frames = new ArrayDeque<>();
      enter(root);
      frames.push(Map.entry(root, graph.get(root).iterator()));
      while (!frames.isEmpty()) {
        Map.Entry<String, java.util.Iterator<String>> frame = frames.peek();
        String v = frame.getKey();
        java.util.Iterator<String> it = frame.getValue();
        if (it.hasNext()) {
          String w = it.next();
          if (!index.containsKey(w)) {
            enter(w);
            frames.push(Map.entry(w, graph.get(w).iterator()));
          } else if (onStack.contains(w)) {
            low.put(v, Math.min(low.get(v), index.get(w)));
          }
          continue;
        }
        frames.pop();
        if (!frames.isEmpty()) {
          String parent = frames.peek().getKey();
          low.put(parent, Math.min(low.get(parent), low.get(v)));
        }
        if (low.get(v).equals(index.get(v))) {
          List<String> component = new ArrayList<>();
          String w;
          do {
            w = stack.pop();
            onStack.remove(w);
            component.add(w);
          } while (!w.equals(v));
          if (component.size() > 1) {
            component.sort(null);
            components.add(component);
          }
        }
      }
    }

    private void enter(String v) {
      index.put(v, next);
      low.put(v, next);
      next++;
      stack.push(v);
      onStack.add(v);
    }
  }
}

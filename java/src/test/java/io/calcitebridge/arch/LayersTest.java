package io.calcitebridge.arch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import com.tngtech.archunit.library.dependencies.SlicesRuleDefinition;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Java packages form layers, drawn in the README's architecture section: a package may use the
 * packages of lower layers only, never one of its own layer or above, and no package cycle exists.
 *
 * <p>Nor does any class cycle exist: counting a nested or inner class as part of its top-level
 * class (and the permitted subclasses of a sealed type as part of it, since the language makes them
 * name each other), no two top-level classes of the main code (outside the shaded and the generated
 * parser packages) depend on each other, directly or through others. {@code noClassCycles} lists
 * each strongly connected component it finds; break one by moving a nested type to its own file,
 * inverting a dependency through an interface, or moving a static helper.
 *
 * <p>{@code make lint} runs this test; a new upward dependency or a new cycle fails it with the
 * offending classes.
 */
class LayersTest {
  private static final String ROOT = "io.calcitebridge";

  /** Bottom to top; the packages of one layer are independent of each other. */
  static final List<List<String>> LAYERS =
      List.of(
          List.of("json"),
          List.of("errors", "types"),
          List.of("expr", "dyncol", "functions"),
          List.of("sql"),
          List.of("catalog"),
          List.of("validate"),
          List.of("rewrite"),
          List.of("flink", "repair"),
          List.of("enumerable", "pushdown"),
          List.of("plan", "arrow"),
          List.of("connector", "vector", "translate", "udf"),
          List.of("statement"),
          List.of("facade", "api.source"),
          List.of("javasource"),
          List.of("api", "gateway"));

  private static JavaClasses classes;

  @BeforeAll
  static void importClasses() {
    classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
            .importPackages(ROOT);
  }

  /** The layer package of {@code className} ("plan", "api.source", ...), or null outside ours. */
  static String packageOf(String className) {
    if (!className.startsWith(ROOT + ".") || className.startsWith(ROOT + ".shaded.")) {
      return null;
    }
    String rest = className.substring(ROOT.length() + 1);
    String best = null;
    for (List<String> layer : LAYERS) {
      for (String p : layer) {
        if ((rest.startsWith(p + ".")) && (best == null || p.length() > best.length())) {
          best = p;
        }
      }
    }
    return best;
  }

  static int layerOf(String pkg) {
    for (int i = 0; i < LAYERS.size(); i++) {
      if (LAYERS.get(i).contains(pkg)) {
        return i;
      }
    }
    return -1;
  }

  /** Every dependency that goes sideways or up, as "from -> to" lines. */
  static List<String> violations(JavaClasses imported) {
    TreeSet<String> out = new TreeSet<>();
    for (JavaClass c : imported) {
      String from = packageOf(c.getName());
      if (from == null) {
        continue;
      }
      for (Dependency d : c.getDirectDependenciesFromSelf()) {
        String to = packageOf(d.getTargetClass().getName());
        if (to == null || to.equals(from)) {
          continue;
        }
        if (layerOf(to) >= layerOf(from)) {
          out.add(
              from
                  + " -> "
                  + to
                  + ": "
                  + c.getName().substring(ROOT.length() + 1)
                  + " uses "
                  + d.getTargetClass().getName().substring(ROOT.length() + 1));
        }
      }
    }
    return new ArrayList<>(out);
  }

  @Test
  void everyClassIsInALayer() {
    List<String> outside = new ArrayList<>();
    for (JavaClass c : classes) {
      if (packageOf(c.getName()) == null && !c.getName().startsWith(ROOT + ".shaded.")) {
        outside.add(c.getName());
      }
    }
    assertEquals(List.of(), outside, "classes in no layer; add their package to LAYERS");
  }

  @Test
  void packagesUseOnlyLowerLayers() {
    assertEquals(List.of(), violations(classes), "dependencies against the layers");
  }

  @Test
  void noPackageCycles() {
    SlicesRuleDefinition.slices()
        .assignedFrom(
            new SliceAssignment() {
              @Override
              public SliceIdentifier getIdentifierOf(JavaClass c) {
                String p = packageOf(c.getName());
                return p == null ? SliceIdentifier.ignore() : SliceIdentifier.of(p);
              }

              @Override
              public String getDescription() {
                return "the packages of the layers";
              }
            })
        .should()
        .beFreeOfCycles()
        .check(classes);
  }

  /**
   * Whether the class cycle check looks at {@code topLevelName}: ours, neither shaded nor
   * generated.
   */
  static boolean inCycleCheck(String topLevelName) {
    return topLevelName.startsWith(ROOT + ".")
        && !topLevelName.startsWith(ROOT + ".shaded.")
        && !topLevelName.startsWith(ROOT + ".sql.parser.impl.");
  }

  @Test
  void noClassCycles() {
    Map<String, TreeSet<String>> graph = ClassCycles.graph(classes, LayersTest::inCycleCheck);
    List<List<String>> cycles = ClassCycles.cycles(graph);
    assertEquals(
        List.of(),
        cycles,
        () ->
            "class cycles (each list is one strongly connected component), with their uses:\n"
                + ClassCycles.describe(graph, cycles));
  }

  @Test
  void theCheckSeesAClassCycle() {
    // Two classes of the test tree that use each other, one of them through a nested class.
    JavaClasses planted =
        new ClassFileImporter()
            .importClasses(PlantedCycleA.class, PlantedCycleA.Inner.class, PlantedCycleB.class);
    List<List<String>> cycles =
        ClassCycles.cycles(ClassCycles.graph(planted, LayersTest::inCycleCheck));
    assertEquals(
        List.of(List.of(PlantedCycleA.class.getName(), PlantedCycleB.class.getName())), cycles);
  }

  @Test
  void theCheckCountsASealedHierarchyAsOneUnit() {
    // A sealed interface that creates its permitted record, which implements it back.
    JavaClasses planted =
        new ClassFileImporter().importClasses(PlantedSealedShape.class, PlantedSquare.class);
    Map<String, TreeSet<String>> graph = ClassCycles.graph(planted, LayersTest::inCycleCheck);
    assertEquals(Set.of(PlantedSealedShape.class.getName()), graph.keySet());
    assertEquals(List.of(), ClassCycles.cycles(graph));
  }

  @Test
  void theCheckSeesAnUpwardDependency() throws ClassNotFoundException {
    // A class of plan/ (in the test tree) that uses the statement layer is reported.
    JavaClasses planted =
        new ClassFileImporter().importClasses(Class.forName(ROOT + ".plan.PlantedUpwardUse"));
    List<String> found = violations(planted);
    assertEquals(1, found.size(), found.toString());
    assertFalse(found.get(0).indexOf("plan -> statement") < 0, found.get(0));
  }
}

package io.calcitebridge.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.calcite.rel.metadata.DefaultRelMetadataProvider;
import org.apache.calcite.rel.metadata.MetadataHandler;
import org.apache.calcite.rel.metadata.janino.RelMetadataHandlerGeneratorUtil;
import org.junit.jupiter.api.Test;

/**
 * The metadata handlers compiled with the jar ({@link PrecompiledMetadata}) are those Calcite
 * generates for its default provider now: a Calcite upgrade that changes them fails here. Run with
 * {@code -Dmetadata.regenerate=true} to write them again.
 */
class PrecompiledMetadataTest {
  private static final Path SOURCES = Path.of("src/main/java/io/calcitebridge/plan/metadata");

  @Test
  void precompiledHandlersAreThoseCalciteGenerates() throws IOException {
    boolean regenerate = Boolean.getBoolean("metadata.regenerate");
    List<Class<? extends MetadataHandler<?>>> kinds = PrecompiledMetadata.handlerClasses();
    assertTrue(kinds.size() >= 25, () -> "handler kinds: " + kinds);
    for (Class<? extends MetadataHandler<?>> kind : kinds) {
      // Distinct, as JaninoRelMetadataProvider hands them to the generator
      List<? extends MetadataHandler<?>> handlers =
          DefaultRelMetadataProvider.INSTANCE.handlers(kind).stream().distinct().toList();
      RelMetadataHandlerGeneratorUtil.HandlerNameAndGeneratedCode generated =
          RelMetadataHandlerGeneratorUtil.generateHandler(kind, handlers);
      String simpleName =
          generated.getHandlerName().substring(generated.getHandlerName().lastIndexOf('.') + 1);
      String source = source(generated.getGeneratedCode(), handlers);
      Path file = SOURCES.resolve(simpleName + ".java");
      if (regenerate) {
        Files.writeString(file, source, StandardCharsets.UTF_8);
        continue;
      }
      assertTrue(
          Files.isRegularFile(file),
          () -> file + " is missing: run this test with -Dmetadata.regenerate=true");
      assertEquals(
          tokens(source),
          tokens(Files.readString(file, StandardCharsets.UTF_8)),
          () -> file + " differs from Calcite's: run this test with -Dmetadata.regenerate=true");
      MetadataHandler<?> handler = PrecompiledMetadata.create(kind, handlers);
      assertNotNull(handler, () -> "no precompiled handler for " + kind.getName());
      assertEquals(
          PrecompiledMetadata.class.getPackageName() + ".metadata." + simpleName,
          handler.getClass().getName());
    }
  }

  @Test
  void otherHandlersAreRefused() {
    Class<? extends MetadataHandler<?>> kind = PrecompiledMetadata.handlerClasses().get(0);
    assertEquals(null, PrecompiledMetadata.create(kind, List.of()));
  }

  /**
   * Whether code in another package can name {@code c}: it and its enclosing classes are public.
   */
  private static boolean accessible(Class<?> c) {
    for (Class<?> k = c; k != null; k = k.getEnclosingClass()) {
      if (!Modifier.isPublic(k.getModifiers())) {
        return false;
      }
    }
    return true;
  }

  /**
   * Calcite's source of a handler, in the package of the precompiled ones, a nested class named as
   * Java names it ({@code Measure.Context} where Janino took {@code Measure$Context}).
   *
   * <p>Janino lets the generated class name a handler's class that is not public (such as {@code
   * RelMdPercentageOriginalRows}' private nested classes), Java does not: such a class is named by
   * its nearest public superclass instead, whose public methods are the ones called (the same
   * methods, found by the same argument types, run by the same objects), and its {@code getDef}
   * through {@link MetadataHandler}. The source then lists the classes it was made for in {@value
   * PrecompiledMetadata#HANDLERS}, which {@link PrecompiledMetadata#create} checks as it checks a
   * constructor's parameter types.
   */
  private static String source(String code, List<? extends MetadataHandler<?>> handlers) {
    String body = code.substring(code.indexOf("package "));
    body = body.substring(body.indexOf(';') + 1).replaceAll("(\\w)\\$(\\w)", "$1.$2");
    List<Class<?>> classes = handlers.stream().<Class<?>>map(Object::getClass).toList();
    if (!classes.stream().allMatch(PrecompiledMetadataTest::accessible)) {
      StringBuilder names = new StringBuilder();
      for (int i = 0; i < classes.size(); i++) {
        Class<?> c = classes.get(i);
        names.append(i == 0 ? "" : ", ").append('"').append(c.getName()).append('"');
        if (accessible(c)) {
          continue;
        }
        Class<?> named = c.getSuperclass();
        while (!accessible(named)) {
          named = named.getSuperclass();
        }
        assertTrue(named != Object.class, () -> c + " has no public superclass to name it by");
        body =
            body.replaceAll(
                    Pattern.quote(c.getName().replace('$', '.')) + "\\b",
                    Matcher.quoteReplacement(named.getName()))
                .replace(
                    "provider" + i + ".getDef()",
                    "((" + MetadataHandler.class.getName() + "<?>) provider" + i + ").getDef()");
      }
      int open = body.indexOf('{') + 1;
      body =
          body.substring(0, open)
              + "\n  /** The classes of the handlers, which the constructor names by public ones. */"
              + "\n  public static final String[] "
              + PrecompiledMetadata.HANDLERS
              + " = {"
              + names
              + "};\n"
              + body.substring(open);
    }
    return "// Generated by Calcite's RelMetadataHandlerGeneratorUtil for its default metadata\n"
        + "// provider; PrecompiledMetadataTest checks it and writes it again. Do not edit.\n"
        + "package "
        + PrecompiledMetadata.class.getPackageName()
        + ".metadata;"
        + body;
  }

  /** The text without its comments and white space: the formatter only moves white space. */
  private static String tokens(String source) {
    return source.substring(source.indexOf("package ")).replaceAll("\\s+", "");
  }
}

package io.calcitebridge.plan;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import org.apache.calcite.rel.metadata.BuiltInMetadata;
import org.apache.calcite.rel.metadata.MetadataHandler;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The metadata handlers of Calcite's default provider, compiled with the jar.
 *
 * <p>Calcite generates a handler class for each kind of metadata (row count, predicates, cost, ...)
 * the first time a JVM asks for it, as Java source compiled by Janino: a first query plan asks for
 * 27 kinds, and compiling them took about half a second of CPU in a new process. The classes in
 * {@code io.calcitebridge.plan.metadata} are that source for the default provider, compiled when
 * the jar is built (a test checks they are the ones Calcite generates now), so a new process loads
 * them from the jar and its start-up archive. A provider whose handlers are other than those the
 * classes were made for gets Calcite's generated ones, as before.
 */
public final class PrecompiledMetadata {
  private static final String PACKAGE = PrecompiledMetadata.class.getPackageName() + ".metadata.";

  private PrecompiledMetadata() {}

  /** The handler interfaces of Calcite's built-in kinds of metadata, by name. */
  @SuppressWarnings("unchecked")
  public static List<Class<? extends MetadataHandler<?>>> handlerClasses() {
    List<Class<? extends MetadataHandler<?>>> kinds = new ArrayList<>();
    for (Class<?> metadata : BuiltInMetadata.class.getDeclaredClasses()) {
      for (Class<?> inner : metadata.getDeclaredClasses()) {
        if (MetadataHandler.class.isAssignableFrom(inner) && inner.isInterface()) {
          kinds.add((Class<? extends MetadataHandler<?>>) inner);
        }
      }
    }
    kinds.sort(Comparator.comparing(Class::getName));
    return kinds;
  }

  /**
   * The precompiled handler of {@code kind} over {@code handlers} (a provider's, in its order), or
   * null when none was compiled for exactly those handlers' classes.
   */
  public static @Nullable MetadataHandler<?> create(
      Class<?> kind, List<? extends MetadataHandler<?>> handlers) {
    // The generated class takes each distinct handler once, in the order first seen.
    Object[] distinct = new LinkedHashSet<Object>(handlers).toArray();
    Class<?> generated;
    try {
      generated = Class.forName(PACKAGE + "GeneratedMetadata_" + simpleName(kind));
    } catch (ClassNotFoundException e) {
      return null;
    }
    if (!kind.isAssignableFrom(generated) || generated.getConstructors().length != 1) {
      return null;
    }
    Constructor<?> constructor = generated.getConstructors()[0];
    Class<?>[] expected = constructor.getParameterTypes();
    Class<?>[] given = Arrays.stream(distinct).map(Object::getClass).toArray(Class<?>[]::new);
    if (!Arrays.equals(expected, given)) {
      return null;
    }
    try {
      return (MetadataHandler<?>) constructor.newInstance(distinct);
    } catch (InstantiationException | IllegalAccessException | InvocationTargetException e) {
      return null;
    }
  }

  /** Calcite's name for a handler's class: {@code RowCount.Handler} is {@code RowCountHandler}. */
  private static String simpleName(Class<?> kind) {
    String simple = kind.getSimpleName();
    if (!simple.equals("Handler")) {
      return simple;
    }
    String[] parts = kind.getName().split("\\.|\\$");
    return parts[parts.length - 2] + parts[parts.length - 1];
  }
}

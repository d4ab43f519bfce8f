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
 * them from the jar and its start-up archive. That includes the kinds whose handlers are private
 * classes of Calcite's ({@code CumulativeCost}, {@code NonCumulativeCost} and {@code
 * PercentageOriginalRows}): their source names those handlers by a public superclass, which
 * declares the methods called. A provider whose handlers are other than those the classes were made
 * for gets Calcite's generated ones, as before.
 */
public final class PrecompiledMetadata {
  private static final String PACKAGE = PrecompiledMetadata.class.getPackageName() + ".metadata.";

  /**
   * The field of a generated class that lists the classes of the handlers it was made for, by name,
   * when some are not public.
   */
  public static final String HANDLERS = "HANDLER_CLASSES";

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
    Class<?>[] given = Arrays.stream(distinct).map(Object::getClass).toArray(Class<?>[]::new);
    if (!madeFor(generated, constructor.getParameterTypes(), given)) {
      return null;
    }
    try {
      return (MetadataHandler<?>) constructor.newInstance(distinct);
    } catch (InstantiationException | IllegalAccessException | InvocationTargetException e) {
      return null;
    }
  }

  /**
   * Whether the class {@code generated}, whose constructor takes {@code parameters}, was generated
   * for handlers of exactly the classes {@code given}: the parameters' own, or, where a handler's
   * class is not public (Java source cannot name it, so the constructor takes a public superclass
   * of it), the classes named in its {@value #HANDLERS}.
   */
  private static boolean madeFor(Class<?> generated, Class<?>[] parameters, Class<?>[] given) {
    if (parameters.length != given.length) {
      return false;
    }
    String[] named;
    try {
      named = (String[]) generated.getField(HANDLERS).get(null);
    } catch (NoSuchFieldException e) {
      return Arrays.equals(parameters, given);
    } catch (IllegalAccessException | ClassCastException e) {
      return false;
    }
    if (named.length != given.length) {
      return false;
    }
    for (int i = 0; i < given.length; i++) {
      if (!given[i].getName().equals(named[i]) || !parameters[i].isAssignableFrom(given[i])) {
        return false;
      }
    }
    return true;
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

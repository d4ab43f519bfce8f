package io.calcitebridge.plan;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.calcite.rel.metadata.JaninoRelMetadataProvider;
import org.apache.calcite.rel.metadata.MetadataHandler;
import org.apache.calcite.rel.metadata.MetadataHandlerProvider;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.metadata.RelMetadataQueryBase;

/**
 * Metadata queries whose handlers are the generated ones from the first call.
 *
 * <p>A {@link RelMetadataQuery} as Calcite makes it starts with a stand-in for each of its 28 kinds
 * of metadata that throws {@code NoHandler} on first use; the query catches it and asks the
 * provider for the generated handler, which Calcite keeps per JVM. A plan asks for a cluster's
 * query anew after each change of its nodes, so a statement threw about 16 of those exceptions,
 * each with its stack trace. A query made here gets the generated handlers at once, from a map per
 * provider shared by every thread: the handlers hold no state of their own (a query's results live
 * in the query), and Calcite shares them across threads the same way. The answers are the same: the
 * handlers are those the stand-ins would have been replaced with, and for Calcite's default
 * provider they are compiled with the jar rather than in each new process ({@link
 * PrecompiledMetadata}).
 */
public final class MetadataHandlers implements MetadataHandlerProvider {
  /** The providers kept; past that, a provider's handlers are looked up per query. */
  private static final int KEPT = 16;

  private static final Map<JaninoRelMetadataProvider, MetadataHandlers> BY_PROVIDER =
      new ConcurrentHashMap<>();

  private final JaninoRelMetadataProvider provider;
  private final Map<Class<?>, MetadataHandler<?>> handlers = new ConcurrentHashMap<>();

  private MetadataHandlers(JaninoRelMetadataProvider provider) {
    this.provider = provider;
  }

  /**
   * A metadata query over the provider of this thread, as {@code RelMetadataQuery.instance()} would
   * make it: the cluster's supplier of queries.
   */
  public static RelMetadataQuery query() {
    JaninoRelMetadataProvider provider = RelMetadataQueryBase.THREAD_PROVIDERS.get();
    if (provider == null) {
      return RelMetadataQuery.instance();
    }
    MetadataHandlers kept = BY_PROVIDER.get(provider);
    if (kept == null) {
      kept = new MetadataHandlers(provider);
      if (BY_PROVIDER.size() < KEPT) {
        MetadataHandlers earlier = BY_PROVIDER.putIfAbsent(provider, kept);
        if (earlier != null) {
          kept = earlier;
        }
      }
    }
    return new RelMetadataQuery(kept);
  }

  @Override
  public <H extends MetadataHandler<?>> H handler(Class<H> handlerClass) {
    return handlerClass.cast(handlers.computeIfAbsent(handlerClass, this::generated));
  }

  @Override
  public <H extends MetadataHandler<?>> H revise(Class<H> handlerClass) {
    return handler(handlerClass);
  }

  /**
   * The handler compiled with the jar for the provider's handlers ({@link PrecompiledMetadata}),
   * else the one Calcite generates and compiles in this JVM.
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private MetadataHandler<?> generated(Class<?> handlerClass) {
    MetadataHandler<?> precompiled =
        PrecompiledMetadata.create(handlerClass, provider.handlers((Class) handlerClass));
    return precompiled != null ? precompiled : provider.revise((Class) handlerClass);
  }
}

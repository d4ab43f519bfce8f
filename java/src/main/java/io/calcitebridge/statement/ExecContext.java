package io.calcitebridge.statement;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TimeZone;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.linq4j.QueryProvider;
import org.apache.calcite.rel.type.TimeFrames;
import org.apache.calcite.schema.SchemaPlus;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The {@link DataContext} one execution runs in: the catalog's schema, the query's start time (so
 * {@code CURRENT_TIMESTAMP} is the same throughout a query), and a cancel flag.
 */
public final class ExecContext implements DataContext {
  private final SchemaPlus rootSchema;
  private final JavaTypeFactory typeFactory;
  private final Map<String, Object> values = new HashMap<>();
  private final AtomicBoolean cancelFlag;

  public ExecContext(
      SchemaPlus rootSchema,
      JavaTypeFactory typeFactory,
      Map<String, Object> parameters,
      TimeZone timeZone,
      AtomicBoolean cancelFlag) {
    this.rootSchema = rootSchema;
    this.typeFactory = typeFactory;
    this.cancelFlag = cancelFlag;
    final long time = System.currentTimeMillis();
    final long offset = timeZone.getOffset(time);
    values.put(Variable.UTC_TIMESTAMP.camelName, time);
    values.put(Variable.CURRENT_TIMESTAMP.camelName, time + offset);
    values.put(Variable.LOCAL_TIMESTAMP.camelName, time + offset);
    values.put(Variable.SYS_TIMESTAMP.camelName, time + TimeZone.getDefault().getOffset(time));
    values.put(Variable.TIME_ZONE.camelName, timeZone);
    values.put(
        Variable.TIME_FRAME_SET.camelName,
        typeFactory.getTypeSystem().deriveTimeFrameSet(TimeFrames.CORE));
    values.put(Variable.USER.camelName, System.getProperty("user.name", "user"));
    values.put(Variable.SYSTEM_USER.camelName, System.getProperty("user.name", "user"));
    values.put(Variable.LOCALE.camelName, Locale.ROOT);
    values.put(Variable.CANCEL_FLAG.camelName, cancelFlag);
    values.putAll(parameters);
  }

  @Override
  public SchemaPlus getRootSchema() {
    return rootSchema;
  }

  @Override
  public JavaTypeFactory getTypeFactory() {
    return typeFactory;
  }

  @Override
  public QueryProvider getQueryProvider() {
    throw new UnsupportedOperationException("queryable tables are not supported");
  }

  @Override
  public @Nullable Object get(String name) {
    return values.get(name);
  }

  /** The flag that cancels the running query when set. */
  public AtomicBoolean cancelFlag() {
    return cancelFlag;
  }
}

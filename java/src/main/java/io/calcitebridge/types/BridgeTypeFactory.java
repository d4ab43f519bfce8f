package io.calcitebridge.types;

import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;

/** The type factory of every environment: types are interned and shared. */
public final class BridgeTypeFactory {
  /** The single instance, over {@link BridgeTypeSystem}. */
  public static final JavaTypeFactory INSTANCE = new JavaTypeFactoryImpl(BridgeTypeSystem.INSTANCE);

  private BridgeTypeFactory() {}
}

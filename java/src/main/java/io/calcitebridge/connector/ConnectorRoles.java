package io.calcitebridge.connector;

import io.calcitebridge.errors.ErrorKind;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * What a connector of Flink's that runs in the JVM ({@code datagen}, {@code print}, {@code
 * blackhole}) or is only declared here ({@code kafka}, {@code upsert-kafka}, {@code jdbc}, {@code
 * hive}) refuses: a statement that reads or writes its table fails with the refusal before it runs.
 */
public interface ConnectorRoles {
  /** Why a statement may not read the table {@code name}, or null. */
  @Nullable Refusal sourceRefusal(String name);

  /** Why a statement may not write into the table {@code name}, or null. */
  @Nullable Refusal sinkRefusal(String name);

  /** A refusal: the error class and its message. */
  record Refusal(ErrorKind kind, String message) {}
}

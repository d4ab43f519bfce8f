package io.calcitebridge.arrow;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * The allocator of every Arrow buffer the bridge creates. One allocator serves the whole JVM and
 * outlives every batch handed to Python.
 */
public final class ArrowMemory {
  private static final BufferAllocator ALLOCATOR = new RootAllocator();

  private ArrowMemory() {}

  /** The allocator. */
  public static BufferAllocator allocator() {
    return ALLOCATOR;
  }

  /** Bytes currently allocated by the bridge (0 once Python dropped every result). */
  public static long allocatedBytes() {
    return ALLOCATOR.getAllocatedMemory();
  }
}

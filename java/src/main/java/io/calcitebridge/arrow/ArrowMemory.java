package io.calcitebridge.arrow;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * The allocator of every Arrow buffer the bridge creates. One allocator serves the whole JVM and
 * outlives every batch handed to Python; a statement under {@code execution.memory-limit} gets a
 * child of it with that limit ({@link #scoped}).
 */
public final class ArrowMemory {
  static {
    CDataLibrary.prepare(); // before any data crosses through a C struct
  }

  private static final BufferAllocator ALLOCATOR = new RootAllocator();
  private static final List<Scoped> SCOPES = new ArrayList<>();

  private ArrowMemory() {}

  /** The allocator. */
  public static BufferAllocator allocator() {
    return ALLOCATOR;
  }

  /** Bytes currently allocated by the bridge (0 once Python dropped every result). */
  public static long allocatedBytes() {
    sweep();
    return ALLOCATOR.getAllocatedMemory();
  }

  /**
   * The buffers of one statement's rows, at most {@code limit} bytes of them alive at once, those
   * Python still holds included; past it an allocation fails with Arrow's {@code
   * OutOfMemoryException}. Call {@link Scoped#done} once the statement's reader is closed: the
   * allocator is closed when its last buffer is released.
   */
  public static Scoped scoped(long limit) {
    sweep();
    Scoped s = new Scoped(ALLOCATOR.newChildAllocator("statement", 0, limit), limit);
    synchronized (SCOPES) {
      SCOPES.add(s);
    }
    return s;
  }

  /** Closes the allocators of statements that are done and whose buffers were all released. */
  private static void sweep() {
    synchronized (SCOPES) {
      for (Iterator<Scoped> it = SCOPES.iterator(); it.hasNext(); ) {
        Scoped s = it.next();
        if (s.done && s.allocator.getAllocatedMemory() == 0) {
          s.allocator.close();
          it.remove();
        }
      }
    }
  }

  /** The allocator of one statement's rows. */
  public static final class Scoped {
    private final BufferAllocator allocator;
    private final long limit;
    private volatile boolean done;

    private Scoped(BufferAllocator allocator, long limit) {
      this.allocator = allocator;
      this.limit = limit;
    }

    public BufferAllocator allocator() {
      return allocator;
    }

    /** The limit in bytes. */
    public long limit() {
      return limit;
    }

    /** The statement's reader is closed: no buffer is allocated here any more. */
    public void done() {
      done = true;
      sweep();
    }
  }
}

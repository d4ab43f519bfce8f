package io.calcitebridge.connector;

import io.calcitebridge.arrow.ArrowToRows;
import io.calcitebridge.catalog.ArrowStorage.Opened;
import io.calcitebridge.errors.Errors;
import java.util.function.Supplier;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerator;

/**
 * The rows of a Python source's scan, opened anew for each enumeration; failures while reading the
 * source's stream are reported as source errors.
 */
final class SourceRows extends AbstractEnumerable<Object[]> {
  private final PythonSource source;
  private final Supplier<Opened> opener;

  SourceRows(PythonSource source, Supplier<Opened> opener) {
    this.source = source;
    this.opener = opener;
  }

  @Override
  public Enumerator<Object[]> enumerator() {
    Opened opened = opener.get();
    return new SourceEnumerator(ArrowToRows.of(opened.reader(), opened.columns()).enumerator());
  }

  /** Reports failures while reading the source's stream as source errors. */
  private final class SourceEnumerator implements Enumerator<Object[]> {
    private final Enumerator<Object[]> inner;

    SourceEnumerator(Enumerator<Object[]> inner) {
      this.inner = inner;
    }

    @Override
    public Object[] current() {
      return inner.current();
    }

    @Override
    public boolean moveNext() {
      try {
        return inner.moveNext();
      } catch (RuntimeException e) {
        throw Errors.sourceReadFailure(source.name(), e);
      }
    }

    @Override
    public void reset() {
      throw new UnsupportedOperationException();
    }

    @Override
    public void close() {
      inner.close();
    }
  }
}

package io.calcitebridge.functions;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.SqlSyntax;
import org.apache.calcite.sql.validate.SqlNameMatcher;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The functions users added to one environment, by name. Names are matched without regard to case,
 * as Flink matches function names; a qualified name ({@code c.db.f}) is found by its last part.
 */
public final class UserFunctionTable implements SqlOperatorTable {
  /** How a function was created: its scope, as Flink names it. */
  public enum Scope {
    /** {@code CREATE FUNCTION}, or {@code env.create_function}. */
    CATALOG,
    /** {@code CREATE TEMPORARY FUNCTION}. */
    TEMPORARY,
    /** {@code CREATE TEMPORARY SYSTEM FUNCTION}. */
    TEMPORARY_SYSTEM
  }

  /**
   * One function: its name as created, its scope, and its operator: a scalar {@link UserFunction},
   * or the {@link UserFunction} finisher of {@code wrapper}, a {@link UserAggregateFunction} or a
   * {@link UserTableFunction}; or, {@code function} null, a {@link JavaFunction} {@code wrapper}.
   */
  public record Entry(
      String name, Scope scope, @Nullable UserFunction function, @Nullable SqlOperator wrapper) {
    /** A scalar function. */
    public Entry(String name, Scope scope, UserFunction function) {
      this(name, scope, function, null);
    }

    /** A function written in Java. */
    public Entry(String name, Scope scope, JavaFunction function) {
      this(name, scope, null, function);
    }

    /** The operator SQL calls by the name. */
    public SqlOperator operator() {
      return java.util.Objects.requireNonNull(wrapper != null ? wrapper : function);
    }

    /** Releases what the function holds: its call sites, the class loader of its jars. */
    public void release() {
      if (function != null) {
        function.forget();
      }
      if (wrapper instanceof JavaFunction j) {
        j.close();
      } else if (wrapper instanceof UserTableFunction t && t.finisher() instanceof JavaFunction j) {
        j.close();
      } else if (wrapper instanceof UserAggregateFunction a
          && a.finisher() instanceof JavaAggregate j) {
        j.close();
      }
    }
  }

  private final Map<String, Entry> entries = new TreeMap<>();

  private static String key(String name) {
    return name.toLowerCase(Locale.ROOT);
  }

  /** The function named {@code name}, or null. */
  public synchronized @Nullable Entry get(String name) {
    return entries.get(key(name));
  }

  /**
   * Adds {@code entry}, replacing a function of the same name when {@code replace}; returns the
   * function it replaced, or null.
   */
  public synchronized @Nullable Entry put(Entry entry) {
    Entry old = entries.put(key(entry.name()), entry);
    if (old != null) {
      old.release();
    }
    return old;
  }

  /** Removes the function named {@code name}; returns it, or null when there was none. */
  public synchronized @Nullable Entry remove(String name) {
    Entry old = entries.remove(key(name));
    if (old != null) {
      old.release();
    }
    return old;
  }

  /** Every function, by name. */
  public synchronized List<Entry> entries() {
    return new ArrayList<>(entries.values());
  }

  /** Removes every function. */
  public synchronized void clear() {
    for (Entry e : entries.values()) {
      e.release();
    }
    entries.clear();
  }

  @Override
  public void lookupOperatorOverloads(
      SqlIdentifier opName,
      @Nullable SqlFunctionCategory category,
      SqlSyntax syntax,
      List<SqlOperator> operatorList,
      SqlNameMatcher nameMatcher) {
    if (syntax != SqlSyntax.FUNCTION || opName.names.isEmpty()) {
      return;
    }
    String name = opName.names.get(opName.names.size() - 1);
    Entry e = get(name);
    if (e != null) {
      operatorList.add(e.operator());
    } else if (name.endsWith(UserAggregateFunction.FINISH)) {
      e = get(name.substring(0, name.length() - UserAggregateFunction.FINISH.length()));
      if (e != null && e.wrapper() != null && e.function() != null) {
        operatorList.add(e.function());
      } else if (e != null && e.wrapper() instanceof UserTableFunction t) {
        operatorList.add(t.finisher());
      } else if (e != null && e.wrapper() instanceof UserAggregateFunction a) {
        operatorList.add(a.finisher());
      }
    }
  }

  @Override
  public List<SqlOperator> getOperatorList() {
    List<SqlOperator> out = new ArrayList<>();
    for (Entry e : entries()) {
      out.add(e.operator());
    }
    return out;
  }
}

package io.calcitebridge.examples;

import io.calcitebridge.api.source.ArrowRows;
import io.calcitebridge.api.source.FilterPushDownResult;
import io.calcitebridge.api.source.ScanRequest;
import io.calcitebridge.api.source.SupportsFilterPushDown;
import io.calcitebridge.api.source.TableSource;
import io.calcitebridge.expr.Call;
import io.calcitebridge.expr.Expression;
import io.calcitebridge.expr.Literal;
import io.calcitebridge.expr.NestedFieldReference;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A table of accounts, {@code id BIGINT, user ROW<name STRING, age INT>}, that applies filters on
 * {@code user.age} itself: a comparison of the age with a number is accepted, anything else is left
 * to the engine.
 */
public final class UsersSource implements TableSource, SupportsFilterPushDown {
  /** A person; a null age is SQL NULL. */
  public record Person(String name, Integer age) {}

  /** An account; a null user is a NULL ROW. */
  public record Account(long id, Person user) {}

  private static final Set<String> COMPARISONS = Set.of("=", "<>", "<", "<=", ">", ">=");

  private static final Schema SCHEMA =
      new Schema(
          List.of(
              new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
              new Field(
                  "user",
                  FieldType.nullable(ArrowType.Struct.INSTANCE),
                  List.of(
                      Field.nullable("name", ArrowType.Utf8.INSTANCE),
                      Field.nullable("age", new ArrowType.Int(32, true))))));

  private final List<Account> accounts;

  /** A source over {@code accounts}. */
  public UsersSource(List<Account> accounts) {
    this.accounts = List.copyOf(accounts);
  }

  @Override
  public Schema schema() {
    return SCHEMA;
  }

  @Override
  public boolean supportsNestedFilters() {
    return true; // offer me user.age < 30, not only filters on top-level columns
  }

  @Override
  public FilterPushDownResult applyFilters(List<Expression> filters) {
    List<Expression> accepted = new ArrayList<>();
    List<Expression> remaining = new ArrayList<>();
    for (Expression f : filters) {
      (isAgeComparison(f) ? accepted : remaining).add(f);
    }
    return FilterPushDownResult.of(accepted, remaining);
  }

  @Override
  public ArrowReader scan(ScanRequest request, BufferAllocator allocator) {
    List<Field> fields = new ArrayList<>();
    for (String name : request.outputNames(SCHEMA)) {
      fields.add(SCHEMA.findField(name));
    }
    List<Object[]> rows = new ArrayList<>();
    for (Account a : accounts) {
      if (request.filters().stream().allMatch(f -> holds((Call) f, a))) {
        Object[] row = new Object[fields.size()];
        for (int i = 0; i < row.length; i++) {
          row[i] = fields.get(i).getName().equals("id") ? (Object) a.id() : person(a.user());
        }
        rows.add(row);
      }
    }
    return ArrowRows.reader(allocator, new Schema(fields), rows);
  }

  private static Object[] person(Person p) {
    return p == null ? null : new Object[] {p.name(), p.age()};
  }

  /** {@code user.age <op> <integer>}. */
  private static boolean isAgeComparison(Expression f) {
    return f instanceof Call c
        && COMPARISONS.contains(c.function())
        && c.args().get(0) instanceof NestedFieldReference ref
        && ref.fieldNames().equals(List.of("user", "age"))
        && c.args().get(1) instanceof Literal lit
        && lit.value() instanceof Long;
  }

  /** Whether the comparison is TRUE for {@code a}; NULL (a NULL user or age) is not. */
  private static boolean holds(Call c, Account a) {
    if (a.user() == null || a.user().age() == null) {
      return false;
    }
    int cmp = Long.compare(a.user().age(), (Long) ((Literal) c.args().get(1)).value());
    return switch (c.function()) {
      case "=" -> cmp == 0;
      case "<>" -> cmp != 0;
      case "<" -> cmp < 0;
      case "<=" -> cmp <= 0;
      case ">" -> cmp > 0;
      default -> cmp >= 0;
    };
  }
}

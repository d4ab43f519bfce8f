package io.calcitebridge.validate;

import io.calcitebridge.catalog.CatalogTable;
import io.calcitebridge.catalog.ColumnDef;
import io.calcitebridge.catalog.TableStorage;
import io.calcitebridge.errors.ErrorKind;
import io.calcitebridge.errors.PositionedException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * Field discovery (DESIGN §6): a name that no table in scope declares is offered to the tables that
 * have dynamic columns; found in exactly one, it becomes a column of that table for the rest of the
 * statement.
 */
public final class FieldDiscovery {
  private final DiscoveryScope scope;
  private final RelDataTypeFactory typeFactory;
  private final Function<String, RelDataType> parseType;

  /**
   * Discovery over the tables {@code scope} saw; {@code parseType} reads a type as DDL writes it.
   */
  public FieldDiscovery(
      DiscoveryScope scope,
      RelDataTypeFactory typeFactory,
      Function<String, RelDataType> parseType) {
    this.scope = scope;
    this.typeFactory = typeFactory;
    this.parseType = parseType;
  }

  /**
   * Asks every dynamic table in scope for the column {@code request} names; returns whether exactly
   * one has it (and then adds it to that table), fails when several have it.
   */
  public boolean discover(DiscoveryRequest request) {
    List<String> owners = new ArrayList<>();
    RelDataType type = null;
    // `t.x` asks only table t when t names a table of the statement; an alias asks them all.
    String only = request.qualifier();
    if (only != null && !scope.seen().containsKey(only)) {
      only = null;
    }
    for (CatalogTable table : scope.seen().values()) {
      if (only != null && !only.equals(table.def().name())) {
        continue;
      }
      TableStorage storage = table.storage();
      if (!storage.discovers() || table.def().indexOf(request.name()) >= 0) {
        continue;
      }
      String answer = storage.discover(request.name());
      if (answer != null) {
        owners.add(table.def().name());
        type = parseType.apply(answer);
      }
    }
    if (owners.size() > 1) {
      throw new PositionedException(
          ErrorKind.VALIDATION,
          "Column '"
              + request.name()
              + "' is ambiguous: tables "
              + String.join(", ", owners)
              + " all have it",
          new SqlParserPos(
              request.original().getPosLine(),
              request.original().getPosColumn(),
              request.original().getEndPosLine(),
              request.original().getEndPosColumn()));
    }
    if (owners.isEmpty() || type == null) {
      return false;
    }
    scope.addDiscovered(
        owners.get(0),
        ColumnDef.dynamic(request.name(), typeFactory.createTypeWithNullability(type, true)));
    return true;
  }
}
